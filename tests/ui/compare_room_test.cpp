// The Compare pane readable after a Prove (#38 item 9): at 1500x950 a long Proof no longer pushes
// Why out of sight; at 900x600 the verdict table shows its rows (two, behind the details' equal
// share, before), the Δ plot's y labels are numbers, not "...", after the window shrinks, and the
// Δ legend names each line by its run number.
#include <gtest/gtest.h>
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/compare/verdict_table_model.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/window/main_window.h>

#include <QDockWidget>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>

#include "test_util.h"

namespace parity::ui {
namespace {

class CompareRoom : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir.isValid());
    path = dir.filePath("runs.db");
    storage::Database db(path.toStdString());
    config::RunConfig ref = test::smallRegression("ref", 1, 16);
    ref.seed = 1;
    reference = test::addFinishedRun(db, "ref", 60, 16, config::to_json(ref));
    config::RunConfig two = ref;
    two.num_processes = 2;
    explained = test::addFinishedRun(db, "two", 60, 32, config::to_json(two), 1.3);
    config::RunConfig wide = ref;
    wide.per_device_batch_size = 32;
    test::addFinishedRun(db, "wide", 60, 32, config::to_json(wide), 1.3);
    // Prove's counterfactuals, recorded as Prove records them.
    for (const char* cause : {"global_batch", "effective_lr"}) {
      const int64_t cf = test::addFinishedRun(db, std::string("cf #2 ") + cause, 60, 16,
                                              config::to_json(ref), cause[0] == 'g' ? 1.0 : 1.1);
      db.set_counterfactual_of(cf, explained, reference, cause);
    }
  }

  void compareIn(MainWindow& window, int width, int height) {
    window.resize(width, height);
    window.show();
    window.openDatabase(path);
    ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
    window.findChild<QDockWidget*>("compareDock")->raise();
    ComparePanel* panel = window.comparePanel();
    bool done = false;
    QObject::connect(panel, &ComparePanel::compared, [&] { done = true; });
    panel->compare();
    ASSERT_TRUE(test::waitFor([&] { return done; }));
    QTest::qWait(50);
  }

  QTemporaryDir dir;
  QString path;
  int64_t reference = 0, explained = 0;
};

TEST_F(CompareRoom, WhyStaysInSightBesideALongProofAt1500x950) {
  MainWindow window({false, true});
  compareIn(window, 1500, 950);
  QTableView* table = window.comparePanel()->verdictTable();
  const QString proof = table->model()->index(1, VerdictTableModel::kProofColumn).data().toString();
  ASSERT_TRUE(proof.contains("global_batch")) << proof.toStdString();
  const int whyAt = table->columnViewportPosition(VerdictTableModel::kWhyColumn);
  EXPECT_GE(whyAt, 0);
  EXPECT_LT(whyAt + 80, table->viewport()->width())
      << "Why starts at " << whyAt << " of " << table->viewport()->width() << " px";
  // The parting label ("#2, #3, #5" at the first point) stays whole inside the plot.
  QChart* plot = window.comparePanel()->deltaChart();
  int labels = 0;
  for (QAbstractSeries* s : plot->series()) {
    auto* label = qobject_cast<QLineSeries*>(s);
    if (!label || label->objectName() != "partingLabel") continue;
    ++labels;
    const double half =
        QFontMetricsF(label->pointLabelsFont()).horizontalAdvance(label->pointLabelsFormat()) / 2;
    const double centre = plot->mapToPosition(label->at(0), label).x();
    EXPECT_GE(centre - half, plot->plotArea().left() - 1)
        << label->pointLabelsFormat().toStdString();
    EXPECT_LE(centre + half, plot->plotArea().right() + 1)
        << label->pointLabelsFormat().toStdString();
  }
  EXPECT_GE(labels, 1) << "no parting label";
  // The Δ legend names each line by its run's number, as the table and the plot's marks do.
  const QString legend = window.comparePanel()->deltaLegend()->text();
  for (const char* name : {"#2&nbsp;two", "#4&nbsp;cf&nbsp;#2&nbsp;global_batch"})
    EXPECT_TRUE(legend.contains(name)) << name << " not in " << legend.toStdString();
}

/// The Δ plot's y labels as painted (text items left of the plot area).
QStringList yLabels(QChart* chart) {
  QStringList labels;
  const QRectF plot = chart->plotArea();
  for (QGraphicsItem* item : chart->scene()->items()) {
    auto* text = dynamic_cast<QGraphicsTextItem*>(item);
    if (text == nullptr || !text->isVisible()) continue;
    const QRectF r = text->sceneBoundingRect();
    if (r.right() <= plot.left() + 1 && r.bottom() > plot.top() - 10 &&
        r.top() < plot.bottom() + 10 && r.width() < 80)
      labels << text->toPlainText();
  }
  return labels;
}

TEST_F(CompareRoom, At900x600TheVerdictsShowAndThePlotIsLabelled) {
  MainWindow window({false, true});
  compareIn(window, 1500, 950);
  window.resize(900, 600);
  ComparePanel* panel = window.comparePanel();
  QTableView* table = panel->verdictTable();
  // The rows in sight, whole: five rows are compared.
  ASSERT_TRUE(test::waitFor(
      [&] {
        return table->rowViewportPosition(2) + table->rowHeight(2) <= table->viewport()->height();
      },
      3000))
      << "table " << table->height() << " px high of a pane " << panel->height() << ", window "
      << window.height() << ", rows " << table->model()->rowCount();
  ASSERT_TRUE(test::waitFor([&] { return !yLabels(panel->deltaChart()).isEmpty(); }, 3000));
  // Replotted for the new size once the resize settles.
  QTest::qWait(400);
  const QStringList labels = yLabels(panel->deltaChart());
  ASSERT_GE(labels.size(), 2) << labels.join(" | ").toStdString();
  for (const QString& l : labels) {
    if (l.isEmpty()) continue;  // the category axis' unlabelled start
    bool number = false;
    l.toDouble(&number);
    EXPECT_TRUE(number) << "y label '" << l.toStdString()
                        << "' at 900x600: " << labels.join(" | ").toStdString();
  }
}

}  // namespace
}  // namespace parity::ui
