#pragma once
/// RunConfig <-> CLI11: one flag per field of config::config_fields() (the list JSON is made from
/// too), in kebab case and in accelerate's underscore spelling (--num-processes and
/// --num_processes), plus --config FILE.json. Values are kept as text and read as JSON reads them
/// when applied, so a bad value is a ConfigError naming the field, exactly like a bad value in a
/// JSON file; range checks are config::check()'s.

#include <parity/config/accelerate_config.h>
#include <parity/config/run_config.h>

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace parity::cli {

class ConfigFlags {
 public:
  ConfigFlags();
  ~ConfigFlags();

  /// Adds the flags to app in the groups "Setup" and "Experiment" (and --config FILE.json when
  /// with_config_file).
  void add_to(CLI::App& app, bool with_config_file = true);

  bool any_flag_given() const;  ///< a field flag (not --config)
  /// --config or --accelerate-config given.
  bool config_file_given() const {
    return (config_opt_ && config_opt_->count() > 0) ||
           (accelerate_opt_ && accelerate_opt_->count() > 0);
  }

  /// The config: --config's file when given (else base), then each given flag applied over it.
  /// Throws ConfigError naming the field, UsageError for an unreadable file.
  config::RunConfig build(const config::RunConfig& base = {}) const;
  /// Applies the given flags over config.
  void apply(config::RunConfig& config) const;

  /// The --accelerate-config file as last read by build() (its machines, for the launcher).
  const std::optional<config::AccelerateConfig>& accelerate_config() const { return accelerate_; }

  /// The flag spelling of a config field ("num_processes" -> "--num-processes").
  static std::string flag_for(const std::string& field);

 private:
  std::vector<std::string> values_;
  std::vector<CLI::Option*> options_;
  std::string config_file_;
  CLI::Option* config_opt_ = nullptr;
  std::string accelerate_file_;
  CLI::Option* accelerate_opt_ = nullptr;
  mutable std::optional<config::AccelerateConfig> accelerate_;
};

/// Throws UsageError listing every problem config::check() finds ("invalid config (label):" then
/// one "  field: ..." line each, with the flag to change).
void require_valid(const config::RunConfig& config);

}  // namespace parity::cli
