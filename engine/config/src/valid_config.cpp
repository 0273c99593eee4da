#include <parity/config/valid_config.h>

namespace parity::config {
namespace {

// validate() for `build`. For any build, a cuda setup is checked as a CUDA build checks it: the
// device's own checks (cuda needs a CUDA build, fp16 needs cuda) pass there, and no other check
// reads the device, so the copy on cpu without fp16 has exactly the setup's other problems.
void validate_for(const RunConfig& config, ForBuild build) {
  if (build == ForBuild::kThis || config.device != Device::kCuda) return validate(config);
  RunConfig probe = config;
  probe.device = Device::kCpu;
  if (probe.mixed_precision == MixedPrecision::kFp16) probe.mixed_precision = MixedPrecision::kNo;
  validate(probe);
}

}  // namespace

ValidConfig ValidConfig::make(RunConfig config, ForBuild build) {
  validate_for(config, build);
  return ValidConfig(std::move(config));
}

std::optional<ValidConfig> ValidConfig::try_make(RunConfig config, ForBuild build) {
  try {
    validate_for(config, build);
  } catch (const ConfigError&) {
    return std::nullopt;
  }
  return ValidConfig(std::move(config));
}

}  // namespace parity::config
