#include <parity/config/accelerate_config.h>
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <set>
#include <sstream>

namespace parity::config {
namespace {

// Keys `accelerate config` writes that do not change the arithmetic Parity compares, or that it
// reads elsewhere; they are listed as ignored only when they would matter.
const std::set<std::string>& quiet_keys() {
  static const std::set<std::string> keys{
      "compute_environment", "debug",        "downcast_bf16",
      "enable_cpu_affinity", "gpu_ids",      "main_training_function",
      "rdzv_backend",        "same_network", "tpu_env",
      "tpu_use_cluster",     "tpu_use_sudo", "dynamo_config",
      "ipex_config",         "mpirun_config"};
  return keys;
}

template <class T>
T scalar(const YAML::Node& node, const std::string& key, const std::string& path,
         const char* want) {
  try {
    return node.as<T>();
  } catch (const YAML::Exception&) {
    throw ConfigError("accelerate_config", path,
                      key + " must be " + want + " (found " + YAML::Dump(node) + ")");
  }
}

}  // namespace

AccelerateConfig read_accelerate_config(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError("accelerate_config", path, "cannot be opened");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_accelerate_config(text.str(), path);
}

AccelerateConfig parse_accelerate_config(std::string_view yaml_text, const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::Exception& e) {
    throw ConfigError("accelerate_config", path, std::string("is not YAML: ") + e.what());
  }
  if (!root.IsMap()) {
    throw ConfigError("accelerate_config", path,
                      "must be a YAML mapping of keys, as `accelerate config` writes");
  }
  AccelerateConfig out;
  for (const auto& item : root) {
    // A key that is a list or a mapping ("[a]: 1", "{a: 1}: 2") is YAML but no key of this file.
    if (item.first.IsSequence() || item.first.IsMap()) {
      throw ConfigError("accelerate_config", path,
                        "has a key that is not a name (" + YAML::Dump(item.first) +
                            "); `accelerate config` writes names");
    }
    const std::string key = item.first.as<std::string>();
    const YAML::Node& v = item.second;
    if (v.IsNull()) continue;
    if (key == "num_processes") {
      out.num_processes = scalar<int>(v, key, path, "an integer");
    } else if (key == "num_machines") {
      out.num_machines = scalar<int>(v, key, path, "an integer");
    } else if (key == "machine_rank") {
      out.machine_rank = scalar<int>(v, key, path, "an integer");
    } else if (key == "main_process_ip") {
      out.main_process_ip = scalar<std::string>(v, key, path, "an address");
    } else if (key == "main_process_port") {
      out.main_process_port = scalar<int>(v, key, path, "an integer");
    } else if (key == "mixed_precision") {
      const std::string mp = scalar<std::string>(v, key, path, "no, fp16 or bf16");
      try {
        out.mixed_precision = parse_mixed_precision(mp);
      } catch (const ConfigError&) {
        throw ConfigError(
            "accelerate_config", path,
            "mixed_precision " + mp + " is not one Parity trains; use no, bf16 or fp16");
      }
    } else if (key == "gradient_accumulation_steps") {
      out.gradient_accumulation_steps = scalar<int>(v, key, path, "an integer");
    } else if (key == "deepspeed_config" && v.IsMap() && v["gradient_accumulation_steps"]) {
      out.gradient_accumulation_steps =
          scalar<int>(v["gradient_accumulation_steps"],
                      "deepspeed_config.gradient_accumulation_steps", path, "an integer");
    } else if (key == "use_seedable_sampler") {
      out.use_seedable_sampler = scalar<bool>(v, key, path, "true or false");
    } else if (key == "dataloader_config" && v.IsMap() && v["use_seedable_sampler"]) {
      out.use_seedable_sampler =
          scalar<bool>(v["use_seedable_sampler"], "dataloader_config.use_seedable_sampler", path,
                       "true or false");
    } else if (key == "use_cpu") {
      if (scalar<bool>(v, key, path, "true or false")) out.device = Device::kCpu;
    } else if (key == "distributed_type") {
      const std::string t = scalar<std::string>(v, key, path, "a name");
      if (t == "MULTI_GPU" && !out.device) out.device = Device::kCuda;
      if (t == "MULTI_CPU") out.device = Device::kCpu;
      if (t != "NO" && t != "MULTI_GPU" && t != "MULTI_CPU") {
        out.ignored.push_back(key + ": " + t + " (Parity trains plain data parallel)");
      }
    } else if (quiet_keys().count(key) == 0) {
      out.ignored.push_back(key);
    }
  }
  return out;
}

void apply_accelerate_config(const AccelerateConfig& file, RunConfig& config) {
  if (file.num_processes) config.num_processes = *file.num_processes;
  if (file.mixed_precision) config.mixed_precision = *file.mixed_precision;
  if (file.gradient_accumulation_steps) {
    config.gradient_accumulation_steps = *file.gradient_accumulation_steps;
  }
  if (file.device) config.device = *file.device;
  if (file.use_seedable_sampler) config.use_seedable_sampler = *file.use_seedable_sampler;
}

}  // namespace parity::config
