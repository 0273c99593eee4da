#include <gtest/gtest.h>
#include <parity/ui/experiment/experiment_form.h>
#include <parity/ui/setups/equivalent_batch_panel.h>
#include <parity/ui/setups/reference_batch_model.h>
#include <parity/ui/setups/setup_plan_model.h>
#include <parity/ui/setups/setup_presets.h>
#include <parity/ui/setups/setups_model.h>
#include <parity/ui/setups/setups_panel.h>
#include <parity/ui/window/main_window.h>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>

#include "test_util.h"

namespace parity::ui {
namespace {

config::RunConfig setup(const char* label, int processes, int64_t batch,
                        config::LrScaling scaling = config::LrScaling::kNone,
                        int accumulation = 1) {
  config::RunConfig c = defaultExperiment();
  c.label = label;
  c.num_processes = processes;
  c.per_device_batch_size = batch;
  c.lr_scaling = scaling;
  c.gradient_accumulation_steps = accumulation;
  return c;
}

TEST(ReferenceBatchModel, TheSeedsTable) {
  ReferenceBatchModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  ASSERT_EQ(model.rowCount(), 4);
  ASSERT_EQ(model.columnCount(), 4);  // reference + 1 GPU, 2 GPUs, 8-worker TPU pod
  EXPECT_EQ(model.index(0, 0).data().toLongLong(), 256);
  EXPECT_EQ(model.index(0, 2).data().toLongLong(), 128);  // 2 GPUs
  EXPECT_EQ(model.index(0, 3).data().toLongLong(), 32);   // 8-worker pod
  EXPECT_EQ(model.index(2, 2).data().toLongLong(), 32);   // G=64 on 2 GPUs
  EXPECT_EQ(model.index(2, 3).data().toLongLong(), 8);    // G=64 on the pod
}

TEST(ReferenceBatchModel, AddsColumnsForOtherShapesAndSaysWhenNothingDivides) {
  ReferenceBatchModel model;
  QAbstractItemModelTester tester(&model);
  model.setSetupShapes({setup("3x", 3, 10)});
  ASSERT_EQ(model.columnCount(), 5);
  const QModelIndex cell = model.index(0, 4);  // 256 on 3 processes
  EXPECT_EQ(cell.data().toString(), "—");
  EXPECT_TRUE(cell.data(Qt::ToolTipRole).toString().contains("does not divide"));
}

TEST(SetupPlanModel, HighlightsWhatDiffersFromTheReferenceWithTheReason) {
  SetupPlanModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setSetups({setup("1x256", 1, 256), setup("2x128", 2, 128),
                   setup("2x64 linear", 2, 64, config::LrScaling::kLinear)},
                  256);
  ASSERT_EQ(model.rowCount(), 3);
  auto differs = [&](int row, int column) {
    return model.index(row, column).data(SetupPlanModel::kDiffersRole).toBool();
  };
  EXPECT_FALSE(differs(0, SetupPlanModel::kGlobalBatch));
  EXPECT_FALSE(differs(1, SetupPlanModel::kGlobalBatch));
  EXPECT_FALSE(differs(1, SetupPlanModel::kEffectiveLr));
  EXPECT_TRUE(differs(2, SetupPlanModel::kGlobalBatch));
  EXPECT_TRUE(differs(2, SetupPlanModel::kEffectiveLr));
  const QString why = model.index(2, SetupPlanModel::kGlobalBatch).data(Qt::ToolTipRole).toString();
  EXPECT_TRUE(why.contains("128 vs reference 256")) << why.toStdString();
  EXPECT_TRUE(why.contains("per-device batch 128")) << why.toStdString();
  EXPECT_EQ(model.index(1, SetupPlanModel::kSchedulerPace).data().toInt(), 2);
  EXPECT_EQ(model.index(1, SetupPlanModel::kMatch).data().toLongLong(), 128);
  EXPECT_FALSE(model.index(2, SetupPlanModel::kGlobalBatch).data(Qt::BackgroundRole).isNull());
}

TEST(SetupPlanModel, StepsPerEpochFromTheTrainingSetSize) {
  SetupPlanModel model;
  config::RunConfig c = setup("1x64", 1, 64);
  c.train_samples = 6400;
  model.setSetups({c}, 64);
  EXPECT_EQ(model.index(0, SetupPlanModel::kStepsPerEpoch).data().toLongLong(), 100);
}

// A csv's setups are planned with the rows the Experiment tab counted: steps per epoch and the
// samples even_batches repeats are numbers, not "?" (10 rows, 2 processes of 3 repeat 2).
TEST(SetupPlanModel, ACsvSetupIsPlannedWithTheCountedRows) {
  SetupPlanModel model;
  config::RunConfig c = setup("2x3", 2, 3);
  c.dataset = config::DatasetKind::kCsv;
  c.data_path = "data.csv";
  c.target = "y";  // a valid csv setup: only a valid one is planned
  model.setSetups({c}, 6);
  EXPECT_EQ(model.index(0, SetupPlanModel::kStepsPerEpoch).data().toString(), "?");
  EXPECT_EQ(model.index(0, SetupPlanModel::kRepeated).data().toString(), "?");
  model.setSetups({c}, 6, 10);
  EXPECT_EQ(model.index(0, SetupPlanModel::kStepsPerEpoch).data().toLongLong(), 2);
  EXPECT_EQ(model.index(0, SetupPlanModel::kRepeated).data().toLongLong(), 2);
  EXPECT_TRUE(
      model.index(0, SetupPlanModel::kRepeated).data(SetupPlanModel::kDiffersRole).toBool());
}

// An invalid setup never reaches the planner: its row's plan error (the Notes) is the setup's
// validation message, its steps unknown, while what the config alone says still shows. A setup
// whose data size is unknown keeps its note about the data file.
TEST(SetupPlanModel, AnInvalidSetupShowsItsValidationMessage) {
  SetupPlanModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  config::RunConfig zeroK = setup("acc 0", 1, 64), badLr = setup("lr -1", 2, 32);
  zeroK.gradient_accumulation_steps = 0;
  badLr.lr = -1;
  for (config::RunConfig* c : {&zeroK, &badLr}) c->train_samples = 6400;
  config::RunConfig csv = setup("csv", 1, 64);
  csv.dataset = config::DatasetKind::kCsv;
  csv.data_path = "data.csv";
  csv.epochs = 0;
  model.setSetups({zeroK, badLr, csv}, 64);
  const auto notes = [&](int row) {
    return model.index(row, SetupPlanModel::kNotes).data().toString().toStdString();
  };
  EXPECT_EQ(notes(0), "gradient_accumulation_steps: 0 is not allowed; must be at least 1");
  ASSERT_FALSE(config::check(badLr).empty());
  EXPECT_EQ(notes(1), config::check(badLr).front().message);
  for (int row : {0, 1}) {
    EXPECT_EQ(model.index(row, SetupPlanModel::kStepsPerEpoch).data().toString(), "?") << row;
  }
  EXPECT_EQ(model.index(1, SetupPlanModel::kGlobalBatch).data().toLongLong(), 64);
  EXPECT_EQ(notes(2),
            "Steps per epoch depend on the data file's length, known once the Experiment tab has "
            "counted its rows");
  model.setSetups({csv}, 64, 640);  // now counted: the invalid setup's message
  EXPECT_EQ(notes(0), config::check(csv).front().message);
}

// The even_batches tail: a setup whose last batches are padded shows, highlighted, how many samples
// it draws twice per epoch (DESIGN.md's N=10, W=2, B=3 example repeats [0, 1]).
TEST(SetupPlanModel, HighlightsTheSamplesEvenBatchesRepeats) {
  SetupPlanModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  config::RunConfig one = setup("1x3", 1, 3), even = setup("2x3", 2, 3),
                    uneven = setup("2x3 uneven", 2, 3);
  uneven.even_batches = false;
  config::RunConfig fullOne = setup("1x256", 1, 256), fullTwo = setup("2x128", 2, 128);
  for (config::RunConfig* c : {&one, &even, &uneven}) c->train_samples = 10;
  for (config::RunConfig* c : {&fullOne, &fullTwo}) c->train_samples = 60000;
  model.setSetups({one, even, uneven, fullOne, fullTwo}, 6);
  auto cell = [&](int row) { return model.index(row, SetupPlanModel::kRepeated); };
  EXPECT_EQ(model.headerData(SetupPlanModel::kRepeated, Qt::Horizontal).toString(),
            "Repeated/epoch");
  EXPECT_EQ(cell(0).data().toLongLong(), 0);
  EXPECT_EQ(cell(1).data().toLongLong(), 2);
  EXPECT_EQ(cell(2).data().toLongLong(), 0);
  EXPECT_EQ(cell(3).data().toLongLong(), 0);    // one process: a short last batch, no padding
  EXPECT_EQ(cell(4).data().toLongLong(), 160);  // 469 batches of 128 padded to 470
  for (int row : {0, 2, 3}) {
    EXPECT_FALSE(cell(row).data(SetupPlanModel::kDiffersRole).toBool()) << row;
    EXPECT_TRUE(cell(row).data(Qt::BackgroundRole).isNull()) << row;
  }
  for (int row : {1, 4}) {
    EXPECT_TRUE(cell(row).data(SetupPlanModel::kDiffersRole).toBool()) << row;
    EXPECT_FALSE(cell(row).data(Qt::BackgroundRole).isNull()) << row;
  }
  const QString why = cell(4).data(Qt::ToolTipRole).toString();
  EXPECT_TRUE(why.contains("first 160 samples")) << why.toStdString();
  EXPECT_TRUE(why.contains("60160 drawn for 60000")) << why.toStdString();
}

// The columns name the setups' device: CPU setups are not compared "on 2 GPUs".
TEST(ReferenceBatchModel, ColumnsNameTheSetupsDevice) {
  ReferenceBatchModel model;
  auto header = [&](int section) {
    return model.headerData(section, Qt::Horizontal, Qt::DisplayRole).toString();
  };
  model.setSetupShapes({setup("a", 1, 64), setup("b", 3, 32)});
  EXPECT_EQ(header(1), "1 CPU process");
  EXPECT_EQ(header(2), "2 CPU processes");
  EXPECT_EQ(header(3), "8-worker TPU pod");
  EXPECT_EQ(header(4), "3 CPU processes");
  config::RunConfig gpu = setup("g", 2, 64);
  gpu.device = config::Device::kCuda;
  model.setSetupShapes({gpu});
  EXPECT_EQ(header(1), "1 GPU");
  EXPECT_EQ(header(2), "2 GPUs");
  model.setSetupShapes({gpu, setup("c", 1, 64)});
  EXPECT_EQ(header(2), "2 processes");
}

// #24 item 17: at the window's default size every column of the reference table shows whole,
// "8-worker TPU pod" included (it was cut at 2/7 of the row).
TEST(EquivalentBatchPanel, TheReferenceTableShowsEveryHeaderWholeAtTheDefaultSize) {
  MainWindow window({false, true});
  window.show();
  QAction* show = window.findChild<QAction*>("equivalentDockShow");
  ASSERT_NE(show, nullptr);
  show->trigger();
  ASSERT_TRUE(test::waitFor([&] { return window.equivalentPanel()->isVisible(); }));
  QApplication::processEvents();
  auto* view = window.equivalentPanel()->findChild<QTableView*>("referenceBatchView");
  ASSERT_NE(view, nullptr);
  QHeaderView* header = view->horizontalHeader();
  bool tpu = false;
  for (int c = 0; c < header->count(); ++c) {
    const QString title = view->model()->headerData(c, Qt::Horizontal).toString();
    tpu |= title.contains("TPU");
    EXPECT_LE(header->sectionViewportPosition(c) + header->sectionSize(c),
              header->viewport()->width())
        << title.toStdString() << " is cut at the table's edge";
    EXPECT_GE(header->sectionSize(c), header->sectionSizeHint(c)) << title.toStdString();
  }
  EXPECT_TRUE(tpu) << "the presets' 8-worker TPU pod has a column";
  EXPECT_LE(header->sectionSize(header->count() - 1),
            2 * header->sectionSizeHint(header->count() - 1))
      << "the last column is as wide as its title, not stretched";
  EXPECT_GT(window.equivalentPanel()->findChild<QTableView*>("setupPlanView")->width(), 300);
}

TEST(EquivalentBatchPanel, FollowsTheSetupsAndTheReference) {
  SetupsModel setups;
  EquivalentBatchPanel panel(&setups);
  setups.addSetup(presets()[0].setup);
  setups.addSetup(presets()[1].setup);
  EXPECT_EQ(panel.planModel()->rowCount(), 2);
  panel.setReferenceBatch(128);
  EXPECT_EQ(panel.referenceBatch(), 128);
  EXPECT_TRUE(panel.planModel()
                  ->index(0, SetupPlanModel::kGlobalBatch)
                  .data(SetupPlanModel::kDiffersRole)
                  .toBool());
}

// The reference is the first setup's global batch until the user chooses one (#38 item 13: it
// stayed 256 whatever the setups were); then it stays what they chose.
TEST(EquivalentBatchPanel, TheReferenceFollowsTheFirstSetupUntilOneIsChosen) {
  SetupsModel setups;
  EquivalentBatchPanel panel(&setups);
  config::RunConfig small = presets()[0].setup;
  small.num_processes = 1;
  small.per_device_batch_size = 64;
  setups.addSetup(small);
  EXPECT_EQ(panel.referenceBatch(), 64);
  EXPECT_TRUE(panel.followsSetups());
  small.num_processes = 2;
  small.gradient_accumulation_steps = 2;
  setups.setSetup(0, small);
  EXPECT_EQ(panel.referenceBatch(), 256) << "2 processes x 64 x 2 micro-batches";
  auto* box = panel.findChild<QComboBox*>();
  ASSERT_NE(box, nullptr);
  box->setCurrentText("96");  // typed by the user
  EXPECT_FALSE(panel.followsSetups());
  small.per_device_batch_size = 32;
  setups.setSetup(0, small);
  EXPECT_EQ(panel.referenceBatch(), 96) << "the user's reference stays";
}

// A reference of 0 (or nothing) while typing is refused beside the field; the tables keep the
// last valid reference instead of silently using 256.
TEST(EquivalentBatchPanel, AReferenceOfZeroIsRefusedInlineAndTheLastValidOneKept) {
  SetupsModel setups;
  EquivalentBatchPanel panel(&setups);
  panel.show();
  setups.addSetup(presets()[0].setup);
  panel.setReferenceBatch(128);
  auto* error = panel.findChild<QLabel*>("referenceError");
  ASSERT_NE(error, nullptr);
  EXPECT_FALSE(error->isVisible());
  QSignalSpy changed(&panel, &EquivalentBatchPanel::referenceBatchChanged);
  for (const QString& bad : {QString("0"), QString()}) {
    auto* box = panel.findChild<QComboBox*>();
    ASSERT_NE(box, nullptr);
    box->setCurrentText(bad);
    EXPECT_TRUE(error->isVisible()) << bad.toStdString();
    EXPECT_TRUE(error->text().contains("128")) << error->text().toStdString();
    EXPECT_EQ(panel.referenceBatch(), 128);
  }
  EXPECT_EQ(changed.count(), 0);
  panel.setReferenceBatch(64);
  EXPECT_FALSE(error->isVisible());
  EXPECT_EQ(panel.referenceBatch(), 64);
  EXPECT_EQ(changed.count(), 1);
}

// The window hands the Experiment tab's count to the Equivalent batch table (issue #24 item 9:
// "?" for the user's own csv although the Experiment tab had counted its rows).
TEST(EquivalentBatchPanel, TheWindowPlansACsvWithTheRowsTheExperimentTabCounted) {
  QTemporaryDir dir;
  QFile file(dir.filePath("data.csv"));
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write("x,y\n");
  for (int i = 0; i < 10; ++i) file.write(QString("%1,%2\n").arg(i).arg(2 * i).toUtf8());
  file.close();
  MainWindow window({false, true});
  config::RunConfig e = window.setupsModel()->experiment();
  e.dataset = config::DatasetKind::kCsv;
  e.task = config::Task::kRegression;
  e.model = config::ModelKind::kLinear;
  e.target = "y";
  e.data_path = file.fileName().toStdString();
  window.setupsModel()->reset(e, {setup("2x3", 2, 3)});
  ExperimentForm* form = window.setupsPanel()->experimentForm();
  ASSERT_TRUE(test::waitFor([&] { return form->dataSizes().has_value(); }));
  EXPECT_EQ(form->dataSizes()->train, 10);
  const SetupPlanModel* plan = window.equivalentPanel()->planModel();
  ASSERT_EQ(plan->rowCount(), 1);
  EXPECT_EQ(plan->index(0, SetupPlanModel::kStepsPerEpoch).data().toLongLong(), 2);
  EXPECT_EQ(plan->index(0, SetupPlanModel::kRepeated).data().toLongLong(), 2);
  EXPECT_FALSE(plan->index(0, SetupPlanModel::kNotes).data().toString().contains("known once"));
}

}  // namespace
}  // namespace parity::ui
