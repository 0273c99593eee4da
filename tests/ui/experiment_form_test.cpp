// The Experiment form's user-experiment fields with QT_QPA_PLATFORM=offscreen: every field round
// trips, fields show only where they apply, the data's size and the lr preview are the engine's,
// a TorchScript file is inspected by parity-worker, and an accelerate config fills a setup.
#include <gtest/gtest.h>
#include <parity/config/batch_plan.h>
#include <parity/config/lr_schedule.h>
#include <parity/config/valid_config.h>
#include <parity/ui/experiment/experiment_form.h>
#include <parity/ui/experiment/lr_preview.h>
#include <parity/ui/experiment/model_inspector.h>
#include <parity/ui/setups/setup_form.h>
#include <parity/ui/setups/setup_presets.h>
#include <parity/ui/setups/setups_model.h>
#include <parity/ui/setups/setups_panel.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>

#include "test_util.h"

namespace parity::ui {
namespace {

using config::RunConfig;

QString writeFile(const QTemporaryDir& dir, const QString& name, const QString& text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  EXPECT_TRUE(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
  f.write(text.toUtf8());
  return path;
}

QString csvRows(int rows) {
  QString text = "x,y\n";
  for (int i = 0; i < rows; ++i) text += QString("%1,%2\n").arg(i).arg(2 * i + 1);
  return text;
}

bool shown(const ExperimentForm& form, const char* field) {
  return form.editor(field)->isVisibleTo(&form);
}

RunConfig regression(int processes, int64_t batch) {
  RunConfig c;
  c.dataset = config::DatasetKind::kSyntheticRegression;
  c.task = config::Task::kRegression;
  c.model = config::ModelKind::kLinear;
  c.synthetic_samples = 1024;
  c.num_processes = processes;
  c.per_device_batch_size = batch;
  return c;
}

TEST(ExperimentForm, RoundTripsEveryNewField) {
  ExperimentForm form;
  RunConfig tokens;
  tokens.dataset = config::DatasetKind::kJsonl;
  tokens.data_path = "/nowhere/train.jsonl";
  tokens.test_data = "/nowhere/test.jsonl";
  tokens.pad_id = 3;
  tokens.model = config::ModelKind::kTorchScript;
  tokens.model_file = "/nowhere/model.pt";
  tokens.embedding_dim = 24;
  tokens.loss_normalization = config::LossNormalization::kGlobal;
  tokens.scheduler = config::SchedulerKind::kOneCycle;
  tokens.num_training_steps = 500;
  tokens.pct_start = 0.25;
  tokens.div_factor = 10;
  tokens.final_div_factor = 100;
  form.setConfig(tokens);
  const RunConfig t = form.config(RunConfig{});
  EXPECT_EQ(t.dataset, tokens.dataset);
  EXPECT_EQ(t.data_path, tokens.data_path);
  EXPECT_EQ(t.test_data, tokens.test_data);
  EXPECT_EQ(t.pad_id, 3);
  EXPECT_EQ(t.model, tokens.model);
  EXPECT_EQ(t.model_file, tokens.model_file);
  EXPECT_EQ(t.embedding_dim, 24);
  EXPECT_EQ(t.loss_normalization, config::LossNormalization::kGlobal);
  EXPECT_EQ(t.scheduler, config::SchedulerKind::kOneCycle);
  EXPECT_EQ(t.num_training_steps, 500);
  EXPECT_DOUBLE_EQ(t.pct_start, 0.25);
  EXPECT_DOUBLE_EQ(t.div_factor, 10);
  EXPECT_DOUBLE_EQ(t.final_div_factor, 100);

  RunConfig images;
  images.dataset = config::DatasetKind::kIdx;
  images.data_path = "/nowhere/idx";
  images.validation_split = 0.2;
  images.model = config::ModelKind::kCnn;
  images.dropout = 0.3;
  images.batch_norm = true;
  images.scheduler = config::SchedulerKind::kCosine;
  images.warmup_steps = 7;
  form.setConfig(images);
  const RunConfig i = form.config(RunConfig{});
  EXPECT_EQ(i.dataset, config::DatasetKind::kIdx);
  EXPECT_EQ(i.data_path, images.data_path);
  EXPECT_DOUBLE_EQ(i.validation_split, 0.2);
  EXPECT_EQ(i.model, config::ModelKind::kCnn);
  EXPECT_DOUBLE_EQ(i.dropout, 0.3);
  EXPECT_TRUE(i.batch_norm);
  EXPECT_EQ(i.scheduler, config::SchedulerKind::kCosine);
  EXPECT_EQ(i.warmup_steps, 7);
  EXPECT_EQ(i.loss_normalization, config::LossNormalization::kPerBatch);
}

TEST(ExperimentForm, ShowsOnlyTheFieldsThatApply) {
  ExperimentForm form;
  form.show();
  RunConfig c;
  c.dataset = config::DatasetKind::kJsonl;
  c.model = config::ModelKind::kBigram;
  c.scheduler = config::SchedulerKind::kOneCycle;
  form.setConfig(c);
  for (const char* f :
       {"data_path", "test_data", "pad_id", "embedding_dim", "num_training_steps", "pct_start",
        "div_factor", "final_div_factor", "loss_normalization", "lr_preview"}) {
    EXPECT_TRUE(shown(form, f)) << f;
  }
  for (const char* f : {"target", "features", "task", "model_file", "hidden", "dropout",
                        "batch_norm", "warmup_steps", "scheduler_step_size"}) {
    EXPECT_FALSE(shown(form, f)) << f;
  }

  c.dataset = config::DatasetKind::kIdx;
  c.model = config::ModelKind::kMlp;
  c.scheduler = config::SchedulerKind::kConstant;
  form.setConfig(c);
  for (const char* f : {"data_path", "hidden", "dropout", "batch_norm", "warmup_steps"}) {
    EXPECT_TRUE(shown(form, f)) << f;
  }
  for (const char* f :
       {"test_data", "pad_id", "embedding_dim", "model_file", "pct_start", "num_training_steps"}) {
    EXPECT_FALSE(shown(form, f)) << f;
  }

  // Choosing torchscript in the combo shows its file and summary; a hidden value does not count.
  auto* model = qobject_cast<QComboBox*>(form.editor("model"));
  qobject_cast<QDoubleSpinBox*>(form.editor("dropout"))->setValue(0.5);
  model->setCurrentIndex(model->findData(static_cast<int>(config::ModelKind::kTorchScript)));
  EXPECT_TRUE(shown(form, "model_file"));
  EXPECT_FALSE(shown(form, "dropout"));
  EXPECT_DOUBLE_EQ(form.config(RunConfig{}).dropout, 0.0);
}

TEST(ExperimentForm, SaysHowManySamplesTrainAndEvaluate) {
  QTemporaryDir dir;
  RunConfig c;
  c.dataset = config::DatasetKind::kCsv;
  c.task = config::Task::kRegression;
  c.target = "y";
  c.data_path = writeFile(dir, "data.csv", csvRows(64)).toStdString();
  ExperimentForm form;
  form.setConfig(c);
  // Counted off the UI thread: the form says so meanwhile.
  EXPECT_TRUE(form.countingData());
  EXPECT_TRUE(form.dataSizesText().startsWith("counting the samples of data.csv"))
      << form.dataSizesText().toStdString();
  ASSERT_TRUE(test::waitFor([&] { return !form.countingData(); }));
  EXPECT_EQ(form.dataSizesText().toStdString(),
            "64 train, none evaluate (no test data: no evaluation)");

  auto* split = qobject_cast<QDoubleSpinBox*>(form.editor("validation_split"));
  split->setValue(0.25);
  ASSERT_TRUE(test::waitFor([&] { return !form.countingData(); }));
  EXPECT_EQ(form.dataSizesText().toStdString(),
            config::describe_data_sizes(config::read_data_sizes(form.config(c))));
  EXPECT_TRUE(form.dataSizesText().startsWith("48 train, 16 evaluate"))
      << form.dataSizesText().toStdString();

  // A Training samples kept from Fashion-MNIST (7680) beside a 64-row csv: all train, and the
  // count says so rather than "48 train" beside "7680" without a word.
  qobject_cast<QSpinBox*>(form.editor("train_samples"))->setValue(7680);
  ASSERT_TRUE(test::waitFor([&] { return !form.countingData(); }));
  EXPECT_TRUE(
      form.dataSizesText().startsWith("48 train (all there are, fewer than the 7680 asked)"))
      << form.dataSizesText().toStdString();
  qobject_cast<QSpinBox*>(form.editor("train_samples"))->setValue(0);

  // A file that cannot be read is the data's problem, said under Data (not on this row).
  c.data_path = dir.filePath("missing.csv").toStdString();
  form.setConfig(c);
  ASSERT_TRUE(test::waitFor([&] { return !form.countingData(); }));
  EXPECT_TRUE(form.dataProblem().contains("missing.csv")) << form.dataProblem().toStdString();
  EXPECT_FALSE(form.dataSizesText().contains("missing.csv")) << form.dataSizesText().toStdString();
}

// #24 item 17: the demo's "first 7680 samples" of Fashion-MNIST no longer stays beside a CSV's
// "1200 train" once the data is switched: other data starts whole.
TEST(ExperimentForm, SwitchingTheDataStartsItWholeInsteadOfKeepingTheOldCut) {
  QTemporaryDir dir;
  ExperimentForm form;
  form.setConfig(demoExperiment());
  auto* samples = qobject_cast<QSpinBox*>(form.editor("train_samples"));
  ASSERT_EQ(samples->value(), 7680);
  auto* dataset = qobject_cast<QComboBox*>(form.editor("dataset"));
  dataset->setCurrentIndex(dataset->findData(static_cast<int>(config::DatasetKind::kCsv)));
  ASSERT_EQ(form.config(demoExperiment()).dataset, config::DatasetKind::kCsv);
  auto* path = form.editor("data_path")->findChild<QLineEdit*>();
  ASSERT_NE(path, nullptr);
  path->setText(writeFile(dir, "data.csv", csvRows(1200)));
  emit path->editingFinished();
  auto* target = qobject_cast<QLineEdit*>(form.editor("target"));
  target->setText("y");
  emit target->editingFinished();
  ASSERT_TRUE(test::waitFor([&] { return !form.countingData(); }));
  EXPECT_TRUE(form.dataSizesText().startsWith("1200 train")) << form.dataSizesText().toStdString();
  EXPECT_EQ(samples->value(), 0);
  EXPECT_EQ(samples->text(), "all");
  EXPECT_EQ(form.config(demoExperiment()).train_samples, 0);
  // A cut chosen for the CSV stays: only switching the data resets it.
  samples->setValue(100);
  ASSERT_TRUE(test::waitFor([&] { return !form.countingData(); }));
  EXPECT_TRUE(form.dataSizesText().startsWith("100 train")) << form.dataSizesText().toStdString();
}

TEST(ExperimentForm, LrPreviewIsTheEngineScheduleOverSamplesSeen) {
  RunConfig c = regression(2, 16);
  c.epochs = 2;
  c.lr = 0.1;
  c.scheduler = config::SchedulerKind::kLinear;
  c.warmup_steps = 10;
  const int64_t train = 1024;
  const LrCurve curve = lrCurve(c, train);
  const int64_t steps =
      config::plan_setup(config::ValidConfig::make(c), train).total_optimizer_steps;
  ASSERT_EQ(steps, 64);  // 1024 / (2 x 16) per epoch, two epochs
  ASSERT_EQ(curve.points.size(), steps);
  const config::LrSchedule schedule(c, config::effective_lr(c), config::schedule_length(c, train));
  EXPECT_DOUBLE_EQ(curve.points.front().y(), 0.0);  // warm-up from 0
  EXPECT_DOUBLE_EQ(curve.points.front().x(), 32.0);
  for (int s = 0; s < steps; ++s) {
    EXPECT_DOUBLE_EQ(curve.points[s].x(), (s + 1) * 32.0) << s;
    // Two scheduler steps per optimizer step on two processes.
    EXPECT_DOUBLE_EQ(curve.points[s].y(), schedule.lr(2 * s)) << s;
  }

  // The form draws the same curve for its first setup and names the default length.
  ExperimentForm form;
  form.setConfig(c);
  form.setPreviewSetup(c);
  EXPECT_EQ(form.lrPreview()->curve().points, curve.points);
  auto* length = qobject_cast<QSpinBox*>(form.editor("num_training_steps"));
  EXPECT_EQ(length->specialValueText().toStdString(),
            "default (" + std::to_string(config::default_num_training_steps(c, train)) + ")");
  EXPECT_EQ(length->text(), length->specialValueText());

  // OneCycleLR is held at its total once the positions pass it.
  c.scheduler = config::SchedulerKind::kOneCycle;
  c.warmup_steps = 0;
  c.num_training_steps = 40;
  const LrCurve capped = lrCurve(c, train);
  const config::LrSchedule onecycle(c, config::effective_lr(c), 40);
  EXPECT_DOUBLE_EQ(capped.points.back().y(), onecycle.lr(40));
  EXPECT_DOUBLE_EQ(capped.points[19].y(), onecycle.lr(38));
}

TEST(ExperimentForm, InspectsATorchScriptFileWithParityWorker) {
  if (ModelInspector::findWorker().isEmpty()) {
    GTEST_SKIP() << "parity-worker is not built beside the tests (ninja parity-worker)";
  }
  RunConfig c = regression(1, 16);
  c.model = config::ModelKind::kTorchScript;
  c.model_file = PARITY_TEST_DATA "/bn_dropout.pt";
  ExperimentForm form;
  form.setPreviewSetup(c);
  form.setConfig(c);
  ASSERT_TRUE(test::waitFor([&] { return !form.inspecting(); }, 60000));
  const QString info = form.modelInfoText();
  EXPECT_TRUE(info.startsWith("81 parameters")) << info.toStdString();
  EXPECT_TRUE(info.contains("BatchNorm1d")) << info.toStdString();
  EXPECT_TRUE(info.contains("Dropout")) << info.toStdString();

  // Not a module: the worker's message, inline.
  c.model_file = PARITY_TEST_DATA "/lr_schedules.json";
  form.setConfig(c);
  ASSERT_TRUE(test::waitFor([&] { return !form.inspecting(); }, 60000));
  EXPECT_TRUE(form.modelInfoText().contains("lr_schedules.json"))
      << form.modelInfoText().toStdString();
  EXPECT_FALSE(form.modelInfoText().contains("parameters"));
}

class ExperimentInPanel : public ::testing::Test {
 protected:
  void SetUp() override {
    panel.show();
    for (int i = 0; i < 3; ++i) panel.addPreset(i);
  }
  QTemporaryDir dir;
  SetupsModel model;
  SetupsPanel panel{&model};
};

TEST_F(ExperimentInPanel, AModelFileTheWorkerRefusesKeepsLaunchOff) {
  if (ModelInspector::findWorker().isEmpty()) {
    GTEST_SKIP() << "parity-worker is not built beside the tests (ninja parity-worker)";
  }
  RunConfig e = model.experiment();
  e.dataset = config::DatasetKind::kSyntheticRegression;
  e.task = config::Task::kRegression;
  e.model = config::ModelKind::kTorchScript;
  e.model_file = PARITY_TEST_DATA "/lr_schedules.json";  // a file, but not a module
  model.reset(e, model.configs());
  ExperimentForm* form = panel.experimentForm();
  form->setConfig(e);
  ASSERT_TRUE(
      test::waitFor([&] { return !form->inspecting() && !form->modelProblem().isEmpty(); }, 60000))
      << form->modelInfoText().toStdString();
  EXPECT_TRUE(model.allValid()) << "the config itself is valid; only the file is refused";
  EXPECT_FALSE(panel.launchButton()->isEnabled());
  EXPECT_FALSE(panel.launchSelectedButton()->isEnabled());
  EXPECT_TRUE(panel.launchButton()->toolTip().contains("The model file cannot be trained"))
      << panel.launchButton()->toolTip().toStdString();

  e.model_file = PARITY_TEST_DATA "/bn_dropout.pt";
  model.reset(e, model.configs());
  form->setConfig(e);
  ASSERT_TRUE(
      test::waitFor([&] { return !form->inspecting() && form->modelProblem().isEmpty(); }, 60000));
  EXPECT_TRUE(panel.launchButton()->isEnabled()) << panel.launchButton()->toolTip().toStdString();
}

// A misspelled target column ('lable') is found in the csv's header before launch, with the
// engine's message under Target column (#38 §7: it was under Data, and the launch note sent the
// user there), and Launch stays off until it is spelled right.
TEST_F(ExperimentInPanel, AMisspelledCsvColumnIsMarkedUnderTargetColumnAndKeepsLaunchOff) {
  RunConfig e = model.experiment();
  e.dataset = config::DatasetKind::kCsv;
  e.task = config::Task::kRegression;
  e.model = config::ModelKind::kLinear;
  e.data_path = writeFile(dir, "data.csv", "x,label\n1,2\n3,4\n").toStdString();
  e.target = "lable";
  model.reset(e, model.configs());
  ExperimentForm* form = panel.experimentForm();
  ASSERT_TRUE(test::waitFor([&] { return !form->countingData(); }));
  EXPECT_TRUE(model.allValid()) << "the config alone cannot know the file's columns";
  EXPECT_EQ(form->dataProblem().toStdString(),
            "data.csv: no column 'lable' in the header (columns: x, label)");
  EXPECT_EQ(form->issueText("target"), form->dataProblem());
  EXPECT_TRUE(form->issueText("data_path").isEmpty()) << form->issueText("data_path").toStdString();
  EXPECT_FALSE(panel.launchButton()->isEnabled());
  EXPECT_FALSE(panel.launchSelectedButton()->isEnabled());
  EXPECT_TRUE(panel.launchButton()->toolTip().contains(
      "The data cannot be read (marked under Target column on the Experiment tab)"))
      << panel.launchButton()->toolTip().toStdString();

  auto* target = qobject_cast<QLineEdit*>(form->editor("target"));
  target->setText("label");
  emit target->editingFinished();
  ASSERT_TRUE(test::waitFor([&] { return !form->countingData() && form->dataProblem().isEmpty(); }))
      << form->dataProblem().toStdString();
  EXPECT_TRUE(form->issueText("data_path").isEmpty());
  EXPECT_TRUE(form->issueText("target").isEmpty());
  EXPECT_TRUE(panel.launchButton()->isEnabled()) << panel.launchButton()->toolTip().toStdString();
  // The preset's Training samples (12000) is more than this file has: said, not left silent.
  EXPECT_EQ(form->dataSizesText().toStdString(),
            "2 train (all there are, fewer than the 12000 asked), none evaluate (no test data: no "
            "evaluation)");
}

// A test file that is not there is marked under Test data, not Data (#38 §7), and the launch
// note names that field; the training file's own field stays clear.
TEST_F(ExperimentInPanel, AMissingTestFileIsMarkedUnderTestData) {
  RunConfig e = model.experiment();
  e.dataset = config::DatasetKind::kCsv;
  e.task = config::Task::kRegression;
  e.model = config::ModelKind::kLinear;
  e.data_path = writeFile(dir, "data.csv", "x,label\n1,2\n3,4\n").toStdString();
  e.test_data = dir.filePath("gone.csv").toStdString();
  e.target = "label";
  model.reset(e, model.configs());
  ExperimentForm* form = panel.experimentForm();
  ASSERT_TRUE(test::waitFor([&] { return !form->countingData() && !form->dataProblem().isEmpty(); }));
  EXPECT_TRUE(form->dataProblem().contains("gone.csv")) << form->dataProblem().toStdString();
  EXPECT_EQ(form->issueText("test_data"), form->dataProblem());
  EXPECT_TRUE(form->issueText("data_path").isEmpty()) << form->issueText("data_path").toStdString();
  EXPECT_FALSE(panel.launchButton()->isEnabled());
  EXPECT_TRUE(panel.launchButton()->toolTip().contains("marked under Test data"))
      << panel.launchButton()->toolTip().toStdString();
}

TEST_F(ExperimentInPanel, NewFieldsReachEverySetupAndAreCheckedInline) {
  ExperimentForm* form = panel.experimentForm();
  auto* norm = qobject_cast<QComboBox*>(form->editor("loss_normalization"));
  norm->setCurrentIndex(norm->findData(static_cast<int>(config::LossNormalization::kGlobal)));
  qobject_cast<QDoubleSpinBox*>(form->editor("dropout"))->setValue(0.25);
  for (int r = 0; r < model.rowCount(); ++r) {
    EXPECT_EQ(model.config(r).loss_normalization, config::LossNormalization::kGlobal) << r;
    EXPECT_DOUBLE_EQ(model.config(r).dropout, 0.25) << r;
  }
  auto* dataset = qobject_cast<QComboBox*>(form->editor("dataset"));
  dataset->setCurrentIndex(dataset->findData(static_cast<int>(config::DatasetKind::kJsonl)));
  EXPECT_EQ(model.config(0).model, config::ModelKind::kBigram);  // token data trains bigram
  qobject_cast<QSpinBox*>(form->editor("pad_id"))->setValue(-1);
  const QString message = form->issueText("pad_id");
  EXPECT_TRUE(message.startsWith("Pad id: -1 is not allowed")) << message.toStdString();
  EXPECT_FALSE(form->issueText("data_path").isEmpty());  // jsonl needs a file
  EXPECT_FALSE(panel.launchButton()->isEnabled());
}

// Inline messages use the form's labels, not the command line's syntax (#24 item 17): the hint
// "(--data FILE)" is left out under the Data field, and "--model" is called Model.
TEST(ExperimentForm, InlineMessagesUseTheFormsLabelsNotCommandLineSyntax) {
  ExperimentForm form;
  RunConfig c;
  c.dataset = config::DatasetKind::kCsv;
  c.target = "";
  c.model_file = "m.pt";
  form.setConfig(c);
  const QStringList loose = form.showIssues(config::check(form.config(c)));  // all placed
  EXPECT_EQ(form.issueText("data_path").toStdString(), "the csv dataset needs a file");
  EXPECT_EQ(form.issueText("target").toStdString(), "the csv dataset needs a target column");
  EXPECT_TRUE(loose.isEmpty()) << loose.join(" | ").toStdString();
  // A flag named in a message is called by its field's label.
  EXPECT_EQ(
      form.inFormWords("model_file: m.pt is not allowed with model mlp; a model file is for "
                       "--model torchscript")
          .toStdString(),
      "Model file: m.pt is not allowed with model mlp; a model file is for Model torchscript");
  c.model = config::ModelKind::kTorchScript;
  c.model_file.clear();
  form.setConfig(c);
  form.showIssues(config::check(form.config(c)));
  EXPECT_EQ(form.issueText("model_file").toStdString(), "the torchscript model needs a file");
  for (const char* field : {"data_path", "target", "model_file"})
    EXPECT_FALSE(form.issueText(field).contains("--")) << field;
}

TEST_F(ExperimentInPanel, EveryShownRowKeepsItsHeightAfterRowsWereHiddenAndShown) {
  // Qt 6.4's QFormLayout, asked for its height-for-width by the tab's scroll area, gave the rows
  // after hidden ones zero height once a row wrapped its text: the Model row vanished.
  RunConfig e = model.experiment();
  e.dataset = config::DatasetKind::kJsonl;
  e.data_path = writeFile(dir, "train.jsonl", "{\"input_ids\": [1, 2], \"labels\": [2, -100]}\n")
                    .toStdString();
  e.model = config::ModelKind::kBigram;
  e.scheduler = config::SchedulerKind::kOneCycle;
  model.reset(e, model.configs());
  panel.resize(420, 900);
  panel.findChild<QTabWidget*>()->setCurrentIndex(1);
  ExperimentForm* form = panel.experimentForm();
  test::waitFor([&] { return false; }, 300);  // let the layouts settle
  for (const char* f : {"dataset", "data_path", "train_samples", "model", "embedding_dim",
                        "loss_normalization", "scheduler", "pct_start"}) {
    EXPECT_GT(form->editor(f)->height(), 10) << f;
  }
  ASSERT_TRUE(test::waitFor([&] { return !form->countingData(); }));
  EXPECT_TRUE(form->dataSizesText().startsWith("1 train")) << form->dataSizesText().toStdString();
}

TEST_F(ExperimentInPanel, ImportsAnAccelerateConfigIntoTheSelectedSetup) {
  panel.setCurrentRow(1);
  const RunConfig before0 = model.config(0);
  const QString yaml = writeFile(dir, "default_config.yaml",
                                 "compute_environment: LOCAL_MACHINE\n"
                                 "debug: false\n"
                                 "distributed_type: MULTI_CPU\n"
                                 "gradient_accumulation_steps: 2\n"
                                 "mixed_precision: bf16\n"
                                 "num_machines: 1\n"
                                 "num_cpu_threads_per_process: 2\n"
                                 "num_processes: 4\n"
                                 "use_cpu: true\n");
  ASSERT_TRUE(panel.importAccelerateConfig(yaml)) << panel.importMessage().toStdString();
  const RunConfig c = model.config(1);
  EXPECT_EQ(c.num_processes, 4);
  EXPECT_EQ(c.mixed_precision, config::MixedPrecision::kBf16);
  EXPECT_EQ(c.gradient_accumulation_steps, 2);
  EXPECT_EQ(c.device, config::Device::kCpu);
  EXPECT_EQ(qobject_cast<QSpinBox*>(panel.setupForm()->editor("num_processes"))->value(), 4);
  EXPECT_EQ(model.config(0).num_processes, before0.num_processes);
  EXPECT_TRUE(panel.importMessage().contains("Not used")) << panel.importMessage().toStdString();
  // Listed once; keys that change nothing Parity compares (debug, ...) are not listed.
  EXPECT_EQ(panel.importMessage().count("num_cpu_threads_per_process"), 1)
      << panel.importMessage().toStdString();
  EXPECT_TRUE(panel.importMessage().contains("num_processes 4"))
      << panel.importMessage().toStdString();

  const QString fp8 = writeFile(dir, "fp8.yaml", "mixed_precision: fp8\nnum_processes: 8\n");
  EXPECT_FALSE(panel.importAccelerateConfig(fp8));
  EXPECT_TRUE(panel.importMessage().contains("mixed_precision"))
      << panel.importMessage().toStdString();
  EXPECT_EQ(model.config(1).num_processes, 4);  // unchanged by a file that was refused
}

// The Setup form carries the sampler and sync batch norm both ways, and check()'s refusal of sync
// batch norm without batch norm shows under its checkbox.
TEST(SetupForm, SamplerAndSyncBatchNormRoundTripAndAreCheckedInline) {
  SetupForm form;
  RunConfig c = regression(2, 8);
  c.use_seedable_sampler = false;
  c.sync_batch_norm = true;
  form.setConfig(c);
  const RunConfig back = form.config(regression(1, 1));
  EXPECT_FALSE(back.use_seedable_sampler);
  EXPECT_TRUE(back.sync_batch_norm);
  auto* sync = qobject_cast<QCheckBox*>(form.editor("sync_batch_norm"));
  ASSERT_TRUE(sync);
  EXPECT_TRUE(form.showIssues(config::check(back)).isEmpty());
  // In the form's words: the command line's "(--batch-norm)" is not a label here.
  EXPECT_TRUE(form.issueText("sync_batch_norm").contains("batch norm of the built-in mlp"))
      << form.issueText("sync_batch_norm").toStdString();
  EXPECT_FALSE(form.issueText("sync_batch_norm").contains("--"))
      << form.issueText("sync_batch_norm").toStdString();
  sync->setChecked(false);
  EXPECT_FALSE(form.config(c).sync_batch_norm);
}

}  // namespace
}  // namespace parity::ui
