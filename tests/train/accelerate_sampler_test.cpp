// Accelerate's default sampler (use_seedable_sampler false) reproduced: the first losses Accelerate
// 1.2.1 itself logged (shared fixtures, accelerate-tensorboard/README.md: Fashion-MNIST's first
// 6,400 images, MLP 784-256-128-10, SGD lr 0.05, seed 42). One process draws its order from the
// global generator after the DataLoader iterator's base seed; two processes from an unseeded
// torch.Generator(). The full per-step comparison with those logs waits for the TensorBoard
// event-file reader (engine/ingest).
#include <gtest/gtest.h>

#include <cmath>

#include "dist_test_util.h"

namespace parity::train {
namespace {

config::RunConfig logged_experiment(int processes, int64_t per_device, bool seedable) {
  config::RunConfig c;
  c.dataset = config::DatasetKind::kFashionMnist;
  c.train_samples = 6400;
  c.model = config::ModelKind::kMlp;
  c.hidden = {256, 128};
  c.optimizer = config::OptimizerKind::kSgd;
  c.lr = 0.05;
  c.seed = 42;
  c.num_processes = processes;
  c.per_device_batch_size = per_device;
  c.use_seedable_sampler = seedable;
  c.max_steps = 2;
  c.eval_every_epoch = false;
  return c;
}

double first_loss(const config::RunConfig& c) {
  const testing::ThreadedRun run = testing::train_threaded(c);
  EXPECT_FALSE(run.sink.steps.empty());
  return run.sink.steps.empty() ? NAN : run.sink.steps.front().loss;
}

TEST(AccelerateSampler, TheDefaultSamplerGivesTheFirstLossesAccelerateLogged) {
  // Float32 losses: within 1e-6 relative of the logged values (a few ulps of other BLAS paths).
  const double one = first_loss(logged_experiment(1, 32, false));
  EXPECT_NEAR(one, 2.2961153984069824, 2.3e-6);
  const double two = first_loss(logged_experiment(2, 16, false));
  EXPECT_NEAR(two, 2.3010993003845215, 2.3e-6);
  // The seeded sampler draws other batches: it must not match.
  EXPECT_GT(std::abs(first_loss(logged_experiment(1, 32, true)) - 2.2961153984069824), 1e-4);
  EXPECT_GT(std::abs(first_loss(logged_experiment(2, 16, true)) - 2.3010993003845215), 1e-4);
}

}  // namespace
}  // namespace parity::train
