#include <parity/config/run_config.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

// RunConfig <-> JSON. One table of fields drives both directions, so a new field cannot be saved
// without being loadable.

namespace parity::config {
namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

std::string short_dump(const json& j) {
  std::string s = j.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

void read(const json& j, const std::string& key, bool& out) {
  if (!j.is_boolean()) throw ConfigError(key, short_dump(j), "must be true or false");
  out = j.get<bool>();
}
void read(const json& j, const std::string& key, int64_t& out) {
  if (j.is_number_integer()) {
    if (j.is_number_unsigned() &&
        j.get<uint64_t>() > uint64_t(std::numeric_limits<int64_t>::max())) {
      throw ConfigError(key, short_dump(j), "must fit in a 64-bit signed integer");
    }
    out = j.get<int64_t>();
    return;
  }
  if (j.is_number_float()) {
    double d = j.get<double>();
    if (std::trunc(d) == d && std::fabs(d) < 9.0e18) {
      out = static_cast<int64_t>(d);
      return;
    }
  }
  throw ConfigError(key, short_dump(j), "must be an integer");
}
void read(const json& j, const std::string& key, int& out) {
  int64_t v = 0;
  read(j, key, v);
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
    throw ConfigError(key, short_dump(j), "must fit in a 32-bit integer");
  }
  out = static_cast<int>(v);
}
void read(const json& j, const std::string& key, double& out) {
  if (!j.is_number()) throw ConfigError(key, short_dump(j), "must be a number");
  out = j.get<double>();
}
void read(const json& j, const std::string& key, std::string& out) {
  if (!j.is_string()) throw ConfigError(key, short_dump(j), "must be a string");
  out = j.get<std::string>();
}
void read(const json& j, const std::string& key, std::optional<int64_t>& out) {
  if (j.is_null()) {
    out.reset();
    return;
  }
  int64_t v = 0;
  read(j, key, v);
  out = v;
}
std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= s.size() && !s.empty()) {
    size_t end = s.find(',', start);
    if (end == std::string::npos) end = s.size();
    parts.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}
// Lists accept a JSON array or the CLI's comma-separated text ("256,128").
void read(const json& j, const std::string& key, std::vector<std::string>& out) {
  out.clear();
  if (j.is_string()) {
    out = split_commas(j.get<std::string>());
    return;
  }
  if (!j.is_array()) throw ConfigError(key, short_dump(j), "must be an array of strings");
  for (const json& e : j) {
    if (!e.is_string()) throw ConfigError(key, short_dump(j), "must be an array of strings");
    out.push_back(e.get<std::string>());
  }
}
void read(const json& j, const std::string& key, std::vector<int64_t>& out) {
  out.clear();
  const char* allowed = "must be an array of integers (or \"256,128\")";
  if (j.is_string()) {
    for (const std::string& part : split_commas(j.get<std::string>())) {
      char* end = nullptr;
      long long v = std::strtoll(part.c_str(), &end, 10);
      if (part.empty() || *end != '\0') throw ConfigError(key, short_dump(j), allowed);
      out.push_back(v);
    }
    return;
  }
  if (!j.is_array()) throw ConfigError(key, short_dump(j), allowed);
  for (const json& e : j) {
    if (!e.is_number_integer()) throw ConfigError(key, short_dump(j), allowed);
    out.push_back(e.get<int64_t>());
  }
}
void parse_into(const std::string& s, Device& v) { v = parse_device(s); }
void parse_into(const std::string& s, MixedPrecision& v) { v = parse_mixed_precision(s); }
void parse_into(const std::string& s, LrScaling& v) { v = parse_lr_scaling(s); }
void parse_into(const std::string& s, DatasetKind& v) { v = parse_dataset(s); }
void parse_into(const std::string& s, Task& v) { v = parse_task(s); }
void parse_into(const std::string& s, ModelKind& v) { v = parse_model(s); }
void parse_into(const std::string& s, Init& v) { v = parse_init(s); }
void parse_into(const std::string& s, OptimizerKind& v) { v = parse_optimizer(s); }
void parse_into(const std::string& s, SchedulerKind& v) { v = parse_scheduler(s); }
void parse_into(const std::string& s, LossKind& v) { v = parse_loss(s); }
void parse_into(const std::string& s, LossNormalization& v) { v = parse_loss_normalization(s); }

