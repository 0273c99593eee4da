// Sync batch norm against batch norm on the concatenated batch: W ranks as threads, each with its
// own Gloo process group over a FileStore on loopback, each normalising its share of one batch.
// Forward outputs, the input's gradients, the weight's and bias's gradients (summed over the
// ranks, as the gradient sync's average of each rank's mean-loss gradient undoes) and the running
// statistics all equal one process's to fp32 precision.

#include <gtest/gtest.h>
#include <parity/test_support/temp_dir.h>
#include <parity/train/process_group.h>
#include <parity/train/sync_batch_norm.h>

#include <thread>

#include "dist_test_util.h"

namespace parity::train {
namespace {

struct Result {
  torch::Tensor y, dx, dweight, dbias, running_mean, running_var;
};

// Batch norm over x (one process), the loss sum(y * g).
Result plain(const torch::Tensor& x, const torch::Tensor& g) {
  torch::nn::BatchNorm1d bn1(x.size(1));
  torch::nn::BatchNorm2d bn2(x.size(1));
  auto input = x.clone().requires_grad_(true);
  Result r;
  r.y = x.dim() == 2 ? bn1->forward(input) : bn2->forward(input);
  (r.y * g).sum().backward();
  r.dx = input.grad();
  auto& w = x.dim() == 2 ? bn1->weight : bn2->weight;
  auto& b = x.dim() == 2 ? bn1->bias : bn2->bias;
  r.dweight = w.grad();
  r.dbias = b.grad();
  r.running_mean = x.dim() == 2 ? bn1->running_mean : bn2->running_mean;
  r.running_var = x.dim() == 2 ? bn1->running_var : bn2->running_var;
  return r;
}

// Sync batch norm on W ranks, rank r taking rows [r*n/W, (r+1)*n/W) of x; the parts put back
// together (gradients of the weight and bias summed).
Result synced(const torch::Tensor& x, const torch::Tensor& g, int w) {
  test_support::TempDir dir;
  std::vector<Result> parts(static_cast<size_t>(w));
  std::vector<std::string> errors(static_cast<size_t>(w));
  std::vector<std::thread> threads;
  const int64_t rows = x.size(0) / w;
  for (int r = 0; r < w; ++r) {
    threads.emplace_back([&, r] {
      try {
        launch::DistEnv env;
        env.rank = r;
        env.world_size = env.local_world_size = w;
        env.local_rank = r;
        env.store_path = dir.path() + "/store";
        env.collective_timeout_s = 60;
        auto pg = make_process_group(make_store(env), env, config::Device::kCpu);
        SyncBatchNorm bn(SyncBatchNormOptions{x.size(1)}, pg.get());
        auto input = x.narrow(0, r * rows, rows).clone().requires_grad_(true);
        Result& p = parts[static_cast<size_t>(r)];
        p.y = bn->forward(input);
        (p.y * g.narrow(0, r * rows, rows)).sum().backward();
        p.dx = input.grad();
        p.dweight = bn->weight.grad();
        p.dbias = bn->bias.grad();
        p.running_mean = bn->running_mean;
        p.running_var = bn->running_var;
      } catch (const std::exception& e) {
        errors[static_cast<size_t>(r)] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& e : errors) EXPECT_EQ(e, "");
  Result out;
  std::vector<torch::Tensor> ys, dxs;
  for (const Result& p : parts) {
    ys.push_back(p.y);
    dxs.push_back(p.dx);
    EXPECT_TRUE(torch::equal(p.running_mean, parts[0].running_mean));  // every rank's the same
  }
  out.y = torch::cat(ys);
  out.dx = torch::cat(dxs);
  out.dweight = parts[0].dweight.clone();
  out.dbias = parts[0].dbias.clone();
  for (size_t r = 1; r < parts.size(); ++r) {
    out.dweight += parts[r].dweight;
    out.dbias += parts[r].dbias;
  }
  out.running_mean = parts[0].running_mean;
  out.running_var = parts[0].running_var;
  return out;
}

void expect_close(const torch::Tensor& a, const torch::Tensor& b, const std::string& what) {
  ASSERT_TRUE(a.defined() && b.defined()) << what;
  const double scale = std::max(1.0, b.abs().max().item<double>());
  EXPECT_LE((a - b).abs().max().item<double>(), 2e-5 * scale) << what;
}

void expect_same_as_one_process(const std::vector<int64_t>& shape, int w) {
  torch::manual_seed(5);
  const auto x = torch::randn(shape) * 3 + 1;
  const auto g = torch::randn(shape);
  const Result one = plain(x, g);
  const Result many = synced(x, g, w);
  const std::string name =
      std::to_string(w) + " ranks, input of " + std::to_string(shape.size()) + " dims";
  expect_close(many.y, one.y, name + ": output");
  expect_close(many.dx, one.dx, name + ": input gradient");
  expect_close(many.dweight, one.dweight, name + ": weight gradient");
  expect_close(many.dbias, one.dbias, name + ": bias gradient");
  expect_close(many.running_mean, one.running_mean, name + ": running mean");
  expect_close(many.running_var, one.running_var, name + ": running variance");
  // And it is not plain batch norm per rank: rank 0's statistics alone give another output.
  const Result alone = plain(x.narrow(0, 0, shape[0] / w), g.narrow(0, 0, shape[0] / w));
  EXPECT_GT((alone.y - one.y.narrow(0, 0, shape[0] / w)).abs().max().item<double>(), 1e-3);
}

TEST(SyncBatchNorm, RanksTogetherEqualOneProcessOnTheConcatenatedBatch) {
  expect_same_as_one_process({64, 6}, 2);
  expect_same_as_one_process({48, 5}, 3);
  expect_same_as_one_process({16, 4, 5, 5}, 2);  // channels of a conv layer
}

// Without a process group, and in evaluation, it is batch norm itself.
TEST(SyncBatchNorm, OneProcessAndEvaluationArePlainBatchNorm) {
  torch::manual_seed(6);
  const auto x = torch::randn({32, 3});
  torch::nn::BatchNorm1d bn(3);
  SyncBatchNorm sync(SyncBatchNormOptions{3}, nullptr);
  EXPECT_TRUE(torch::equal(sync->forward(x), bn->forward(x)));
  EXPECT_TRUE(torch::equal(sync->running_mean, bn->running_mean));
  sync->eval();
  bn->eval();
  EXPECT_TRUE(torch::equal(sync->forward(x), bn->forward(x)));
}

// The trainer: 2x8 with sync batch norm trains as 1x16 does (the same model), where plain batch
// norm over each rank's 8 does not.
TEST(SyncBatchNorm, TwoRanksWithItTrainAsOneProcessOnTheGlobalBatch) {
  config::RunConfig one = testing::regression_config(1, 16);
  one.model = config::ModelKind::kMlp;
  one.hidden = {8};
  one.init = config::Init::kDefault;
  one.batch_norm = true;
  one.epochs = 1;
  config::RunConfig two = one;
  two.num_processes = 2;
  two.per_device_batch_size = 8;
  two.sync_batch_norm = true;
  const auto ref = testing::train_threaded(one);
  const auto run = testing::train_threaded(two);
  ASSERT_EQ(run.sink.steps.size(), ref.sink.steps.size());
  double gap = 0;
  for (size_t i = 0; i < ref.sink.steps.size(); ++i) {
    const double a = run.sink.steps[i].loss, b = ref.sink.steps[i].loss;
    gap = std::max(gap, std::abs(a - b) / std::max(1e-12, std::abs(b)));
  }
  EXPECT_LE(gap, 1e-5);
  EXPECT_EQ(run.parameters[0], run.parameters[1]);
  EXPECT_EQ(run.buffers[0], run.buffers[1]);
  two.sync_batch_norm = false;
  const auto unsynced = testing::train_threaded(two);
  double plain_gap = 0;
  for (size_t i = 0; i < ref.sink.steps.size(); ++i) {
    const double a = unsynced.sink.steps[i].loss, b = ref.sink.steps[i].loss;
    plain_gap = std::max(plain_gap, std::abs(a - b) / std::max(1e-12, std::abs(b)));
  }
  EXPECT_GT(plain_gap, 1e-3);
}

}  // namespace
}  // namespace parity::train
