#pragma once
/// ValidConfig: a RunConfig that has passed validation. What needs a valid setup (the batch plan)
/// takes one, so the type says the checks were made and the planner never repeats them; the only
/// way to make one is through the factories below, each of which runs validate().

#include <parity/config/run_config.h>

#include <optional>
#include <utility>

namespace parity::config {

/// Which build of Parity a config is validated for: this one, or any (device cuda is allowed on a
/// LibTorch CPU build: a setup planned here to train elsewhere, a GPU run stored elsewhere).
enum class ForBuild { kThis, kAny };

class ValidConfig {
 public:
  /// The config, validated (validate()); throws its ConfigError for the first problem.
  static ValidConfig make(RunConfig config, ForBuild build = ForBuild::kThis);
  /// The config when it has no problem, else nullopt.
  static std::optional<ValidConfig> try_make(RunConfig config, ForBuild build = ForBuild::kThis);

  const RunConfig& config() const { return config_; }
  const RunConfig& operator*() const { return config_; }
  const RunConfig* operator->() const { return &config_; }
  /// Read-only use as a RunConfig (global_batch_size(valid), ...).
  operator const RunConfig&() const { return config_; }  // NOLINT(google-explicit-constructor)

 private:
  explicit ValidConfig(RunConfig config) : config_(std::move(config)) {}
  RunConfig config_;
};

}  // namespace parity::config