template <class E, class = std::enable_if_t<std::is_enum_v<E>>>
void read(const json& j, const std::string& key, E& out) {
  if (!j.is_string()) throw ConfigError(key, short_dump(j), "must be a string");
  parse_into(j.get<std::string>(), out);
}

template <class T>
ordered_json write(const T& v) {
  if constexpr (std::is_enum_v<T>) {
    return to_string(v);
  } else if constexpr (std::is_same_v<T, std::optional<int64_t>>) {
    return v ? ordered_json(*v) : ordered_json(nullptr);
  } else {
    return ordered_json(v);
  }
}

struct FieldIo {
  ConfigField info;
  std::function<ordered_json(const RunConfig&)> write;
  std::function<void(const json&, RunConfig&)> read;
};

template <class T>
FieldIo field(const char* name, T RunConfig::*member, FieldKind kind, const char* group,
              const char* help) {
  return {{name, help, group, kind},
          [member](const RunConfig& c) { return write(c.*member); },
          [member, name](const json& j, RunConfig& c) { read(j, name, c.*member); }};
}

constexpr const char* kSetup = "Setup";
constexpr const char* kExperiment = "Experiment";

// What differs between the setups of one experiment, in JSON order.
std::vector<FieldIo> setup_fields() {
  using K = FieldKind;
  return {
      field("label", &RunConfig::label, K::kText, kSetup, "label shown in tables and legends"),
      field("seed", &RunConfig::seed, K::kInt, kSetup,
            "random seed (model init, dropout; the data order too unless --data-seed)"),
      field("data_seed", &RunConfig::data_seed, K::kInt, kSetup,
            "seed of the data order (default: --seed)"),
      field("device_specific_seed", &RunConfig::device_specific_seed, K::kSwitch, kSetup,
            "add the rank to the model seed (never to the data order)"),
      field("device", &RunConfig::device, K::kName, kSetup, "cpu|cuda"),
      field("num_processes", &RunConfig::num_processes, K::kInt, kSetup,
            "number of rank processes (W)"),
      field("per_device_batch_size", &RunConfig::per_device_batch_size, K::kInt, kSetup,
            "batch per rank (the global batch with --split-batches)"),
      field("gradient_accumulation_steps", &RunConfig::gradient_accumulation_steps, K::kInt, kSetup,
            "micro-batches per optimizer step"),
      field("mixed_precision", &RunConfig::mixed_precision, K::kName, kSetup,
            "no|bf16|fp16 (fp16 needs cuda)"),
      field("lr_scaling", &RunConfig::lr_scaling, K::kName, kSetup,
            "none|linear|sqrt: lr x 1, W or sqrt(W)"),
      field("split_batches", &RunConfig::split_batches, K::kSwitch, kSetup,
            "the batch size is global and cut in W slices"),
      field("even_batches", &RunConfig::even_batches, K::kBool, kSetup,
            "true|false: complete the last batches by cycling (default true)"),
      field("drop_last", &RunConfig::drop_last, K::kSwitch, kSetup,
            "drop the incomplete last group of batches"),
      field("epochs", &RunConfig::epochs, K::kInt, kSetup, "epochs to train"),
      field("max_steps", &RunConfig::max_steps, K::kInt, kSetup,
            "stop after this many optimizer steps (0 = all epochs)"),
      field("use_seedable_sampler", &RunConfig::use_seedable_sampler, K::kBool, kSetup,
            "true|false: shuffle seeded with data_seed + epoch (true, default), or as Accelerate's "
            "default (false: one process draws from the global generator, several from an "
            "unseeded one)"),
      field("threads_per_rank", &RunConfig::threads_per_rank, K::kInt, kSetup,
            "intra-op threads per rank (0 = cores / local ranks); sets the summation order"),
      field("sync_batch_norm", &RunConfig::sync_batch_norm, K::kSwitch, kSetup,
            "batch norm statistics over every rank's batch (PyTorch's SyncBatchNorm)"),
  };
}

