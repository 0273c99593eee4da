#include <parity/engine/run_config.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <utility>

namespace parity::engine {
namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

constexpr int kMaxProcesses = 256;

// Enum spellings, in one table per enum so to_string and parse cannot drift apart.
template <class E>
struct EnumInfo;
#define PARITY_ENUM_INFO(E, FIELD, ...)                                 \
  template <>                                                           \
  struct EnumInfo<E> {                                                  \
    static constexpr const char* kField = FIELD;                        \
    static constexpr std::pair<E, const char*> kValues[] = __VA_ARGS__; \
  };
PARITY_ENUM_INFO(Device, "device", {{Device::kCpu, "cpu"}, {Device::kCuda, "cuda"}})
PARITY_ENUM_INFO(MixedPrecision, "mixed_precision",
                 {{MixedPrecision::kNo, "no"},
                  {MixedPrecision::kBf16, "bf16"},
                  {MixedPrecision::kFp16, "fp16"}})
PARITY_ENUM_INFO(LrScaling, "lr_scaling",
                 {{LrScaling::kNone, "none"},
                  {LrScaling::kLinear, "linear"},
                  {LrScaling::kSqrt, "sqrt"}})
PARITY_ENUM_INFO(DatasetKind, "dataset",
                 {{DatasetKind::kFashionMnist, "fashion-mnist"},
                  {DatasetKind::kCsv, "csv"},
                  {DatasetKind::kSyntheticRegression, "synthetic-regression"}})
PARITY_ENUM_INFO(Task, "task",
                 {{Task::kRegression, "regression"}, {Task::kClassification, "classification"}})
PARITY_ENUM_INFO(ModelKind, "model",
                 {{ModelKind::kLinear, "linear"},
                  {ModelKind::kMlp, "mlp"},
                  {ModelKind::kCnn, "cnn"}})
PARITY_ENUM_INFO(Init, "init", {{Init::kDefault, "default"}, {Init::kZeros, "zeros"}})
PARITY_ENUM_INFO(OptimizerKind, "optimizer",
                 {{OptimizerKind::kSgd, "sgd"}, {OptimizerKind::kAdamW, "adamw"}})
PARITY_ENUM_INFO(SchedulerKind, "scheduler",
                 {{SchedulerKind::kConstant, "constant"},
                  {SchedulerKind::kLinear, "linear"},
                  {SchedulerKind::kCosine, "cosine"},
                  {SchedulerKind::kStep, "step"}})
PARITY_ENUM_INFO(LossKind, "loss",
                 {{LossKind::kAuto, "auto"},
                  {LossKind::kMse, "mse"},
                  {LossKind::kCrossEntropy, "cross-entropy"}})
#undef PARITY_ENUM_INFO

template <class E>
std::string enum_name(E v) {
  for (const auto& [value, name] : EnumInfo<E>::kValues) {
    if (value == v) return name;
  }
  return "?";
}

template <class E>
E parse_enum(const std::string& text) {
  // "fashion_mnist" and "Cross-Entropy" are the same spelling to a user.
  std::string s = text;
  for (char& c : s)
    c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string allowed = "must be one of ";
  for (const auto& [value, name] : EnumInfo<E>::kValues) {
    if (s == name) return value;
    allowed += std::string(allowed.back() == ' ' ? "" : ", ") + name;
  }
  throw ConfigError(EnumInfo<E>::kField, text.empty() ? "\"\"" : text, allowed);
}

// Shortest decimal that reads back as the same double.
std::string fmt(double v) {
  char buf[32];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}
std::string fmt(int64_t v) { return std::to_string(v); }

// One problem, kept in parts so validate() can throw the same ConfigError that check() describes.
struct Problem {
  std::string field, value, allowed, condition;
  ConfigError error() const { return ConfigError(field, value, allowed, condition); }
};

std::vector<Problem> problems(const RunConfig& c) {
  std::vector<Problem> out;
  auto add = [&](std::string field, std::string value, std::string allowed, std::string cond = {}) {
    out.push_back({std::move(field), std::move(value), std::move(allowed), std::move(cond)});
  };
  auto at_least = [&](const char* field, int64_t v, int64_t min) {
    if (v < min) add(field, fmt(v), "must be at least " + fmt(min));
  };

  if (c.num_processes < 1) {
    at_least("num_processes", c.num_processes, 1);
  } else if (c.num_processes > kMaxProcesses) {
    add("num_processes", fmt(int64_t{c.num_processes}),
        "must be at most " + fmt(int64_t{kMaxProcesses}));
  }
  at_least("per_device_batch_size", c.per_device_batch_size, 1);
  if (c.split_batches && c.num_processes >= 1 && c.per_device_batch_size >= 1 &&
      c.per_device_batch_size % c.num_processes != 0) {
    add("per_device_batch_size", fmt(c.per_device_batch_size),
        "with split_batches it is the global batch and must divide by num_processes (" +
            fmt(c.per_device_batch_size) + " does not divide by " + fmt(int64_t{c.num_processes}) +
            ")");
  }
  at_least("gradient_accumulation_steps", c.gradient_accumulation_steps, 1);
  at_least("epochs", c.epochs, 1);
  at_least("max_steps", c.max_steps, 0);
  if (!(std::isfinite(c.lr) && c.lr > 0)) add("lr", fmt(c.lr), "must be a finite number > 0");
  if (!(c.momentum >= 0 && c.momentum < 1)) add("momentum", fmt(c.momentum), "must be in [0, 1)");
  if (!(std::isfinite(c.weight_decay) && c.weight_decay >= 0)) {
    add("weight_decay", fmt(c.weight_decay), "must be a finite number >= 0");
  }
  at_least("warmup_steps", c.warmup_steps, 0);
  at_least("scheduler_step_size", c.scheduler_step_size, 1);
  if (!(c.scheduler_gamma > 0 && c.scheduler_gamma <= 1)) {
    add("scheduler_gamma", fmt(c.scheduler_gamma), "must be in (0, 1]");
  }
  std::string widths;
  bool bad_width = false;
  for (int64_t w : c.hidden) {
    widths += (widths.empty() ? "" : ",") + fmt(w);
    bad_width = bad_width || w < 1;
  }
  if (bad_width) {
    add("hidden", widths, "every width must be at least 1");
  } else if (c.model == ModelKind::kMlp && c.hidden.empty()) {
    add("hidden", "\"\"", "the mlp needs at least one hidden width (e.g. 256,128)");
  }
  at_least("train_samples", c.train_samples, 0);
  at_least("synthetic_samples", c.synthetic_samples, 1);
  if (!(std::isfinite(c.synthetic_noise) && c.synthetic_noise >= 0)) {
    add("synthetic_noise", fmt(c.synthetic_noise), "must be a finite number >= 0");
  }
  if (c.device == Device::kCuda && !cuda_build()) {
    add("device", "cuda", "this build of Parity has no CUDA (LibTorch CPU); use cpu");
  }
  if (c.mixed_precision == MixedPrecision::kFp16 && c.device != Device::kCuda) {
    add("mixed_precision", "fp16", "fp16 needs CUDA and a gradient scaler; use bf16 or no",
        "on " + to_string(c.device));
  }
  if (c.dataset == DatasetKind::kCsv) {
    if (c.data_path.empty()) add("data_path", "\"\"", "the csv dataset needs a file (--data PATH)");
    if (c.target.empty())
      add("target", "\"\"", "the csv dataset needs a target column (--target COL)");
  }
  if (c.loss == LossKind::kCrossEntropy && c.task != Task::kClassification) {
    add("loss", "cross-entropy", "cross-entropy needs task classification; use mse or auto",
        "with task " + to_string(c.task));
  }
  if (c.model == ModelKind::kCnn && c.dataset != DatasetKind::kFashionMnist) {
    add("model", "cnn", "the cnn needs image input (dataset fashion-mnist)",
        "with dataset " + to_string(c.dataset));
  }
  if (c.dataset == DatasetKind::kSyntheticRegression && c.task != Task::kRegression) {
    add("task", to_string(c.task), "synthetic-regression is a regression task; use regression",
        "with dataset synthetic-regression");
  }
  if (c.dataset == DatasetKind::kFashionMnist && c.task != Task::kClassification) {
    add("task", to_string(c.task), "fashion-mnist is a classification task; use classification",
        "with dataset fashion-mnist");
  }
  return out;
}

// ---- JSON ----

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
template <class E, class = std::enable_if_t<std::is_enum_v<E>>>
void read(const json& j, const std::string& key, E& out) {
  if (!j.is_string()) throw ConfigError(key, short_dump(j), "must be a string");
  out = parse_enum<E>(j.get<std::string>());
}

template <class T>
ordered_json write(const T& v) {
  if constexpr (std::is_enum_v<T>) {
    return enum_name(v);
  } else if constexpr (std::is_same_v<T, std::optional<int64_t>>) {
    return v ? ordered_json(*v) : ordered_json(nullptr);
  } else {
    return ordered_json(v);
  }
}

struct FieldIo {
  const char* name;
  std::function<ordered_json(const RunConfig&)> write;
  std::function<void(const json&, RunConfig&)> read;
};

template <class T>
FieldIo field(const char* name, T RunConfig::*member) {
  return {name, [member](const RunConfig& c) { return write(c.*member); },
          [member, name](const json& j, RunConfig& c) { read(j, name, c.*member); }};
}

const std::vector<FieldIo>& fields() {
  static const std::vector<FieldIo> kFields = {
      field("label", &RunConfig::label),
      field("seed", &RunConfig::seed),
      field("data_seed", &RunConfig::data_seed),
      field("device_specific_seed", &RunConfig::device_specific_seed),
      field("device", &RunConfig::device),
      field("num_processes", &RunConfig::num_processes),
      field("per_device_batch_size", &RunConfig::per_device_batch_size),
      field("gradient_accumulation_steps", &RunConfig::gradient_accumulation_steps),
      field("mixed_precision", &RunConfig::mixed_precision),
      field("lr_scaling", &RunConfig::lr_scaling),
      field("split_batches", &RunConfig::split_batches),
      field("even_batches", &RunConfig::even_batches),
      field("drop_last", &RunConfig::drop_last),
      field("epochs", &RunConfig::epochs),
      field("max_steps", &RunConfig::max_steps),
      field("dataset", &RunConfig::dataset),
      field("data_path", &RunConfig::data_path),
      field("features", &RunConfig::features),
      field("target", &RunConfig::target),
      field("task", &RunConfig::task),
      field("train_samples", &RunConfig::train_samples),
      field("synthetic_samples", &RunConfig::synthetic_samples),
      field("synthetic_noise", &RunConfig::synthetic_noise),
      field("model", &RunConfig::model),
      field("init", &RunConfig::init),
      field("hidden", &RunConfig::hidden),
      field("optimizer", &RunConfig::optimizer),
      field("lr", &RunConfig::lr),
      field("momentum", &RunConfig::momentum),
      field("weight_decay", &RunConfig::weight_decay),
      field("scheduler", &RunConfig::scheduler),
      field("warmup_steps", &RunConfig::warmup_steps),
      field("scheduler_step_size", &RunConfig::scheduler_step_size),
      field("scheduler_gamma", &RunConfig::scheduler_gamma),
      field("loss", &RunConfig::loss),
      field("eval_every_epoch", &RunConfig::eval_every_epoch),
  };
  return kFields;
}

// "per-device-batch-size" -> "per_device_batch_size"; "data" (the CLI flag) -> "data_path".
std::string canonical_key(std::string key) {
  std::replace(key.begin(), key.end(), '-', '_');
  return key == "data" ? "data_path" : key;
}

const FieldIo* find_field(const std::string& canonical) {
  for (const FieldIo& f : fields()) {
    if (canonical == f.name) return &f;
  }
  return nullptr;
}

json parse_text(const std::string& text, const char* what) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    throw ConfigError(what, "text", std::string("must be valid JSON (") + e.what() + ")");
  }
}

