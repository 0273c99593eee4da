// The schedules against the learning rates PyTorch itself computes (tests/data/lr_schedules.json,
// made by scripts/fixtures/lr_schedules.py: torch's StepLR and OneCycleLR, and transformers'
// warm-up lambdas run through torch's LambdaLR), position by position, past the end too.
#include <gtest/gtest.h>
#include <parity/config/lr_schedule.h>

#include <parity/test_support/lr_schedules.h>

namespace parity::config {
namespace {

TEST(LrSchedule, EqualsTorchAndTransformersAtEveryPosition) {
  const auto cases = test::lr_schedule_cases();
  ASSERT_GE(cases.size(), 9u);
  for (const auto& c : cases) {
    const LrSchedule schedule(test::lr_schedule_config(c), c.at("lr").get<double>(),
                              c.at("total").get<int64_t>());
    const auto lrs = c.at("lrs");
    ASSERT_GE(lrs.size(), c.at("total").get<size_t>());
    for (size_t p = 0; p < lrs.size(); ++p) {
      // The same operations in the same order as torch: equal to the last bit, or within 1 ulp
      // where libm's cos is involved.
      EXPECT_DOUBLE_EQ(schedule.lr(static_cast<int64_t>(p)), lrs[p].get<double>())
          << c.at("scheduler") << " total " << c.at("total") << " position " << p;
    }
  }
}

TEST(LrSchedule, OneCycleCyclesMomentumAsTorchDoesByDefault) {
  size_t checked = 0;
  for (const auto& c : test::lr_schedule_cases()) {
    RunConfig config = test::lr_schedule_config(c);
    const LrSchedule schedule(config, c.at("lr").get<double>(), c.at("total").get<int64_t>());
    if (!c.contains("momenta")) {
      EXPECT_FALSE(schedule.momentum(0)) << c.at("scheduler");
      continue;
    }
    const auto momenta = c.at("momenta");
    for (size_t p = 0; p < momenta.size(); ++p, ++checked) {
      ASSERT_TRUE(schedule.momentum(static_cast<int64_t>(p)));
      EXPECT_DOUBLE_EQ(*schedule.momentum(static_cast<int64_t>(p)), momenta[p].get<double>())
          << "position " << p;
    }
    config.cycle_momentum = false;
    EXPECT_FALSE(LrSchedule(config, 0.1, 10).momentum(3));
  }
  EXPECT_GT(checked, 30u);
}

TEST(LrSchedule, WarmUpStartsFromZeroAsTransformersDoes) {
  RunConfig c;
  c.scheduler = SchedulerKind::kLinear;
  c.warmup_steps = 4;
  const LrSchedule s(c, 0.1, 20);
  EXPECT_EQ(s.lr(0), 0.0);  // v0.1 started at 1/(w+1)
  EXPECT_DOUBLE_EQ(s.lr(2), 0.05);
  EXPECT_DOUBLE_EQ(s.lr(4), 0.1);
}

TEST(LrSchedule, OneCycleThatWouldDivideZeroByZeroIsNamed) {
  RunConfig c;
  c.scheduler = SchedulerKind::kOneCycle;
  c.pct_start = 0.25;
  EXPECT_NE(LrSchedule(c, 0.1, 4).problem().find("divides 0 by 0"), std::string::npos);
  EXPECT_EQ(LrSchedule(c, 0.1, 8).problem(), "");
  EXPECT_TRUE(LrSchedule(c, 0.1, 8).caps_at_total());
}

TEST(LrSchedule, DefaultLengthIsAccelerateExamplesLoaderBatchesTimesEpochsOverAccumulation) {
  RunConfig c;
  c.per_device_batch_size = 16;
  c.epochs = 3;
  c.gradient_accumulation_steps = 2;
  c.num_processes = 4;                                      // the unsharded loader does not know W
  EXPECT_EQ(default_num_training_steps(c, 77), 5 * 3 / 2);  // ceil(77/16) = 5 batches
  c.drop_last = true;
  EXPECT_EQ(default_num_training_steps(c, 77), 4 * 3 / 2);
  EXPECT_EQ(schedule_length(c, 77), 6);
  c.num_training_steps = 100;
  EXPECT_EQ(schedule_length(c, 77), 100);
}

}  // namespace
}  // namespace parity::config