// What the setups share: data, model, optimizer, schedule.
std::vector<FieldIo> experiment_fields() {
  using K = FieldKind;
  return {
      field("dataset", &RunConfig::dataset, K::kName, kExperiment,
            "fashion-mnist|idx|csv|jsonl|synthetic-regression"),
      field("data_path", &RunConfig::data_path, K::kPath, kExperiment,
            "dataset folder (fashion-mnist, idx: MNIST's layout) or file (csv, jsonl)"),
      field("test_data", &RunConfig::test_data, K::kPath, kExperiment,
            "csv, jsonl: a test file in the same format (default: no evaluation)"),
      field("validation_split", &RunConfig::validation_split, K::kNumber, kExperiment,
            "evaluate on the last fraction F of --data instead (0 = off)"),
      field("pad_id", &RunConfig::pad_id, K::kInt, kExperiment,
            "jsonl: input id that pads a batch to its longest sequence"),
      field("features", &RunConfig::features, K::kColumns, kExperiment,
            "csv feature columns COL,COL (default: all but the target)"),
      field("target", &RunConfig::target, K::kColumn, kExperiment, "csv target column"),
      field("task", &RunConfig::task, K::kName, kExperiment, "regression|classification"),
      field("train_samples", &RunConfig::train_samples, K::kInt, kExperiment,
            "use only the first N training samples (0 = all)"),
      field("synthetic_samples", &RunConfig::synthetic_samples, K::kInt, kExperiment,
            "synthetic-regression: number of samples"),
      field("synthetic_noise", &RunConfig::synthetic_noise, K::kNumber, kExperiment,
            "synthetic-regression: stddev of the noise"),
      field("model", &RunConfig::model, K::kName, kExperiment, "linear|mlp|cnn|bigram|torchscript"),
      field("model_file", &RunConfig::model_file, K::kPath, kExperiment,
            "torchscript: a torch.jit.script/trace module file (.pt)"),
      field("init", &RunConfig::init, K::kName, kExperiment, "default|zeros"),
      field("hidden", &RunConfig::hidden, K::kIntList, kExperiment,
            "MLP hidden widths, e.g. 256,128"),
      field("dropout", &RunConfig::dropout, K::kNumber, kExperiment,
            "mlp, cnn: dropout probability after each hidden layer"),
      field("batch_norm", &RunConfig::batch_norm, K::kSwitch, kExperiment,
            "mlp, cnn: batch norm in each hidden layer"),
      field("embedding_dim", &RunConfig::embedding_dim, K::kInt, kExperiment,
            "bigram: width of a hidden embedding (0 = logits from the table)"),
      field("optimizer", &RunConfig::optimizer, K::kName, kExperiment, "sgd|adamw"),
      field("lr", &RunConfig::lr, K::kNumber, kExperiment,
            "base learning rate (before --lr-scaling)"),
      field("momentum", &RunConfig::momentum, K::kNumber, kExperiment, "SGD momentum"),
      field("weight_decay", &RunConfig::weight_decay, K::kNumber, kExperiment, "weight decay"),
      field("scheduler", &RunConfig::scheduler, K::kName, kExperiment,
            "constant|linear|cosine|step|onecycle (as transformers and torch)"),
      field("warmup_steps", &RunConfig::warmup_steps, K::kInt, kExperiment,
            "warm-up from 0, in scheduler steps (constant, linear, cosine)"),
      field("num_training_steps", &RunConfig::num_training_steps, K::kInt, kExperiment,
            "schedule length in scheduler steps (0 = loader batches x epochs // accumulation)"),
      field("pct_start", &RunConfig::pct_start, K::kNumber, kExperiment,
            "onecycle: fraction of the schedule spent rising"),
      field("div_factor", &RunConfig::div_factor, K::kNumber, kExperiment,
            "onecycle: initial lr = lr / div_factor"),
      field("final_div_factor", &RunConfig::final_div_factor, K::kNumber, kExperiment,
            "onecycle: final lr = initial lr / final_div_factor"),
      field("cycle_momentum", &RunConfig::cycle_momentum, K::kBool, kExperiment,
            "true|false: onecycle cycles momentum 0.95-0.85 (torch's default, true)"),
      field("scheduler_step_size", &RunConfig::scheduler_step_size, K::kInt, kExperiment,
            "step scheduler: decay every N scheduler steps"),
      field("scheduler_gamma", &RunConfig::scheduler_gamma, K::kNumber, kExperiment,
            "step scheduler: decay factor"),
      field("loss", &RunConfig::loss, K::kName, kExperiment,
            "auto|mse|cross-entropy (auto: from the task)"),
      field("loss_normalization", &RunConfig::loss_normalization, K::kName, kExperiment,
            "per-batch|global: each micro-batch's mean / k, or sum over all items / their count"),
      field("eval_every_epoch", &RunConfig::eval_every_epoch, K::kBool, kExperiment,
            "true|false: evaluate on the test set after each epoch"),
  };
}

