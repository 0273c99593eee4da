#include <parity/config/batch_plan.h>
#include <parity/config/data_format.h>
#include <parity/config/run_config.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <utility>

namespace parity::config {
namespace {

constexpr int kMaxProcesses = 256;

// Enum spellings, in one table per enum so to_string and parse cannot drift apart.
template <class E>
struct EnumInfo;
#define PARITY_ENUM_INFO(E, FIELD, ...)                                 \
  template <>                                                           \
  struct EnumInfo<E> {                                                  \
    static constexpr const char* kField = FIELD;                        \
    static constexpr std::pair<E, const char*> kValues[] = __VA_ARGS__; \
    static const auto& values() { return kValues; }                     \
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
// The datasets' names are data_formats()'s (data_format.cpp): each dataset is said there once.
template <>
struct EnumInfo<DatasetKind> {
  static constexpr const char* kField = "dataset";
  static const std::vector<std::pair<DatasetKind, const char*>>& values() {
    static const auto names = [] {
      std::vector<std::pair<DatasetKind, const char*>> out;
      for (const DataFormat& f : data_formats()) out.emplace_back(f.kind, f.name);
      return out;
    }();
    return names;
  }
};
PARITY_ENUM_INFO(Task, "task",
                 {{Task::kRegression, "regression"}, {Task::kClassification, "classification"}})
PARITY_ENUM_INFO(ModelKind, "model",
                 {{ModelKind::kLinear, "linear"},
                  {ModelKind::kMlp, "mlp"},
                  {ModelKind::kCnn, "cnn"},
                  {ModelKind::kBigram, "bigram"},
                  {ModelKind::kTorchScript, "torchscript"}})
PARITY_ENUM_INFO(Init, "init", {{Init::kDefault, "default"}, {Init::kZeros, "zeros"}})
PARITY_ENUM_INFO(OptimizerKind, "optimizer",
                 {{OptimizerKind::kSgd, "sgd"}, {OptimizerKind::kAdamW, "adamw"}})
PARITY_ENUM_INFO(SchedulerKind, "scheduler",
                 {{SchedulerKind::kConstant, "constant"},
                  {SchedulerKind::kLinear, "linear"},
                  {SchedulerKind::kCosine, "cosine"},
                  {SchedulerKind::kStep, "step"},
                  {SchedulerKind::kOneCycle, "onecycle"}})
PARITY_ENUM_INFO(LossKind, "loss",
                 {{LossKind::kAuto, "auto"},
                  {LossKind::kMse, "mse"},
                  {LossKind::kCrossEntropy, "cross-entropy"}})
PARITY_ENUM_INFO(LossNormalization, "loss_normalization",
                 {{LossNormalization::kPerBatch, "per-batch"},
                  {LossNormalization::kGlobal, "global"}})
#undef PARITY_ENUM_INFO

template <class E>
std::string enum_name(E v) {
  for (const auto& [value, name] : EnumInfo<E>::values()) {
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
  for (const auto& [value, name] : EnumInfo<E>::values()) {
    if (s == name) return value;
    allowed += std::string(allowed.back() == ' ' ? "" : ", ") + name;
  }
  throw ConfigError(EnumInfo<E>::kField, text.empty() ? "\"\"" : text, allowed);
}

// Shortest text that reads back as the same double; to_chars ignores the process locale (a Qt
// GUI adopts LC_NUMERIC from the environment, and messages must not say "0,5").
std::string fmt(double v) {
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, result.ptr);
}
std::string fmt(int64_t v) { return std::to_string(v); }

// One problem, kept in parts so validate() can throw the same ConfigError that check() describes.
struct Problem {
  std::string field, value, allowed, condition;
  ConfigError error() const { return ConfigError(field, value, allowed, condition); }
};

using AddProblem = std::function<void(std::string, std::string, std::string, std::string)>;

bool in_unit_interval(double v) { return v >= 0 && v < 1; }  // [0, 1)

void data_problems(const RunConfig& c, const AddProblem& add) {
  const std::string on = "with dataset " + to_string(c.dataset);
  const DataFormat& format = data_format(c.dataset);
  const bool path_given =
      format.location == DataLocation::kFile || format.location == DataLocation::kFolder;
  if (path_given && c.data_path.empty()) {
    add("data_path", "\"\"",
        "the " + to_string(c.dataset) + " dataset needs " + format.needs + " (--data " +
            (format.location == DataLocation::kFile ? "FILE" : "DIR") + ")",
        "");
  }
  if (format.columns && c.target.empty()) {
    add("target", "\"\"",
        "the " + to_string(c.dataset) + " dataset needs a target column (--target COL)", "");
  }
  if (!c.test_data.empty() && !format.test_file) {
    add("test_data", c.test_data,
        "a test file is for " + data_format_names(&DataFormat::test_file) +
            " data (fashion-mnist and idx use their t10k files)",
        on);
  }
  if (!(in_unit_interval(c.validation_split))) {
    add("validation_split", fmt(c.validation_split), "must be in [0, 1) (e.g. 0.2: the last 20 %)",
        "");
  } else if (c.validation_split > 0 && !c.test_data.empty()) {
    add("validation_split", fmt(c.validation_split),
        "give either a test file or a validation split, not both", "with --test-data");
  }
  if (c.pad_id < 0) add("pad_id", fmt(c.pad_id), "must be at least 0", "");
  if (format.task && c.task != *format.task) {
    add("task", to_string(c.task),
        to_string(c.dataset) + " is a " + to_string(*format.task) + " task; use " +
            to_string(*format.task),
        on);
  }
  if (c.loss == LossKind::kCrossEntropy && c.task != Task::kClassification) {
    add("loss", "cross-entropy", "cross-entropy needs task classification; use mse or auto",
        "with task " + to_string(c.task));
  }
  if (c.token_data() && c.loss == LossKind::kMse) {
    add("loss", "mse", "token data trains with cross-entropy over its labels; use auto", on);
  }
}

void model_problems(const RunConfig& c, const AddProblem& add) {
  const std::string on = "with dataset " + to_string(c.dataset);
  if (c.model == ModelKind::kCnn && !data_format(c.dataset).images) {
    add("model", "cnn",
        "the cnn needs image input (dataset " + data_format_names(&DataFormat::images) + ")", on);
  }
  if (c.model == ModelKind::kBigram && !c.token_data()) {
    add("model", "bigram",
        "the bigram model needs token data (dataset " + data_format_names(&DataFormat::tokens) +
            ")",
        on);
  }
  if (c.token_data() && c.model != ModelKind::kBigram && c.model != ModelKind::kTorchScript) {
    add("model", to_string(c.model), "token data trains bigram or a torchscript module", on);
  }
  if (c.model == ModelKind::kTorchScript && c.model_file.empty()) {
    add("model_file", "\"\"", "the torchscript model needs a file (--model-file FILE.pt)", "");
  }
  if (!c.model_file.empty() && c.model != ModelKind::kTorchScript) {
    add("model_file", c.model_file, "a model file is for --model torchscript",
        "with model " + to_string(c.model));
  }
  const bool layered = c.model == ModelKind::kMlp || c.model == ModelKind::kCnn;
  if (!in_unit_interval(c.dropout)) {
    add("dropout", fmt(c.dropout), "must be in [0, 1)", "");
  } else if (c.dropout > 0 && !layered) {
    add("dropout", fmt(c.dropout), "dropout is an option of the mlp and cnn models",
        "with model " + to_string(c.model));
  }
  if (c.batch_norm && !layered) {
    add("batch_norm", "true", "batch norm is an option of the mlp and cnn models",
        "with model " + to_string(c.model));
  }
  if (c.sync_batch_norm && !c.batch_norm) {
    add("sync_batch_norm", "true",
        "it converts the batch norm of the built-in mlp and cnn (--batch-norm); a TorchScript "
        "model's BatchNorm modules are not converted",
        c.model == ModelKind::kTorchScript ? "with a TorchScript model" : "without batch norm");
  }
  if (c.sync_batch_norm && !c.even_batches) {
    add("sync_batch_norm", "true",
        "every rank must take every step (its statistics are a collective): use even_batches "
        "true",
        "with even_batches false");
  }
  if (c.embedding_dim < 0) add("embedding_dim", fmt(c.embedding_dim), "must be at least 0", "");
}

template <class AtLeast>
void schedule_problems(const RunConfig& c, const AddProblem& add, const AtLeast& at_least) {
  at_least("num_training_steps", c.num_training_steps, 0);
  const bool warms_up = c.scheduler == SchedulerKind::kConstant ||
                        c.scheduler == SchedulerKind::kLinear ||
                        c.scheduler == SchedulerKind::kCosine;
  if (c.warmup_steps > 0 && !warms_up) {
    add("warmup_steps", fmt(c.warmup_steps),
        "warm-up is for constant, linear and cosine (onecycle rises over pct_start; step has none)",
        "with scheduler " + to_string(c.scheduler));
  }
  if (!(c.pct_start > 0 && c.pct_start < 1)) {
    add("pct_start", fmt(c.pct_start), "must be in (0, 1)", "");
  }
  if (!(std::isfinite(c.div_factor) && c.div_factor > 0)) {
    add("div_factor", fmt(c.div_factor), "must be a finite number > 0", "");
  }
  if (!(std::isfinite(c.final_div_factor) && c.final_div_factor > 0)) {
    add("final_div_factor", fmt(c.final_div_factor), "must be a finite number > 0", "");
  }
}

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
  at_least("threads_per_rank", c.threads_per_rank, 0);
  if (!(std::isfinite(c.lr) && c.lr > 0)) {
    add("lr", fmt(c.lr), "must be a finite number > 0");
  } else if (!(effective_lr(c) <= std::numeric_limits<float>::max())) {
    // The optimizer's lr is a float32: past its range torch refuses it in words naming no flag.
    add("lr", fmt(c.lr),
        "must be at most " + fmt(std::numeric_limits<float>::max()) +
            " (float32) once scaled with the processes");
  }
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
  if (c.capture != "auto" && c.capture != "stdout" && c.capture != "trainer-state" &&
      c.capture != "tensorboard") {
    add("capture", c.capture, "one of auto, stdout, trainer-state, tensorboard");
  }
  if (!c.command.empty()) {
    // The user's own command trains: its data, model and device are its own business; its
    // template is checked where it is expanded (launch::split_command).
    for (const std::string& kv : c.command_env) {
      const auto eq = kv.find('=');
      if (eq == 0 || eq == std::string::npos)
        add("command_env", kv, "each entry is NAME=VALUE with a name before the '='");
    }
    return out;
  }
  if (!c.workdir.empty() || !c.command_env.empty()) {
    add(c.workdir.empty() ? "command_env" : "workdir",
        c.workdir.empty() ? c.command_env.front() : c.workdir, "is for a command setup",
        "without --command");
  }
  if (c.device == Device::kCuda && !cuda_build()) {
    add("device", "cuda", "this build of Parity has no CUDA (LibTorch CPU); use cpu");
  }
  if (c.mixed_precision == MixedPrecision::kFp16 && c.device != Device::kCuda) {
    add("mixed_precision", "fp16", "fp16 needs CUDA and a gradient scaler; use bf16 or no",
        "on " + to_string(c.device));
  }
  data_problems(c, add);
  model_problems(c, add);
  schedule_problems(c, add, at_least);
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

bool RunConfig::token_data() const { return data_format(dataset).tokens; }

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

namespace {
// Each enum's spellings when its field is `name`; empty when no enum is the field's.
template <class... E>
std::vector<std::string> enum_spellings(std::string_view name) {
  std::vector<std::string> out;
  auto add = [&](auto info) {
    using Info = decltype(info);
    if (name != Info::kField) return;
    for (const auto& entry : Info::values()) out.emplace_back(entry.second);
  };
  (add(EnumInfo<E>{}), ...);
  return out;
}
}  // namespace

std::vector<std::string> field_spellings(std::string_view name) {
  for (const ConfigField& field : config_fields()) {
    if (field.name != name) continue;
    if (field.kind == FieldKind::kBool) return {"true", "false"};
    if (field.kind != FieldKind::kName) return {};
    return enum_spellings<Device, MixedPrecision, LrScaling, DatasetKind, Task, ModelKind, Init,
                          OptimizerKind, SchedulerKind, LossKind, LossNormalization>(name);
  }
  return {};
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
std::string to_string(LossNormalization v) { return enum_name(v); }

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
LossNormalization parse_loss_normalization(const std::string& s) {
  return parse_enum<LossNormalization>(s);
}

bool cuda_build() {
#ifdef PARITY_WITH_CUDA
  return true;
#else
  return false;
#endif
}

}  // namespace parity::config
