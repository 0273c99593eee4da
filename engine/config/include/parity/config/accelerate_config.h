#pragma once
/// Reads the YAML file `accelerate config` writes (~/.cache/huggingface/accelerate/
/// default_config.yaml) into a setup, so the setup users already launch with is the one Parity
/// runs. Torch-free; the CLI's --accelerate-config and the window's "Import accelerate config…".

#include <parity/config/run_config.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parity::config {

/// The file's keys Parity uses. num_processes is the total over all machines, as Accelerate
/// counts it.
struct AccelerateConfig {
  std::optional<int> num_processes;
  std::optional<int> num_machines;
  std::optional<int> machine_rank;
  std::optional<std::string> main_process_ip;
  std::optional<int> main_process_port;
  std::optional<MixedPrecision> mixed_precision;
  std::optional<int> gradient_accumulation_steps;  ///< top level or under deepspeed_config
  std::optional<Device> device;                    ///< use_cpu: true, or distributed_type
  /// use_seedable_sampler, top level or under dataloader_config (Accelerate's default: false)
  std::optional<bool> use_seedable_sampler;
  std::vector<std::string> ignored;  ///< keys present that Parity does not use
};

/// Parses the file. Throws ConfigError("accelerate_config", path, why) when it cannot be read, is
/// not YAML, or a used key holds a value Parity cannot take (mixed_precision fp8, a process count
/// that is not a number ...), naming the key.
AccelerateConfig read_accelerate_config(const std::string& path);

/// The file's text (the entry point over bytes; read_accelerate_config reads the file and calls
/// it). `path` names the file in errors. Throws ConfigError as read_accelerate_config does.
AccelerateConfig parse_accelerate_config(std::string_view yaml_text, const std::string& path);

/// Sets the setup's fields from the file's (num_processes / num_machines ranks per machine is
/// checked by the launcher; the setup keeps the total).
void apply_accelerate_config(const AccelerateConfig& file, RunConfig& config);

}  // namespace parity::config