RunConfig config_from_object(const json& j) {
  if (!j.is_object()) throw ConfigError("config", short_dump(j), "must be a JSON object");
  RunConfig c;
  for (const auto& [key, value] : j.items()) {
    const FieldIo* f = find_field(canonical_key(key));
    if (!f) throw ConfigError(key, short_dump(value), "unknown key");
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

ConfigError::ConfigError(std::string field, std::string value, std::string allowed)
    : ConfigError(std::move(field), std::move(value), std::move(allowed), {}) {}

ConfigError::ConfigError(std::string field, std::string value, std::string allowed,
                         std::string condition)
    : std::runtime_error(field + ": " + value + " is not allowed" +
                         (condition.empty() ? "" : " " + condition) + "; " + allowed),
      field_(std::move(field)),
      value_(std::move(value)),
      allowed_(std::move(allowed)) {}

LossKind RunConfig::effective_loss() const {
  if (loss != LossKind::kAuto) return loss;
  return task == Task::kClassification ? LossKind::kCrossEntropy : LossKind::kMse;
}

std::vector<ConfigIssue> check(const RunConfig& config) {
  std::vector<ConfigIssue> issues;
  for (const Problem& p : problems(config)) issues.push_back({p.field, p.error().what()});
  return issues;
}

void validate(const RunConfig& config) {
  std::vector<Problem> found = problems(config);
  if (!found.empty()) throw found.front().error();
}

std::string to_json(const RunConfig& config, int indent) {
  ordered_json j = ordered_json::object();
  for (const FieldIo& f : fields()) j[f.name] = f.write(config);
  return j.dump(indent);
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

std::string to_string(Device v) { return enum_name(v); }
std::string to_string(MixedPrecision v) { return enum_name(v); }
std::string to_string(LrScaling v) { return enum_name(v); }
std::string to_string(DatasetKind v) { return enum_name(v); }
std::string to_string(Task v) { return enum_name(v); }
std::string to_string(ModelKind v) { return enum_name(v); }
std::string to_string(Init v) { return enum_name(v); }
std::string to_string(OptimizerKind v) { return enum_name(v); }
std::string to_string(SchedulerKind v) { return enum_name(v); }
std::string to_string(LossKind v) { return enum_name(v); }

Device parse_device(const std::string& s) { return parse_enum<Device>(s); }
MixedPrecision parse_mixed_precision(const std::string& s) { return parse_enum<MixedPrecision>(s); }
LrScaling parse_lr_scaling(const std::string& s) { return parse_enum<LrScaling>(s); }
DatasetKind parse_dataset(const std::string& s) { return parse_enum<DatasetKind>(s); }
Task parse_task(const std::string& s) { return parse_enum<Task>(s); }
ModelKind parse_model(const std::string& s) { return parse_enum<ModelKind>(s); }
Init parse_init(const std::string& s) { return parse_enum<Init>(s); }
OptimizerKind parse_optimizer(const std::string& s) { return parse_enum<OptimizerKind>(s); }
SchedulerKind parse_scheduler(const std::string& s) { return parse_enum<SchedulerKind>(s); }
LossKind parse_loss(const std::string& s) { return parse_enum<LossKind>(s); }

bool cuda_build() {
#ifdef PARITY_WITH_CUDA
  return true;
#else
  return false;
#endif
}

}  // namespace parity::engine
