// The Setups panel with QT_QPA_PLATFORM=offscreen: inline validation and the Launch gate.
#include <gtest/gtest.h>
#include <parity/ui/experiment/experiment_form.h>
#include <parity/ui/setups/setup_form.h>
#include <parity/ui/setups/setup_presets.h>
#include <parity/ui/setups/setups_model.h>
#include <parity/ui/setups/setups_panel.h>

#include <QComboBox>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListView>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>

namespace parity::ui {
namespace {

class SetupsPanelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    panel.show();
    for (int i = 0; i < 3; ++i) panel.addPreset(i);
  }
  SetupsModel model;
  SetupsPanel panel{&model};
};

TEST_F(SetupsPanelTest, PresetsAreAddedAndValid) {
  EXPECT_EQ(model.rowCount(), 3);
  EXPECT_TRUE(panel.launchButton()->isEnabled());
  EXPECT_EQ(panel.currentRow(), 2);
}

TEST_F(SetupsPanelTest, InvalidValueIsMarkedInlineAndBlocksLaunch) {
  panel.setCurrentRow(1);
  auto* processes = qobject_cast<QSpinBox*>(panel.setupForm()->editor("num_processes"));
  ASSERT_NE(processes, nullptr);
  processes->setValue(0);
  EXPECT_FALSE(panel.launchButton()->isEnabled());
  const QString message = panel.setupForm()->issueText("num_processes");
  EXPECT_FALSE(message.isEmpty());
  // The engine's message, in the form's words: its field is called by its label.
  EXPECT_EQ(message.toStdString(), "Processes: 0 is not allowed; must be at least 1");
  EXPECT_EQ(model.issues(1).front().message, "num_processes: 0 is not allowed; must be at least 1");
  processes->setValue(2);
  EXPECT_TRUE(panel.launchButton()->isEnabled());
  EXPECT_TRUE(panel.setupForm()->issueText("num_processes").isEmpty());
}

// A setup that turns invalid gets its warning icon in the list without its row growing: the
// rows under the cursor stay where they are (#38 item 9).
TEST_F(SetupsPanelTest, AWarningIconLeavesEveryListRowAsHighAsBefore) {
  auto* list = panel.findChild<QListView*>("setupsList");
  ASSERT_NE(list, nullptr);
  QList<QRect> before;
  for (int row = 0; row < 3; ++row) before << list->visualRect(model.index(row));
  panel.setCurrentRow(1);
  qobject_cast<QSpinBox*>(panel.setupForm()->editor("num_processes"))->setValue(0);
  ASSERT_FALSE(model.issues(1).empty());
  ASSERT_FALSE(model.index(1).data(Qt::DecorationRole).isNull()) << "no warning icon";
  QCoreApplication::processEvents();
  list->doItemsLayout();
  for (int row = 0; row < 3; ++row)
    EXPECT_EQ(list->visualRect(model.index(row)), before[row]) << "row " << row;
}

TEST_F(SetupsPanelTest, Fp16OnCpuIsRefusedUnderThePrecisionField) {
  panel.setCurrentRow(0);
  auto* precision = qobject_cast<QComboBox*>(panel.setupForm()->editor("mixed_precision"));
  precision->setCurrentIndex(precision->findData(static_cast<int>(config::MixedPrecision::kFp16)));
  EXPECT_FALSE(panel.setupForm()->issueText("mixed_precision").isEmpty());
  EXPECT_FALSE(panel.launchButton()->isEnabled());
}

TEST_F(SetupsPanelTest, ExperimentErrorsShowInTheExperimentForm) {
  auto* epochs = qobject_cast<QSpinBox*>(panel.experimentForm()->editor("epochs"));
  ASSERT_NE(epochs, nullptr);
  epochs->setValue(0);
  EXPECT_FALSE(panel.experimentForm()->issueText("epochs").isEmpty());
  EXPECT_FALSE(panel.launchButton()->isEnabled());
  EXPECT_EQ(model.config(2).epochs, 0);
}

TEST_F(SetupsPanelTest, CudaIsListedButDisabledWithoutACudaBuild) {
  auto* device = qobject_cast<QComboBox*>(panel.setupForm()->editor("device"));
  auto* items = qobject_cast<QStandardItemModel*>(device->model());
  ASSERT_NE(items, nullptr);
  ASSERT_EQ(items->rowCount(), 2);
  EXPECT_EQ(items->item(1)->isEnabled(), config::cuda_build());
  if (!config::cuda_build()) {
    EXPECT_FALSE(items->item(1)->toolTip().isEmpty());
  }
}

TEST_F(SetupsPanelTest, LaunchHandsOverEveryConfig) {
  QSignalSpy launched(&panel, &SetupsPanel::launchRequested);
  panel.launchButton()->click();
  ASSERT_EQ(launched.count(), 1);
  const auto configs = launched.at(0).at(0).value<std::vector<config::RunConfig>>();
  EXPECT_EQ(configs.size(), 3u);
}

// Launch selected starts only the setups picked in the list (Ctrl+click), in list order.
TEST_F(SetupsPanelTest, LaunchSelectedHandsOverOnlyTheSelectedSetups) {
  auto* list = panel.findChild<QListView*>("setupsList");
  ASSERT_NE(list, nullptr);
  list->selectionModel()->clearSelection();
  EXPECT_FALSE(panel.launchSelectedButton()->isEnabled());
  list->selectionModel()->select(model.index(2), QItemSelectionModel::Select);
  list->selectionModel()->select(model.index(0), QItemSelectionModel::Select);
  ASSERT_TRUE(panel.launchSelectedButton()->isEnabled());
  QSignalSpy launched(&panel, &SetupsPanel::launchRequested);
  panel.launchSelectedButton()->click();
  ASSERT_EQ(launched.count(), 1);
  const auto configs = launched.at(0).at(0).value<std::vector<config::RunConfig>>();
  ASSERT_EQ(configs.size(), 2u);
  EXPECT_EQ(configs[0].label, model.config(0).label);
  EXPECT_EQ(configs[1].label, model.config(2).label);
  // An invalid selected setup blocks it, as it blocks Launch.
  panel.setCurrentRow(2);
  list->selectionModel()->select(model.index(0), QItemSelectionModel::Select);
  qobject_cast<QSpinBox*>(panel.setupForm()->editor("num_processes"))->setValue(0);
  EXPECT_FALSE(panel.launchSelectedButton()->isEnabled());
}

}  // namespace
}  // namespace parity::ui
