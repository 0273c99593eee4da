// GradScaler against torch.amp.GradScaler's rules, on the CPU with injected inf/NaN gradients,
// and the optimizer step around it (Accelerate: no scheduler step on a skipped step).

#include <gtest/gtest.h>
#include <parity/config/lr_schedule.h>
#include <parity/train/grad_scaler.h>
#include <parity/train/grad_sync.h>
#include <parity/train/optimizer_step.h>
#include <parity/train/process_group.h>
#include <torch/torch.h>

#include <cmath>
#include <limits>
#include <string>
#include <thread>

#include "dist_test_util.h"

namespace parity::train {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// One parameter [1, 2] whose gradient is set by hand, as if backward had run on scale(loss).
struct Fixture {
  torch::Tensor p = torch::tensor({1.0f, 2.0f}).requires_grad_();
  std::vector<torch::Tensor> params{p};
  torch::optim::SGD sgd{params, torch::optim::SGDOptions(1.0)};
  void set_grad(double g0, double g1) {
    p.mutable_grad() = torch::tensor({static_cast<float>(g0), static_cast<float>(g1)});
  }
  float value(int i) const { return p[i].item<float>(); }
};

TEST(GradScaler, DefaultsAreTorchAmps) {
  GradScalerOptions o;
  EXPECT_EQ(o.init_scale, 65536.0);
  EXPECT_EQ(o.growth_factor, 2.0);
  EXPECT_EQ(o.backoff_factor, 0.5);
  EXPECT_EQ(o.growth_interval, 2000);
  EXPECT_EQ(GradScaler().get_scale(), 65536.0);
}

TEST(GradScaler, ScalesTheLossAndUnscalesGradientsBeforeTheStep) {
  Fixture f;
  GradScaler scaler;
  EXPECT_EQ(scaler.scale(torch::tensor(0.25f)).item<float>(), 0.25f * 65536.0f);
  f.set_grad(0.5 * 65536, -1.0 * 65536);
  scaler.unscale_(f.params);
  EXPECT_TRUE(scaler.step(f.sgd));
  scaler.update();
  EXPECT_EQ(f.value(0), 0.5f);  // 1 - 1.0 * 0.5
  EXPECT_EQ(f.value(1), 3.0f);  // 2 - 1.0 * -1
  EXPECT_EQ(scaler.get_scale(), 65536.0);
}

TEST(GradScaler, InfOrNanSkipsTheStepAndBacksOff) {
  for (double bad : {kInf, -kInf, std::nan("")}) {
    Fixture f;
    GradScaler scaler;
    f.set_grad(1.0, bad);
    scaler.unscale_(f.params);
    EXPECT_FALSE(scaler.step(f.sgd)) << bad;
    scaler.update();
    EXPECT_EQ(f.value(0), 1.0f) << "the step was skipped";
    EXPECT_EQ(f.value(1), 2.0f);
    EXPECT_EQ(scaler.get_scale(), 32768.0);
  }
}

TEST(GradScaler, GrowsAfterGrowthIntervalCleanStepsAndAnOverflowRestartsTheCount) {
  GradScalerOptions o;
  o.init_scale = 8;
  o.growth_interval = 3;
  GradScaler scaler(o);
  Fixture f;
  auto step = [&](double g) {
    f.set_grad(g, g);
    scaler.unscale_(f.params);
    const bool stepped = scaler.step(f.sgd);
    scaler.update();
    return stepped;
  };
  EXPECT_TRUE(step(0));
  EXPECT_TRUE(step(0));
  EXPECT_EQ(scaler.get_scale(), 8.0);
  EXPECT_FALSE(step(kInf));  // backs off and restarts the count
  EXPECT_EQ(scaler.get_scale(), 4.0);
  EXPECT_TRUE(step(0));
  EXPECT_TRUE(step(0));
  EXPECT_EQ(scaler.get_scale(), 4.0);
  EXPECT_TRUE(step(0));  // the third clean step in a row
  EXPECT_EQ(scaler.get_scale(), 8.0);
}

TEST(GradScaler, DisabledIsTheIdentityAndAlwaysSteps) {
  GradScalerOptions o;
  o.enabled = false;
  GradScaler scaler(o);
  Fixture f;
  EXPECT_EQ(scaler.get_scale(), 1.0);
  EXPECT_EQ(scaler.scale(torch::tensor(0.25f)).item<float>(), 0.25f);
  f.set_grad(0.5, 0.5);
  scaler.unscale_(f.params);
  EXPECT_TRUE(scaler.step(f.sgd));
  EXPECT_EQ(f.value(0), 0.5f);  // not divided by any scale
}

TEST(OptimizerStep, TheSchedulerDoesNotStepOnASkippedStep) {
  config::RunConfig c;
  c.scheduler = config::SchedulerKind::kLinear;
  // Two scheduler steps per optimizer step (W = 2), a schedule of 10.
  AcceleratedScheduler scheduler(config::LrSchedule(c, 0.1, 10), 2);
  GradScaler scaler;
  Fixture f;
  f.set_grad(0, 0);
  auto first = take_optimizer_step(f.sgd, scaler, scheduler, f.params);
  EXPECT_TRUE(first.stepped);
  EXPECT_DOUBLE_EQ(first.lr, 0.1);
  EXPECT_EQ(scheduler.position(), 2);

  f.set_grad(kInf, 0);
  auto skipped = take_optimizer_step(f.sgd, scaler, scheduler, f.params);
  EXPECT_FALSE(skipped.stepped);
  EXPECT_DOUBLE_EQ(skipped.lr, 0.1 * 0.8);
  EXPECT_EQ(scheduler.position(), 2) << "a skipped step must not advance the schedule";
  EXPECT_FALSE(f.p.grad().defined() && f.p.grad().abs().sum().item<float>() != 0)
      << "gradients are zeroed after a skipped step too";

  f.set_grad(0, 0);
  auto next = take_optimizer_step(f.sgd, scaler, scheduler, f.params);
  EXPECT_TRUE(next.stepped);
  EXPECT_DOUBLE_EQ(next.lr, 0.1 * 0.8) << "the step after a skip uses the skipped step's lr";
  EXPECT_EQ(scheduler.position(), 4);
}

// An overflow on one rank only: the gradient allreduce carries it to every rank, so every rank's
// scaler skips the same step and the replicas stay equal.
TEST(GradScaler, AnOverflowOnOneRankSkipsTheStepOnEveryRank) {
  testing::TempDir dir;
  std::vector<int> stepped(2, -1);
  std::vector<double> scales(2, 0), values(2, 0);
  std::vector<std::string> errors(2);
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      try {
        launch::DistEnv env;
        env.rank = r;
        env.world_size = 2;
        env.local_rank = r;
        env.local_world_size = 2;
        env.store_path = dir.path() + "/store";
        env.collective_timeout_s = 60;
        auto pg = make_process_group(make_store(env), env, config::Device::kCpu);
        Fixture f;
        GradientSync sync(f.params, pg, 2, r);
        f.set_grad(r == 1 ? kInf : 1.0, 1.0);
        sync.sync(LocalStepMetrics{});
        GradScaler scaler;
        scaler.unscale_(f.params);
        stepped[static_cast<size_t>(r)] = scaler.step(f.sgd) ? 1 : 0;
        scaler.update();
        scales[static_cast<size_t>(r)] = scaler.get_scale();
        values[static_cast<size_t>(r)] = f.value(1);
      } catch (const std::exception& e) {
        errors[static_cast<size_t>(r)] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int r = 0; r < 2; ++r) {
    ASSERT_EQ(errors[static_cast<size_t>(r)], "") << "rank " << r;
    EXPECT_EQ(stepped[static_cast<size_t>(r)], 0) << "rank " << r << " stepped";
    EXPECT_EQ(scales[static_cast<size_t>(r)], 32768.0);
    EXPECT_EQ(values[static_cast<size_t>(r)], 2.0f);
  }
}

}  // namespace
}  // namespace parity::train
