// A user's own experiment, trained as given: every csv row, a TorchScript module, token data with
// both loss normalisations, dropout and batch norm, and the schedules under Accelerate's rule.
#include <gtest/gtest.h>
#include <parity/test_support/lr_schedules.h>
#include <parity/train/datasets.h>
#include <parity/train/models.h>
#include <parity/train/optimizer_step.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "dist_test_util.h"

namespace parity::train {
namespace {

using testing::regression_config;
using testing::TempDir;
using testing::train_threaded;

std::string data_file(const std::string& name) {
  return std::string(PARITY_TEST_DATA) + "/" + name;
}

double rel_gap(double a, double b) { return std::abs(a - b) / std::max(1e-12, std::abs(b)); }

std::string write_csv(const TempDir& dir, const std::string& name, int rows, int offset = 0) {
  const std::string p = dir.path() + "/" + name;
  std::ofstream out(p);
  out << "x,y\n";
  for (int i = 0; i < rows; ++i) {
    const double x = (i + offset) / 32.0 - 1;
    out << x << "," << 3 * x - 0.5 << "\n";
  }
  return p;
}

config::RunConfig csv_config(const std::string& path, int w, int64_t batch) {
  config::RunConfig c = regression_config(w, batch);
  c.dataset = config::DatasetKind::kCsv;
  c.data_path = path;
  c.target = "y";
  c.epochs = 1;
  return c;
}

TEST(UserCsv, TrainsOnEveryRowAndEvaluatesOnlyWithTestData) {
  TempDir dir;
  config::RunConfig c = csv_config(write_csv(dir, "d.csv", 64), 2, 16);
  auto run = train_threaded(c);
  EXPECT_EQ(run.sink.start.train_samples, 64);  // v0.1: 52
  EXPECT_EQ(run.sink.start.test_samples, 0);
  ASSERT_EQ(run.sink.steps.size(), 2u);  // 64 / (2 x 16): no padding appears
  EXPECT_EQ(run.sink.steps.back().samples, 64);
  EXPECT_TRUE(run.sink.evals.empty());
  EXPECT_EQ(run.sink.end.outcome, launch::RunOutcome::kFinished);

  c.test_data = write_csv(dir, "t.csv", 8, 100);
  run = train_threaded(c);
  EXPECT_EQ(run.sink.start.test_samples, 8);
  ASSERT_EQ(run.sink.evals.size(), 1u);
  EXPECT_TRUE(std::isfinite(run.sink.evals[0].loss));
}

TEST(UserTorchScript, TrainsOnOneAndTwoRanksWithEqualPerStepLosses) {
  config::RunConfig one = regression_config(1, 16);
  one.model = config::ModelKind::kTorchScript;
  one.model_file = data_file("tiny_mlp.pt");
  one.init = config::Init::kDefault;  // the module's own parameters
  one.epochs = 1;
  config::RunConfig two = one;
  two.num_processes = 2;
  two.per_device_batch_size = 8;
  two.lr_scaling = config::LrScaling::kNone;
  const auto a = train_threaded(one);
  const auto b = train_threaded(two);
  ASSERT_EQ(a.sink.steps.size(), 16u);
  ASSERT_EQ(b.sink.steps.size(), 16u);
  for (size_t i = 0; i < a.sink.steps.size(); ++i) {
    EXPECT_LE(rel_gap(b.sink.steps[i].loss, a.sink.steps[i].loss), 1e-5) << "step " << i + 1;
  }
  // It trained: the loss fell, and both ranks hold the same parameters.
  EXPECT_LT(a.sink.steps.back().loss, 0.5 * a.sink.steps.front().loss);
  EXPECT_EQ(b.parameters[0], b.parameters[1]);
  ASSERT_EQ(a.parameters[0].size(), 8u + 8u + 8u + 1u);  // Linear(1,8) + Linear(8,1)
}

TEST(UserTorchScript, RefusesAFileThatIsNotAModuleOrDoesNotTakeTheInput) {
  TempDir dir;
  const std::string junk = dir.path() + "/model.pt";
  std::ofstream(junk) << "not a zip archive\n";
  config::RunConfig c = regression_config(1, 16);
  c.model = config::ModelKind::kTorchScript;
  for (const auto& [file, expected] : std::vector<std::pair<std::string, std::string>>{
           {junk, "not a TorchScript module"},
           {data_file("two_inputs.pt"), "forward does not take the dataset's input"},
           {data_file("token_mlp.pt"), "forward does not take the dataset's input"}}) {
    c.model_file = file;
    try {
      train_threaded(c);
      ADD_FAILURE() << file << " was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    }
  }
}

TEST(UserTorchScript, DropoutAndBatchNormAreSeenAndHonouredInTrainAndEvalModes) {
  config::RunConfig c = regression_config(1, 8);
  c.model = config::ModelKind::kTorchScript;
  c.model_file = data_file("bn_dropout.pt");
  c.init = config::Init::kDefault;  // zeroed parameters would make every output 0
  auto model = make_model(c, {1}, 1);
  const config::ModelSummary t = traits_of(c, *model);
  EXPECT_TRUE(t.dropout);
  EXPECT_DOUBLE_EQ(t.dropout_p, 0.5);  // the module's own rate, read from its class
  EXPECT_TRUE(t.batch_norm);
  EXPECT_EQ(t.parameters, 16 + 16 + 16 + 16 + 16 + 1);
  auto x = torch::linspace(-1, 1, 8).reshape({8, 1});
  model->train(false);
  EXPECT_TRUE(torch::equal(model->forward(x), model->forward(x)));  // no dropout in eval
  model->train(true);
  EXPECT_FALSE(torch::equal(model->forward(x), model->forward(x)));  // masks differ
  EXPECT_FALSE(model->buffers().empty());  // running statistics, broadcast like DDP's
}

TEST(BuiltinModels, BatchNormMakesTheProcessCountMatterAndDropoutIsSeeded) {
  config::RunConfig one = regression_config(1, 16);
  one.model = config::ModelKind::kMlp;
  one.hidden = {8};
  one.init = config::Init::kDefault;
  one.epochs = 1;
  config::RunConfig two = one;
  two.num_processes = 2;
  two.per_device_batch_size = 8;
  auto max_gap = [](const testing::ThreadedRun& a, const testing::ThreadedRun& b) {
    double gap = 0;
    for (size_t i = 0; i < a.sink.steps.size(); ++i)
      gap = std::max(gap, rel_gap(b.sink.steps[i].loss, a.sink.steps[i].loss));
    return gap;
  };
  EXPECT_LE(max_gap(train_threaded(one), train_threaded(two)), 1e-5);
  one.batch_norm = two.batch_norm = true;  // statistics over 16 vs over each rank's 8
  const auto bn1 = train_threaded(one);
  const auto bn2 = train_threaded(two);
  EXPECT_GT(max_gap(bn1, bn2), 1e-3);
  EXPECT_EQ(bn2.parameters[0], bn2.parameters[1]);
  // Buffers too: DDP hands rank 0's running statistics to every rank before each forward (the
  // final evaluation's included), so the ranks end with the same ones although each rank's
  // batches moved its own.
  ASSERT_FALSE(bn2.buffers[0].empty());
  EXPECT_EQ(bn2.buffers[0], bn2.buffers[1]);
  EXPECT_TRUE(std::any_of(bn2.buffers[0].begin(), bn2.buffers[0].end(), [](double v) {
    return v != 0 && v != 1;
  })) << "the running statistics never moved";
  one.batch_norm = false;
  const auto plain = train_threaded(one);
  one.dropout = 0.5;
  const auto d1 = train_threaded(one);
  const auto d2 = train_threaded(one);
  EXPECT_EQ(d1.sink.steps.back().loss, d2.sink.steps.back().loss);     // the seed fixes the masks
  EXPECT_NE(d1.sink.steps.back().loss, plain.sink.steps.back().loss);  // the same MLP, p = 0
}

// The same MLP with dropout 0 and 0.5 and an lr too small to move a float32 parameter: the
// training losses differ from the first step (masks), the evaluations are equal (no dropout).
TEST(BuiltinModels, DropoutActsInTrainingAndNotInEvaluation) {
  config::RunConfig c = regression_config(1, 16);
  c.model = config::ModelKind::kMlp;
  c.hidden = {8};
  c.init = config::Init::kDefault;
  c.epochs = 1;
  c.lr = 1e-30;
  const auto plain = train_threaded(c);
  c.dropout = 0.5;
  const auto dropped = train_threaded(c);
  ASSERT_EQ(plain.parameters[0], dropped.parameters[0]) << "the lr moved the parameters";
  ASSERT_FALSE(plain.sink.steps.empty());
  EXPECT_NE(plain.sink.steps[0].loss, dropped.sink.steps[0].loss);
  ASSERT_FALSE(plain.sink.evals.empty());
  ASSERT_EQ(plain.sink.evals.size(), dropped.sink.evals.size());
  EXPECT_EQ(plain.sink.evals.back().loss, dropped.sink.evals.back().loss);
}

// Variable-length token sequences: 32 of 2..13 tokens, some labels masked.
std::string write_tokens(const TempDir& dir) {
  const std::string p = dir.path() + "/tokens.jsonl";
  std::ofstream out(p);
  std::mt19937 gen(3);
  for (int s = 0; s < 32; ++s) {
    const int len = 2 + static_cast<int>(gen() % 12);
    nlohmann::json ids = nlohmann::json::array(), labels = nlohmann::json::array();
    for (int t = 0; t < len; ++t) {
      const int id = 1 + static_cast<int>(gen() % 15);
      ids.push_back(id);
      labels.push_back(t == 1 && s % 3 == 0 ? -100 : id);
    }
    out << nlohmann::json{{"input_ids", ids}, {"labels", labels}}.dump() << "\n";
  }
  return p;
}

config::RunConfig token_config(const std::string& path, int w, int64_t batch, int k,
                               config::LossNormalization norm) {
  config::RunConfig c;
  c.dataset = config::DatasetKind::kJsonl;
  c.data_path = path;
  c.model = config::ModelKind::kBigram;
  c.embedding_dim = 8;
  c.optimizer = config::OptimizerKind::kSgd;
  c.lr = 0.5;
  c.epochs = 2;
  c.seed = 11;
  c.num_processes = w;
  c.per_device_batch_size = batch;
  c.gradient_accumulation_steps = k;
  c.loss_normalization = norm;
  return c;
}

TEST(TokenLoss, GlobalNormalisationAgreesAcross1x8And2x4And1x4Acc2AndPerBatchDoesNot) {
  TempDir dir;
  const std::string path = write_tokens(dir);
  auto runs = [&](config::LossNormalization norm) {
    return std::vector<testing::ThreadedRun>{train_threaded(token_config(path, 1, 8, 1, norm)),
                                             train_threaded(token_config(path, 2, 4, 1, norm)),
                                             train_threaded(token_config(path, 1, 4, 2, norm))};
  };
  auto max_gap = [](const testing::ThreadedRun& a, const testing::ThreadedRun& b) {
    EXPECT_EQ(a.sink.steps.size(), b.sink.steps.size());
    double gap = 0;
    for (size_t i = 0; i < std::min(a.sink.steps.size(), b.sink.steps.size()); ++i)
      gap = std::max(gap, rel_gap(b.sink.steps[i].loss, a.sink.steps[i].loss));
    return gap;
  };
  const auto global = runs(config::LossNormalization::kGlobal);
  ASSERT_EQ(global[0].sink.steps.size(), 8u);  // 32 sequences / 8, two epochs
  EXPECT_LE(max_gap(global[0], global[1]), 1e-5);
  EXPECT_LE(max_gap(global[0], global[2]), 1e-5);
  const auto per_batch = runs(config::LossNormalization::kPerBatch);
  EXPECT_GT(max_gap(per_batch[0], per_batch[1]), 1e-4);
  EXPECT_GT(max_gap(per_batch[0], per_batch[2]), 1e-4);
  // 1x8 is one micro-batch per step: both normalisations are the same mean there.
  EXPECT_LE(max_gap(global[0], per_batch[0]), 1e-6);
  EXPECT_LT(global[0].sink.steps.back().loss, global[0].sink.steps.front().loss);
}

TEST(Schedules, AcceleratedSchedulerStepsWTimesAndStopsOneCycleAtItsTotalAsAccelerateDoes) {
  for (const auto& c : config::test::lr_schedule_cases()) {
    const config::RunConfig config = config::test::lr_schedule_config(c);
    const auto& acc = c.at("accelerate");
    AcceleratedScheduler scheduler(
        config::LrSchedule(config, c.at("lr").get<double>(), c.at("total").get<int64_t>()),
        acc.at("world").get<int>());
    for (const auto& expected : acc.at("lrs")) {
      EXPECT_DOUBLE_EQ(scheduler.lr(), expected.get<double>()) << c.at("scheduler");
      scheduler.step(/*optimizer_step_was_skipped=*/false);
    }
  }
}

}  // namespace
}  // namespace parity::train