// Your command: the user's own training program instead of the engine.
std::vector<FieldIo> command_fields() {
  using K = FieldKind;
  return {
      field("command", &RunConfig::command, K::kText, kExperiment,
            "your own training command, e.g. 'python train.py --bs {per_device_batch_size}' "
            "(its PARITY lines are the losses; empty = Parity's engine)"),
      field("workdir", &RunConfig::workdir, K::kPath, kExperiment,
            "your command: the folder it runs in (default: the current one)"),
      field("command_env", &RunConfig::command_env, K::kColumns, kExperiment,
            "your command: NAME=VALUE,NAME=VALUE set in its environment"),
      field("capture", &RunConfig::capture, K::kText, kExperiment,
            "your command: auto|stdout|trainer-state|tensorboard, where its losses come from "
            "(auto: PARITY lines, else the files it writes under {run_dir})"),
  };
}

// The one list of RunConfig's fields: JSON both ways, the command line's flags and their help.
const std::vector<FieldIo>& fields() {
  static const std::vector<FieldIo> kFields = [] {
    std::vector<FieldIo> all = setup_fields();
    for (auto part : {experiment_fields(), command_fields()})
      all.insert(all.end(), part.begin(), part.end());
    return all;
  }();
  return kFields;
}

bool parse_bool_text(const std::string& field, const std::string& text) {
  std::string s;
  for (char c : text) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "true" || s == "1" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "0" || s == "no" || s == "off") return false;
  throw ConfigError(field, text, "must be true or false");
}

// Command-line text as the JSON value the field's reader takes, so both read the same way.
json json_from_text(const ConfigField& f, const std::string& text) {
  const std::string name(f.name);
  switch (f.kind) {
    case FieldKind::kInt: {
      errno = 0;
      char* end = nullptr;
      const long long v = std::strtoll(text.c_str(), &end, 10);
      if (text.empty() || errno != 0 || *end != '\0') {
        throw ConfigError(name, text, "must be an integer");
      }
      return json(static_cast<int64_t>(v));
    }
    case FieldKind::kNumber: {
      errno = 0;
      char* end = nullptr;
      const double v = std::strtod(text.c_str(), &end);
      if (text.empty() || errno != 0 || *end != '\0') {
        throw ConfigError(name, text, "must be a number");
      }
      return json(v);
    }
    case FieldKind::kBool:
    case FieldKind::kSwitch:
      return json(parse_bool_text(name, text));
    default:
      return json(text);  // names, paths, text; lists as "256,128"
  }
}

// "per-device-batch-size" -> "per_device_batch_size"; "data" (the CLI flag) -> "data_path".
std::string canonical_key(std::string key) {
  std::replace(key.begin(), key.end(), '-', '_');
  return key == "data" ? "data_path" : key;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1] ? 1 : 0)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// "unknown key", plus the one known key it is most likely a typo of, if any.
std::string unknown_key(const std::string& canonical) {
  std::string best;
  size_t best_distance = 3;  // only near misses: a suggestion must not be a guess
  for (const FieldIo& f : fields()) {
    const size_t d = edit_distance(canonical, std::string(f.info.name));
    if (d < best_distance) best_distance = d, best = f.info.name;
  }
  return best.empty() ? "unknown key" : "unknown key (did you mean " + best + "?)";
}

const FieldIo* find_field(const std::string& canonical) {
  for (const FieldIo& f : fields()) {
    if (canonical == f.info.name) return &f;
  }
  return nullptr;
}

