#include <gtest/gtest.h>
#include <parity/config/batch_plan.h>
#include <parity/config/valid_config.h>

#include <string>

namespace parity::config {
namespace {

RunConfig setup(int w, int64_t b, int k = 1) {
  RunConfig c;
  c.num_processes = w;
  c.per_device_batch_size = b;
  c.gradient_accumulation_steps = k;
  return c;
}

// The message the config's own validation gives, for comparison.
std::string validation_message(const RunConfig& c) {
  try {
    validate(c);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return {};
}

// An invalid config cannot reach the plan: the only way to a ValidConfig refuses it with the
// config's own message, so plan_setup never divides by an accumulation of 0 or plans 0 epochs.
TEST(ValidConfig, RefusesWhatValidationRefusesWithItsMessage) {
  RunConfig zero_k = setup(1, 8, 0);
  RunConfig zero_epochs = setup(1, 8);
  zero_epochs.epochs = 0;
  RunConfig negative_steps = setup(1, 8);
  negative_steps.max_steps = -1;
  for (const RunConfig& c : {zero_k, zero_epochs, negative_steps, setup(0, 8), setup(1, 0)}) {
    const std::string message = validation_message(c);
    ASSERT_FALSE(message.empty());
    try {
      (void)ValidConfig::make(c);
      ADD_FAILURE() << "made a ValidConfig of an invalid config: " << message;
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.what(), message);
    }
    EXPECT_FALSE(ValidConfig::try_make(c).has_value()) << message;
  }
  EXPECT_EQ(validation_message(zero_k),
            "gradient_accumulation_steps: 0 is not allowed; must be at least 1");
  EXPECT_EQ(validation_message(zero_epochs), "epochs: 0 is not allowed; must be at least 1");
}

TEST(ValidConfig, KeepsTheConfigItValidated) {
  const ValidConfig valid = ValidConfig::make(setup(2, 32, 4));
  EXPECT_EQ(valid->gradient_accumulation_steps, 4);
  EXPECT_EQ(global_batch_size(valid), 256);
  EXPECT_EQ(plan_setup(valid, 1024).optimizer_steps_per_epoch, 4);
  ASSERT_TRUE(ValidConfig::try_make(setup(1, 8)).has_value());
}

// A cuda setup is planned on any build (a GPU run stored elsewhere, a set planned here for a
// cluster); its other problems are still refused, and fp16 stays allowed with cuda.
TEST(ValidConfig, AnyBuildAllowsCudaButNothingElse) {
  RunConfig gpu = setup(2, 32);
  gpu.device = Device::kCuda;
  gpu.mixed_precision = MixedPrecision::kFp16;
  const auto valid = ValidConfig::try_make(gpu, ForBuild::kAny);
  ASSERT_TRUE(valid.has_value());
  EXPECT_EQ((*valid)->device, Device::kCuda);
  EXPECT_EQ(ValidConfig::try_make(gpu).has_value(), cuda_build());
  gpu.epochs = 0;
  EXPECT_THROW((void)ValidConfig::make(gpu, ForBuild::kAny), ConfigError);
  RunConfig cpu_fp16 = setup(1, 8);
  cpu_fp16.mixed_precision = MixedPrecision::kFp16;
  EXPECT_FALSE(ValidConfig::try_make(cpu_fp16, ForBuild::kAny).has_value());
}

}  // namespace
}  // namespace parity::config
