// The absolute oracle: Parity's per-step losses against PyTorch's own, recorded by
// scripts/fixtures/trainer_oracle.py with Debian's python3-torch 1.13 (the libtorch Parity links)
// on the first 256 Fashion-MNIST training images: an MLP and the CNN, 1 rank x 32 and
// 2 ranks x 16 (data parallelism emulated as Accelerate/DDP does it).

#include <gtest/gtest.h>
#include <parity/test_support/ci_skip.h>
#include <parity/train/datasets.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dist_test_util.h"

namespace parity::train {
namespace {

nlohmann::json read_oracle() {
  std::ifstream in(std::string(PARITY_TEST_DATA) + "/trainer_oracle.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str());
}

config::RunConfig oracle_config(const nlohmann::json& experiment, const nlohmann::json& run) {
  config::RunConfig c;
  c.dataset = config::DatasetKind::kFashionMnist;
  c.task = config::Task::kClassification;
  c.train_samples = experiment.at("train_samples").get<int64_t>();
  c.epochs = experiment.at("epochs").get<int>();
  c.seed = experiment.at("seed").get<int64_t>();
  c.lr = experiment.at("lr").get<double>();
  c.optimizer = config::OptimizerKind::kSgd;
  c.init = config::Init::kDefault;
  c.model = run.at("model").get<std::string>() == "cnn" ? config::ModelKind::kCnn
                                                        : config::ModelKind::kMlp;
  c.hidden = experiment.at("mlp_hidden").get<std::vector<int64_t>>();
  c.num_processes = run.at("num_processes").get<int>();
  c.per_device_batch_size = run.at("per_device_batch_size").get<int64_t>();
  c.eval_every_epoch = false;
  return c;
}

bool have_fashion_mnist() {
  return std::ifstream(std::string(config::kFashionMnistDir) + "/train-images-idx3-ubyte.gz")
      .good();
}

// Absolute difference: the losses are O(1) (cross-entropy over 10 classes, 0.5 to 2.4), so 1e-6
// absolute is also about 1e-6 relative. The match is expected to be exact: same kernels, same
// generator, same order of every floating-point operation.
constexpr double kAbsTolerance = 1e-6;

TEST(TrainerOracle, PerStepLossesEqualPyTorchs) {
  if (!have_fashion_mnist()) PARITY_SKIP_OR_FAIL() << "dataset-fashion-mnist is not installed";
  const auto oracle = read_oracle();
  const auto& experiment = oracle.at("config");
  ASSERT_FALSE(oracle.at("runs").empty());
  for (const auto& run : oracle.at("runs")) {
    const config::RunConfig c = oracle_config(experiment, run);
    const std::string name = run.at("model").get<std::string>() + " " +
                             std::to_string(c.num_processes) + "x" +
                             std::to_string(c.per_device_batch_size);
    const auto expected = run.at("losses").get<std::vector<double>>();
    const auto got = testing::train_threaded(c);
    ASSERT_EQ(got.sink.steps.size(), expected.size()) << name;
    double max_diff = 0;
    for (size_t i = 0; i < expected.size(); ++i) {
      const double d = std::abs(got.sink.steps[i].loss - expected[i]);
      max_diff = std::max(max_diff, d);
      EXPECT_LE(d, kAbsTolerance) << name << " step " << i + 1 << ": " << got.sink.steps[i].loss
                                  << " vs PyTorch " << expected[i];
    }
    std::cout << "[oracle] " << name << ": max |dloss| = " << max_diff << "\n";
  }
}

}  // namespace
}  // namespace parity::train
