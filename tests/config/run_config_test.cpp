#include <gtest/gtest.h>
#include <parity/config/run_config.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

namespace parity::config {
namespace {

std::string first_message(const RunConfig& c) {
  try {
    validate(c);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

bool has_issue(const RunConfig& c, const std::string& message) {
  for (const ConfigIssue& issue : check(c)) {
    if (issue.message == message) return true;
  }
  return false;
}

TEST(RunConfig, DefaultsAreValid) {
  EXPECT_TRUE(check(RunConfig{}).empty());
  EXPECT_NO_THROW(validate(RunConfig{}));
}

TEST(RunConfig, ErrorMessageFormat) {
  ConfigError e("num_processes", "0", "must be at least 1");
  EXPECT_STREQ(e.what(), "num_processes: 0 is not allowed; must be at least 1");
  EXPECT_EQ(e.field(), "num_processes");
  EXPECT_EQ(e.value(), "0");
  EXPECT_EQ(e.allowed(), "must be at least 1");
  RunConfig c;
  c.num_processes = 0;
  EXPECT_EQ(first_message(c), "num_processes: 0 is not allowed; must be at least 1");
  EXPECT_THROW(validate(c), std::runtime_error);
}

struct Rule {
  const char* name;
  std::function<void(RunConfig&)> change;
  std::string message;
};

TEST(RunConfig, EachRuleHasItsMessage) {
  const std::vector<Rule> rules = {
      {"processes>256", [](RunConfig& c) { c.num_processes = 257; },
       "num_processes: 257 is not allowed; must be at most 256"},
      {"batch", [](RunConfig& c) { c.per_device_batch_size = 0; },
       "per_device_batch_size: 0 is not allowed; must be at least 1"},
      {"split",
       [](RunConfig& c) {
         c.split_batches = true, c.num_processes = 2, c.per_device_batch_size = 3;
       },
       "per_device_batch_size: 3 is not allowed; with split_batches it is the global batch and "
       "must "
       "divide by num_processes (3 does not divide by 2)"},
      {"accumulation", [](RunConfig& c) { c.gradient_accumulation_steps = 0; },
       "gradient_accumulation_steps: 0 is not allowed; must be at least 1"},
      {"epochs", [](RunConfig& c) { c.epochs = 0; },
       "epochs: 0 is not allowed; must be at least 1"},
      {"max_steps", [](RunConfig& c) { c.max_steps = -1; },
       "max_steps: -1 is not allowed; must be at least 0"},
      {"lr", [](RunConfig& c) { c.lr = 0; }, "lr: 0 is not allowed; must be a finite number > 0"},
      {"lr nan", [](RunConfig& c) { c.lr = std::nan(""); },
       "lr: nan is not allowed; must be a finite number > 0"},
      {"lr inf", [](RunConfig& c) { c.lr = std::numeric_limits<double>::infinity(); },
       "lr: inf is not allowed; must be a finite number > 0"},
      {"momentum", [](RunConfig& c) { c.momentum = 1; },
       "momentum: 1 is not allowed; must be in [0, 1)"},
      {"momentum<0", [](RunConfig& c) { c.momentum = -0.5; },
       "momentum: -0.5 is not allowed; must be in [0, 1)"},
      {"weight_decay", [](RunConfig& c) { c.weight_decay = -0.01; },
       "weight_decay: -0.01 is not allowed; must be a finite number >= 0"},
      {"warmup", [](RunConfig& c) { c.warmup_steps = -3; },
       "warmup_steps: -3 is not allowed; must be at least 0"},
      {"step_size", [](RunConfig& c) { c.scheduler_step_size = 0; },
       "scheduler_step_size: 0 is not allowed; must be at least 1"},
      {"gamma", [](RunConfig& c) { c.scheduler_gamma = 1.5; },
       "scheduler_gamma: 1.5 is not allowed; must be in (0, 1]"},
      {"gamma0", [](RunConfig& c) { c.scheduler_gamma = 0; },
       "scheduler_gamma: 0 is not allowed; must be in (0, 1]"},
      {"hidden width",
       [](RunConfig& c) {
         c.hidden = {256, 0};
       },
       "hidden: 256,0 is not allowed; every width must be at least 1"},
      {"hidden empty", [](RunConfig& c) { c.hidden.clear(); },
       "hidden: \"\" is not allowed; the mlp needs at least one hidden width (e.g. 256,128)"},
      {"train_samples", [](RunConfig& c) { c.train_samples = -1; },
       "train_samples: -1 is not allowed; must be at least 0"},
      {"synthetic_samples", [](RunConfig& c) { c.synthetic_samples = 0; },
       "synthetic_samples: 0 is not allowed; must be at least 1"},
      {"noise", [](RunConfig& c) { c.synthetic_noise = -1; },
       "synthetic_noise: -1 is not allowed; must be a finite number >= 0"},
      {"fp16 on cpu", [](RunConfig& c) { c.mixed_precision = MixedPrecision::kFp16; },
       "mixed_precision: fp16 is not allowed on cpu; fp16 needs CUDA and a gradient scaler; use "
       "bf16 or no"},
      {"csv path",
       [](RunConfig& c) {
         c.dataset = DatasetKind::kCsv, c.target = "y", c.model = ModelKind::kMlp;
       },
       "data_path: \"\" is not allowed; the csv dataset needs a file (--data FILE)"},
      {"csv target", [](RunConfig& c) { c.dataset = DatasetKind::kCsv, c.data_path = "d.csv"; },
       "target: \"\" is not allowed; the csv dataset needs a target column (--target COL)"},
      {"ce on regression",
       [](RunConfig& c) {
         c.dataset = DatasetKind::kSyntheticRegression, c.task = Task::kRegression;
         c.loss = LossKind::kCrossEntropy;
       },
       "loss: cross-entropy is not allowed with task regression; cross-entropy needs task "
       "classification; use mse or auto"},
      {"cnn on csv",
       [](RunConfig& c) {
         c.dataset = DatasetKind::kCsv, c.data_path = "d.csv", c.target = "y",
         c.model = ModelKind::kCnn;
       },
       "model: cnn is not allowed with dataset csv; the cnn needs image input (dataset "
       "fashion-mnist or idx)"},
      {"synthetic classification",
       [](RunConfig& c) { c.dataset = DatasetKind::kSyntheticRegression; },
       "task: classification is not allowed with dataset synthetic-regression; "
       "synthetic-regression "
       "is a regression task; use regression"},
      {"idx path", [](RunConfig& c) { c.dataset = DatasetKind::kIdx; },
       "data_path: \"\" is not allowed; the idx dataset needs a folder holding "
       "train-images-idx3-ubyte and the others (--data DIR)"},
      {"jsonl model",
       [](RunConfig& c) { c.dataset = DatasetKind::kJsonl, c.data_path = "t.jsonl"; },
       "model: mlp is not allowed with dataset jsonl; token data trains bigram or a torchscript "
       "module"},
      {"bigram on images", [](RunConfig& c) { c.model = ModelKind::kBigram; },
       "model: bigram is not allowed with dataset fashion-mnist; the bigram model needs token "
       "data (dataset jsonl)"},
      {"torchscript file", [](RunConfig& c) { c.model = ModelKind::kTorchScript; },
       "model_file: \"\" is not allowed; the torchscript model needs a file (--model-file "
       "FILE.pt)"},
      {"model file without torchscript", [](RunConfig& c) { c.model_file = "m.pt"; },
       "model_file: m.pt is not allowed with model mlp; a model file is for --model torchscript"},
      {"test data on fashion", [](RunConfig& c) { c.test_data = "t.csv"; },
       "test_data: t.csv is not allowed with dataset fashion-mnist; a test file is for csv or "
       "jsonl data (fashion-mnist and idx use their t10k files)"},
      {"validation split", [](RunConfig& c) { c.validation_split = 1; },
       "validation_split: 1 is not allowed; must be in [0, 1) (e.g. 0.2: the last 20 %)"},
      {"split and test file",
       [](RunConfig& c) {
         c.dataset = DatasetKind::kCsv, c.data_path = "d.csv", c.target = "y";
         c.test_data = "t.csv", c.validation_split = 0.2;
       },
       "validation_split: 0.2 is not allowed with --test-data; give either a test file or a "
       "validation split, not both"},
      {"dropout", [](RunConfig& c) { c.dropout = 1; },
       "dropout: 1 is not allowed; must be in [0, 1)"},
      {"dropout on linear", [](RunConfig& c) { c.model = ModelKind::kLinear, c.dropout = 0.1; },
       "dropout: 0.1 is not allowed with model linear; dropout is an option of the mlp and cnn "
       "models"},
      {"batch norm on linear",
       [](RunConfig& c) { c.model = ModelKind::kLinear, c.batch_norm = true; },
       "batch_norm: true is not allowed with model linear; batch norm is an option of the mlp "
       "and cnn models"},
      {"warm-up on step",
       [](RunConfig& c) { c.scheduler = SchedulerKind::kStep, c.warmup_steps = 5; },
       "warmup_steps: 5 is not allowed with scheduler step; warm-up is for constant, linear and "
       "cosine (onecycle rises over pct_start; step has none)"},
      {"pct_start", [](RunConfig& c) { c.pct_start = 1; },
       "pct_start: 1 is not allowed; must be in (0, 1)"},
      {"num_training_steps", [](RunConfig& c) { c.num_training_steps = -1; },
       "num_training_steps: -1 is not allowed; must be at least 0"},
      {"mse on tokens",
       [](RunConfig& c) {
         c.dataset = DatasetKind::kJsonl, c.data_path = "t.jsonl", c.model = ModelKind::kBigram;
         c.loss = LossKind::kMse;
       },
       "loss: mse is not allowed with dataset jsonl; token data trains with cross-entropy over "
       "its labels; use auto"},
      {"fashion regression", [](RunConfig& c) { c.task = Task::kRegression; },
       "task: regression is not allowed with dataset fashion-mnist; fashion-mnist is a "
       "classification task; use classification"},
  };
  for (const Rule& rule : rules) {
    RunConfig c;
    rule.change(c);
    const std::vector<ConfigIssue> issues = check(c);
    ASSERT_EQ(issues.size(), 1u) << rule.name << ": " << (issues.empty() ? "" : issues[0].message)
                                 << (issues.size() > 1 ? " | " + issues[1].message : "");
    EXPECT_EQ(issues[0].message, rule.message) << rule.name;
    EXPECT_EQ(first_message(c), rule.message) << rule.name;
    EXPECT_EQ(rule.message.rfind(issues[0].field + ": ", 0), 0u) << rule.name;
  }
}

TEST(RunConfig, CudaDeviceDependsOnTheBuild) {
  RunConfig c;
  c.device = Device::kCuda;
  if (cuda_build()) {
    EXPECT_TRUE(check(c).empty());
    c.mixed_precision = MixedPrecision::kFp16;
    EXPECT_TRUE(check(c).empty());
  } else {
    EXPECT_EQ(
        first_message(c),
        "device: cuda is not allowed; this build of Parity has no CUDA (LibTorch CPU); use cpu");
  }
}

TEST(RunConfig, CheckReportsEveryProblem) {
  RunConfig c;
  c.num_processes = 0;
  c.epochs = 0;
  c.lr = -1;
  c.mixed_precision = MixedPrecision::kFp16;
  const std::vector<ConfigIssue> issues = check(c);
  ASSERT_EQ(issues.size(), 4u);
  EXPECT_EQ(issues[0].field, "num_processes");
  EXPECT_EQ(issues[1].field, "epochs");
  EXPECT_EQ(issues[2].field, "lr");
  EXPECT_EQ(issues[3].field, "mixed_precision");
  EXPECT_TRUE(has_issue(c, "lr: -1 is not allowed; must be a finite number > 0"));
}

TEST(RunConfig, SplitBatchesThatDivideAreFine) {
  RunConfig c;
  c.split_batches = true;
  c.num_processes = 4;
  c.per_device_batch_size = 256;
  EXPECT_TRUE(check(c).empty());
}

TEST(RunConfig, EffectiveDefaults) {
  RunConfig c;
  EXPECT_EQ(c.effective_data_seed(), 42);
  c.data_seed = 7;
  EXPECT_EQ(c.effective_data_seed(), 7);
  EXPECT_EQ(c.effective_loss(), LossKind::kCrossEntropy);
  c.task = Task::kRegression;
  EXPECT_EQ(c.effective_loss(), LossKind::kMse);
  c.loss = LossKind::kCrossEntropy;
  EXPECT_EQ(c.effective_loss(), LossKind::kCrossEntropy);
}

TEST(RunConfig, EnumSpellings) {
  EXPECT_EQ(to_string(Device::kCuda), "cuda");
  EXPECT_EQ(to_string(MixedPrecision::kBf16), "bf16");
  EXPECT_EQ(to_string(LrScaling::kSqrt), "sqrt");
  EXPECT_EQ(to_string(DatasetKind::kFashionMnist), "fashion-mnist");
  EXPECT_EQ(to_string(DatasetKind::kSyntheticRegression), "synthetic-regression");
  EXPECT_EQ(to_string(Task::kClassification), "classification");
  EXPECT_EQ(to_string(ModelKind::kCnn), "cnn");
  EXPECT_EQ(to_string(Init::kZeros), "zeros");
  EXPECT_EQ(to_string(OptimizerKind::kAdamW), "adamw");
  EXPECT_EQ(to_string(SchedulerKind::kCosine), "cosine");
  EXPECT_EQ(to_string(LossKind::kCrossEntropy), "cross-entropy");
  EXPECT_EQ(parse_dataset("synthetic_regression"), DatasetKind::kSyntheticRegression);
  EXPECT_EQ(parse_loss("Cross-Entropy"), LossKind::kCrossEntropy);
  EXPECT_EQ(parse_scheduler("step"), SchedulerKind::kStep);
  try {
    parse_mixed_precision("fp8");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "mixed_precision: fp8 is not allowed; must be one of no, bf16, fp16");
  }
  EXPECT_THROW(parse_device("tpu"), ConfigError);
  EXPECT_THROW(parse_lr_scaling(""), ConfigError);
  EXPECT_THROW(parse_task("ranking"), ConfigError);
  EXPECT_THROW(parse_model("resnet"), ConfigError);
  EXPECT_THROW(parse_init("xavier"), ConfigError);
  EXPECT_THROW(parse_optimizer("adam"), ConfigError);
}

}  // namespace
}  // namespace parity::config
