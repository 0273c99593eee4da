// The Setups and Experiment tabs kept with the database (#24 item 7, schema 7's window_setups):
// what the user configured comes back when the database is reopened; a database without saved
// setups gets nothing written until the user changes something; and "New setup from run #N"
// adds a setup with the run's values.
#include <gtest/gtest.h>
#include <parity/config/run_config.h>
#include <parity/ui/experiment/experiment_form.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/runs/runs_panel.h>
#include <parity/ui/setups/setups_model.h>
#include <parity/ui/setups/setups_panel.h>
#include <parity/ui/window/main_window.h>

#include <QAction>
#include <QItemSelectionModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "test_util.h"

namespace parity::ui {
namespace {

class KeptSetups : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir.isValid());
    path = dir.filePath("runs.db");
    storage::Database db(path.toStdString());
    const config::RunConfig trained = test::smallRegression("mine 2x16", 2, 16);
    runId = test::addFinishedRun(db, "mine 2x16", 20, 32, config::to_json(trained));
  }
  std::optional<std::string> saved() {
    return storage::Database(path.toStdString(), storage::OpenMode::kReadOnly).saved_setups();
  }
  void open(MainWindow& window) {
    window.show();
    window.openDatabase(path);
    ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  }
  QStringList labels(MainWindow& window) {
    QStringList all;
    for (const auto& c : window.setupsModel()->configs()) all << QString::fromStdString(c.label);
    return all;
  }

  QTemporaryDir dir;
  QString path;
  int64_t runId = 0;
};

TEST_F(KeptSetups, ChangesAreSavedWithTheDatabaseAndComeBackWhenItReopens) {
  QStringList presets;
  {
    MainWindow window({false, true});
    open(window);
    presets = labels(window);
    // Opening a database with nothing saved writes nothing, however long the window stays.
    QTest::qWait(1000);
    EXPECT_FALSE(saved()) << *saved();

    SetupsModel* setups = window.setupsModel();
    config::RunConfig mine = setups->config(0);
    mine.label = "my 4x16";
    mine.num_processes = 4;
    mine.per_device_batch_size = 16;
    setups->addSetup(mine);
    config::RunConfig experiment = setups->experiment();
    experiment.lr = 0.025;
    experiment.hidden = {32};
    setups->setExperiment(experiment);
    ASSERT_TRUE(test::waitFor([&] { return saved().has_value(); }));
  }
  MainWindow window({false, true});
  EXPECT_EQ(labels(window), presets);  // no database yet: the presets
  open(window);
  ASSERT_TRUE(test::waitFor([&] { return labels(window).contains("my 4x16"); }))
      << labels(window).join(", ").toStdString();
  EXPECT_EQ(labels(window).size(), presets.size() + 1);
  const config::RunConfig mine = window.setupsModel()->config(presets.size());
  EXPECT_EQ(mine.num_processes, 4);
  EXPECT_EQ(mine.per_device_batch_size, 16);
  EXPECT_EQ(mine.hidden, (std::vector<int64_t>{32}));
  // The Experiment tab shows what was kept, not Fashion-MNIST's defaults.
  const config::RunConfig shown =
      window.setupsPanel()->experimentForm()->config(window.setupsModel()->experiment());
  EXPECT_DOUBLE_EQ(window.setupsModel()->experiment().lr, 0.025);
  EXPECT_EQ(shown.hidden, (std::vector<int64_t>{32}));
}

TEST_F(KeptSetups, ANewSetupFromARunHasItsValuesAndIsKept) {
  {
    MainWindow window({false, true});
    open(window);
    QTableView* view = window.runsPanel()->view();
    const int row = window.runsModel()->rowOf(runId);
    ASSERT_GE(row, 0);
    view->selectionModel()->select(view->model()->index(row, 0),
                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QAction* action = window.runsPanel()->newSetupAction();
    ASSERT_TRUE(action->isEnabled());
    EXPECT_EQ(action->text().remove('&'), QString("New setup from run #%1").arg(runId));
    const int before = window.setupsModel()->rowCount();
    action->trigger();
    ASSERT_EQ(window.setupsModel()->rowCount(), before + 1);
    const config::RunConfig added = window.setupsModel()->config(before);
    EXPECT_EQ(added.label, "mine 2x16");
    EXPECT_EQ(added.num_processes, 2);
    EXPECT_EQ(added.per_device_batch_size, 16);
    EXPECT_DOUBLE_EQ(added.lr, 0.05);
    // Its experiment (synthetic regression, a linear model) came with it.
    EXPECT_EQ(added.dataset, config::DatasetKind::kSyntheticRegression);
    EXPECT_EQ(added.model, config::ModelKind::kLinear);
    EXPECT_EQ(window.setupsPanel()->currentRow(), before);
    ASSERT_TRUE(test::waitFor([&] { return saved().has_value(); }));
  }
  MainWindow window({false, true});
  open(window);
  ASSERT_TRUE(test::waitFor([&] { return labels(window).contains("mine 2x16"); }));
  EXPECT_EQ(window.setupsModel()->experiment().dataset, config::DatasetKind::kSyntheticRegression);
}

}  // namespace
}  // namespace parity::ui