json parse_text(const std::string& text, const char* what) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    // parse_error, and out_of_range for a number past double's range ("2e561"), which ended
    // parity-cli with std::terminate (found by tests/fuzz/run_config_fuzz).
    throw ConfigError(what, "text", std::string("must be valid JSON (") + e.what() + ")");
  }
}

RunConfig config_from_object(const json& j) {
  if (!j.is_object()) throw ConfigError("config", short_dump(j), "must be a JSON object");
  RunConfig c;
  for (const auto& [key, value] : j.items()) {
    const FieldIo* f = find_field(canonical_key(key));
    if (!f) throw ConfigError(key, short_dump(value), unknown_key(canonical_key(key)));
    f->read(value, c);
  }
  return c;
}

// Canonical keys, so an experiment's "per-device-batch-size" is overridden by a setup's
// "per_device_batch_size".
json canonical_object(const json& j, const std::string& where) {
  if (!j.is_object()) throw ConfigError(where, short_dump(j), "must be a JSON object");
  json out = json::object();
  for (const auto& [key, value] : j.items()) out[canonical_key(key)] = value;
  return out;
}

}  // namespace

std::string to_json(const RunConfig& config, int indent) {
  ordered_json j = ordered_json::object();
  for (const FieldIo& f : fields()) {
    // The command's fields are written only for a command setup: an engine config's JSON stays
    // as it was before they existed.
    const std::string name(f.info.name);
    if (config.command.empty() &&
        (name == "command" || name == "workdir" || name == "command_env" || name == "capture") &&
        config.workdir.empty() && config.command_env.empty() && config.capture == "auto")
      continue;
    j[name] = f.write(config);
  }
  return j.dump(indent);
}

const std::vector<ConfigField>& config_fields() {
  static const std::vector<ConfigField> kInfos = [] {
    std::vector<ConfigField> infos;
    for (const FieldIo& f : fields()) infos.push_back(f.info);
    return infos;
  }();
  return kInfos;
}

void set_field_from_text(RunConfig& config, const std::string& name, const std::string& text) {
  const FieldIo* f = find_field(canonical_key(name));
  if (!f) throw ConfigError(name, text, unknown_key(canonical_key(name)));
  f->read(json_from_text(f->info, text), config);
}

std::string field_text(const RunConfig& config, const std::string& name) {
  const FieldIo* f = find_field(canonical_key(name));
  if (!f) throw ConfigError(name, "", unknown_key(canonical_key(name)));
  const ordered_json v = f->write(config);
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (!v.is_array()) return v.dump();
  std::string text;
  for (const auto& item : v) {
    text += (text.empty() ? "" : ",") + (item.is_string() ? item.get<std::string>() : item.dump());
  }
  return text;
}

RunConfig from_json(const std::string& text) {
  return config_from_object(parse_text(text, "config"));
}

std::vector<RunConfig> configs_from_set_json(const std::string& text) {
  json root = parse_text(text, "set");
  json experiment = json::object();
  json setups;
  if (root.is_array()) {
    setups = root;
  } else if (root.is_object()) {
    for (const auto& [key, value] : root.items()) {
      if (key == "experiment") {
        experiment = canonical_object(value, "experiment");
      } else if (key == "setups") {
        setups = value;
      } else if (key != "name" && key != "description") {
        throw ConfigError(key, short_dump(value), "unknown key (a set has experiment, setups)");
      }
    }
    if (!setups.is_array()) {
      throw ConfigError("setups", short_dump(setups), "must be an array of setup objects");
    }
  } else {
    throw ConfigError("set", short_dump(root), "must be an object or an array of configs");
  }
  std::vector<RunConfig> configs;
  for (size_t i = 0; i < setups.size(); ++i) {
    const std::string where = "setups[" + std::to_string(i) + "]";
    json merged = experiment;
    const json setup = canonical_object(setups[i], where);
    for (const auto& [key, value] : setup.items()) merged[key] = value;
    try {
      configs.push_back(config_from_object(merged));
    } catch (const ConfigError& e) {
      throw ConfigError(where + "." + e.field(), e.value(), e.allowed());
    }
  }
  return configs;
}

}  // namespace parity::config
