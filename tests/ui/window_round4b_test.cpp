// The window, round four (#38 §5, 6, 7, 11, 12), on the paths a user meets with runs imported
// from Accelerate's TensorBoard logs (tests/fixtures/accelerate-tensorboard, through parity-cli
// import as File > Import runs… does): Prove on an imported run answers in the details pane; Edit
// facts fills the facts an import leaves unknown; the verdict gives facts in the window's words;
// the Runs table tells runs apart by their learning rate and shows their samples/s; Tab follows
// the panes' reading order. Screenshots (offscreen grabs) in screenshots/ of the test's folder.
#include <gtest/gtest.h>
#include <parity/config/run_facts.h>
#include <parity/storage/database.h>
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/compare/verdict_table_model.h>
#include <parity/ui/import/facts_dialog.h>
#include <parity/ui/import/run_importer.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/runs/runs_panel.h>
#include <parity/ui/setups/setup_form.h>
#include <parity/ui/setups/setups_panel.h>
#include <parity/ui/widgets/tab_order.h>
#include <parity/ui/window/main_window.h>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>

#include "test_util.h"

namespace parity::ui {
namespace {

const QString kFixtures = PARITY_SOURCE_DIR "/tests/fixtures/accelerate-tensorboard/";

// The runs at `paths` imported into `db` as the window's File > Import runs… does.
void importRuns(const QString& db, const QStringList& paths) {
  RunImporter importer;
  QSignalSpy finished(&importer, &RunImporter::finished);
  ASSERT_TRUE(importer.start(db, paths, false));
  ASSERT_TRUE(test::waitFor([&] { return finished.count() > 0; }, 60000));
  ASSERT_EQ(finished.first().at(0).toInt(), 0) << finished.first().at(2).toString().toStdString();
}

qint64 runLabelled(const MainWindow& window, const std::string& label) {
  for (const auto& r : window.runsModel()->runs())
    if (r.label == label) return r.id;
  return 0;
}

QString cell(const MainWindow& window, qint64 runId, int column) {
  RunsModel* m = window.runsModel();
  return m->index(m->rowOf(runId), column).data().toString();
}

// An offscreen grab of the window, kept to be looked at.
void screenshot(QWidget& window, const QString& name) {
  QDir().mkpath("screenshots");
  EXPECT_TRUE(window.grab().save("screenshots/" + name + ".png"));
}

class ImportedRuns : public ::testing::Test {
 protected:
  void import(const QStringList& runs) {
    QStringList paths;
    for (const QString& r : runs) paths << kFixtures + r;
    importRuns(db, paths);
  }
  void open(const QStringList& runs, int width = 1600, int height = 950) {
    import(runs);
    show(static_cast<int>(runs.size()), width, height);
  }
  void show(int runs, int width, int height) {
    window.resize(width, height);
    window.show();
    window.openDatabase(db);
    ASSERT_TRUE(test::waitFor([&] {
      return window.isSettled(false) && window.runsModel()->rowCount() == runs;
    }));
  }
  // The Compare pane in front, `reference` against the drawn runs, compared.
  void compare(qint64 reference, const QList<qint64>& others) {
    for (qint64 id : QList<qint64>{reference} + others) window.runsModel()->setShown(id, true);
    window.findChild<QDockWidget*>("compareDock")->raise();
    ComparePanel* panel = window.comparePanel();
    QComboBox* box = referenceBox();
    ASSERT_TRUE(test::waitFor([&] { return box->findData(reference) >= 0; }));
    box->setCurrentIndex(box->findData(reference));
    QSignalSpy compared(panel, &ComparePanel::compared);
    panel->compare();
    ASSERT_TRUE(test::waitFor([&] { return compared.count() > 0; }));
  }
  QComboBox* referenceBox() const {
    for (auto* box : window.comparePanel()->findChildren<QComboBox*>())
      if (box != window.comparePanel()->plotKindBox()) return box;
    return nullptr;
  }
  QTemporaryDir dir;
  const QString db = dir.filePath("runs.db");
  MainWindow window{{false, true}};
};

// #38 §11: imported 2x32 and 2x32-lr0.1 both read "2×32 = 64 seed 42", and samples/s was blank
// for imported runs though Compare had it. Each now says its learning rate, and its samples/s
// is the one Compare reads: the last logged point's samples over its time.
TEST_F(ImportedRuns, TheRunsTableSaysTheirLearningRateAndSamplesPerSecond) {
  open({"2x32", "2x32-lr0.1"});
  const qint64 base = runLabelled(window, "2x32"), lr = runLabelled(window, "2x32-lr0.1");
  EXPECT_EQ(cell(window, base, RunsModel::kSetup), "2×32 = 64 lr 0.05 seed 42");
  EXPECT_EQ(cell(window, lr, RunsModel::kSetup), "2×32 = 64 lr 0.1 seed 42");
  storage::Database d(db.toStdString());
  for (qint64 id : {base, lr}) {
    const auto steps = d.steps(id, -1);
    ASSERT_FALSE(steps.empty());
    const double expected = static_cast<double>(steps.back().samples) / steps.back().time_s;
    ASSERT_GT(expected, 0);
    EXPECT_EQ(cell(window, id, RunsModel::kSpeed), QString::number(expected, 'f', 0)) << id;
  }
  // Compare shows the same figure in its samples/s column.
  compare(base, {lr});
  const auto& rows = window.comparePanel()->comparison().rows;
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& r : rows)
    EXPECT_EQ(QString::number(r.samples_per_s, 'f', 0), cell(window, r.id, RunsModel::kSpeed));
  window.findChild<QDockWidget*>("runsDock")->raise();
  QApplication::processEvents();
  screenshot(window, "round4b-11-runs-lr-speed");
}

// #38 §5: Prove on an imported run trains nothing (Parity has neither its data nor its model);
// its answer, what to align in the user's own training, was only in the status line, elided to
// a tooltip. It is in the details pane under the verdict, whole. §7: the verdict gives an unknown
// fact in the window's words (Runs > Edit facts…), not `parity-cli set RUN --flag`.
TEST_F(ImportedRuns, ProveOnAnImportedRunAnswersInTheDetailsPane) {
  import({"2x32", "2x32-lr0.1"});
  {
    // The second run's seed unknown, as a log that does not say it leaves it.
    storage::Database d(db.toStdString());
    config::RunFacts facts = config::run_facts_from_json(d.get_run(2)->facts_json);
    facts.seed = {};
    d.set_facts(2, config::to_json(facts), "");
  }
  show(2, 900, 600);
  const qint64 base = runLabelled(window, "2x32"), lr = runLabelled(window, "2x32-lr0.1");
  ASSERT_EQ(lr, 2);
  ASSERT_TRUE(cell(window, lr, RunsModel::kSetup).contains("seed ?"));
  compare(base, {lr});
  ComparePanel* panel = window.comparePanel();
  QTableView* view = panel->verdictTable();
  view->selectRow(panel->verdictModel()->rowOf(lr));
  const QString unknown = panel->details()->toPlainText();
  QString seedLine;
  for (const QString& line : unknown.split('\n'))
    if (line.contains("seed unknown")) seedLine = line;
  EXPECT_EQ(seedLine, "seed unknown (this run): give it with Runs › Edit facts…")
      << unknown.toStdString();

  view->selectRow(panel->verdictModel()->rowOf(lr));
  ASSERT_EQ(panel->comparison().rows[panel->verdictModel()->rowOf(lr)].verdict,
            analysis::Verdict::kDifferent);
  ASSERT_TRUE(panel->proveButton()->isEnabled());
  const int runsBefore = window.runsModel()->rowCount();
  panel->proveButton()->click();
  ASSERT_TRUE(test::waitFor(
      [&] { return panel->details()->toPlainText().contains("nothing trained here"); }, 30000))
      << panel->details()->toPlainText().toStdString();
  const QString details = panel->details()->toPlainText();
  // Settings in the window's words, flags nowhere ("train it again with learning rate 0.05").
  EXPECT_FALSE(details.contains("--")) << details.toStdString();
  EXPECT_TRUE(details.contains("train it again with learning rate 0.05")) << details.toStdString();
  // Scrolled to the answer: the pane shows it, not the top of the verdict.
  EXPECT_TRUE(test::waitFor([&] { return panel->details()->verticalScrollBar()->value() > 0; }))
      << "the details pane stayed at the top of the verdict";
  EXPECT_TRUE(details.contains("align each cause below in your own training"))
      << details.toStdString();
  EXPECT_TRUE(details.contains("lr:") || details.contains("learning rate"))
      << details.toStdString();
  EXPECT_EQ(window.runsModel()->rowCount(), runsBefore) << "Prove trained an imported run";
  screenshot(window, "round4b-5-prove-imported-900x600");
  window.resize(1600, 950);
  QApplication::processEvents();
  screenshot(window, "round4b-5-prove-imported-1600x950");
}

// #38 §6: the import lists schedule, threads and model as unknown, and Edit facts could not fill
// them. Runs > Edit facts… now has them; given, parity-cli set writes them as known facts.
TEST_F(ImportedRuns, EditFactsFillsTheScheduleThreadsAndModel) {
  open({"2x32"});
  const qint64 run = runLabelled(window, "2x32");
  bool filled = false;
  QTimer::singleShot(0, [&] {
    auto* dialog = window.findChild<FactsDialog*>("factsDialog");
    ASSERT_NE(dialog, nullptr);
    auto* schedule = qobject_cast<QComboBox*>(dialog->editor("--scheduler"));
    auto* threads = qobject_cast<QLineEdit*>(dialog->editor("--threads-per-rank"));
    auto* model = qobject_cast<QLineEdit*>(dialog->editor("--model"));
    if (!schedule || !threads || !model) {
      dialog->reject();
      return;
    }
    EXPECT_EQ(schedule->currentText(), "unknown");
    EXPECT_TRUE(threads->text().isEmpty() && model->text().isEmpty());
    schedule->setCurrentIndex(schedule->findData("cosine"));
    threads->setText("4");
    model->setText("mlp 784-256-128-10, no dropout");
    filled = true;
    for (auto* b : dialog->findChildren<QPushButton*>())
      if (b->text().contains("OK")) b->click();
  });
  window.editFacts(run);
  ASSERT_TRUE(filled) << "the facts dialog has no Schedule, Threads per rank or Model";
  storage::Database d(db.toStdString());
  const config::RunFacts facts = config::run_facts_from_json(d.get_run(run)->facts_json);
  ASSERT_TRUE(facts.schedule.has_value() && facts.threads_per_rank.has_value() &&
              facts.model.has_value());
  EXPECT_EQ(*facts.schedule, "cosine");
  EXPECT_EQ(*facts.threads_per_rank, 4);
  EXPECT_EQ(*facts.model, "mlp 784-256-128-10, no dropout");
  EXPECT_EQ(facts.schedule.provenance, config::Provenance::kKnown);
  EXPECT_EQ(*facts.learning_rate, 0.05) << "a fact not changed stays";
}

// The widgets of `order` as Tab reaches them, starting at the first: their positions in Tab's
// cycle from it (each must come after the one before).
std::vector<int> tabPositions(const QWidgetList& order) {
  std::vector<int> at;
  const QWidgetList cycle = tabStops(order.front()->window());
  for (QWidget* w : order) at.push_back(static_cast<int>(cycle.indexOf(w)));
  return at;
}

// #38 §12: Tab went to Launch before Launch selected, to the form after both, to the Runs table
// before its filter, and in Compare from Reference to Plot before Compare. It follows each pane's
// reading order now: top to bottom, left to right. Real Tab presses, where the widgets take focus.
TEST_F(ImportedRuns, TabFollowsEachPanesReadingOrder) {
  open({"2x32", "2x32-lr0.1"});
  // One cycle through the whole window: every widget Tab can stop at is on it.
  const QWidgetList cycle = tabStops(&window);
  for (QWidget* w : window.findChildren<QWidget*>()) {
    if (w->window() == &window && (w->focusPolicy() & Qt::TabFocus) && !w->focusProxy())
      EXPECT_TRUE(cycle.contains(w)) << w->metaObject()->className() << " "
                                     << w->objectName().toStdString() << " is off Tab's cycle";
  }
  SetupsPanel* setups = window.setupsPanel();
  QWidget* label = setups->setupForm()->editor("label");  // the setup form's first field
  ASSERT_NE(label, nullptr);
  auto positions = tabPositions(QWidgetList{label, setups->concurrencyBox(),
                                             setups->launchSelectedButton(), setups->launchButton()});
  for (size_t i = 1; i < positions.size(); ++i)
    EXPECT_LT(positions[i - 1], positions[i]) << "Setups stop " << i;

  RunsPanel* runs = window.runsPanel();
  auto* filter = runs->findChild<QLineEdit*>();
  positions = tabPositions(QWidgetList{filter, runs->view()});
  EXPECT_LT(positions[0], positions[1]);
  window.activateWindow();
  filter->setFocus();
  ASSERT_TRUE(test::waitFor([&] { return filter->hasFocus(); }));
  QTest::keyClick(filter, Qt::Key_Tab);
  EXPECT_EQ(QApplication::focusWidget(), runs->view());

  compare(runLabelled(window, "2x32"), {runLabelled(window, "2x32-lr0.1")});
  ComparePanel* panel = window.comparePanel();
  QComboBox* reference = referenceBox();
  QWidget* compareButton = nullptr;
  for (auto* b : panel->findChildren<QPushButton*>())
    if (b->text().remove('&') == "Compare") compareButton = b;
  ASSERT_NE(compareButton, nullptr);
  positions = tabPositions(QWidgetList{reference, compareButton, panel->proveButton(),
                                       panel->plotKindBox(), panel->verdictTable()});
  for (size_t i = 1; i < positions.size(); ++i)
    EXPECT_LT(positions[i - 1], positions[i]) << "stop " << i;
  reference->setFocus();
  ASSERT_TRUE(test::waitFor([&] { return reference->hasFocus(); }));
  QTest::keyClick(reference, Qt::Key_Tab);
  EXPECT_EQ(QApplication::focusWidget(), compareButton)
      << (QApplication::focusWidget() ? QApplication::focusWidget()->metaObject()->className()
                                      : "none");
}

}  // namespace
}  // namespace parity::ui
