#include "config_flags.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "cli_common.h"

namespace parity::cli {

using engine::ConfigError;
using engine::RunConfig;

namespace {

int64_t to_int(const char* field, const std::string& v) {
  errno = 0;
  char* end = nullptr;
  long long x = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || errno != 0 || *end != '\0') throw ConfigError(field, v, "must be an integer");
  return x;
}

double to_double(const char* field, const std::string& v) {
  errno = 0;
  char* end = nullptr;
  double x = std::strtod(v.c_str(), &end);
  if (v.empty() || errno != 0 || *end != '\0') throw ConfigError(field, v, "must be a number");
  return x;
}

bool to_bool(const char* field, const std::string& v) {
  std::string s;
  for (char c : v) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "true" || s == "1" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "0" || s == "no" || s == "off") return false;
  throw ConfigError(field, v, "must be true or false");
}

std::vector<std::string> split_list(const std::string& v) {
  std::vector<std::string> out;
  std::stringstream s(v);
  std::string item;
  while (std::getline(s, item, ',')) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

}  // namespace

struct ConfigFlags::Field {
  const char* name;  ///< the JSON key
  const char* help;
  const char* group;
  bool bare;  ///< a flag: given bare it means true; --flag=false also works
  void (*apply)(RunConfig&, const std::string&);
};

#define PARITY_INT(F) [](RunConfig& c, const std::string& v) { c.F = to_int(#F, v); }
#define PARITY_DOUBLE(F) [](RunConfig& c, const std::string& v) { c.F = to_double(#F, v); }
#define PARITY_BOOL(F) [](RunConfig& c, const std::string& v) { c.F = to_bool(#F, v); }
#define PARITY_ENUM(F, PARSE) [](RunConfig& c, const std::string& v) { c.F = engine::PARSE(v); }

namespace {

const std::vector<ConfigFlags::Field>& fields() {
  using F = ConfigFlags::Field;
  static const std::vector<F> kFields = {
      {"seed", "random seed (model init, dropout; the data order too unless --data-seed)", "Setup",
       false, PARITY_INT(seed)},
      {"data_seed", "seed of the data order (default: --seed)", "Setup", false,
       [](RunConfig& c, const std::string& v) { c.data_seed = to_int("data_seed", v); }},
      {"device_specific_seed", "add the rank to the model seed (never to the data order)", "Setup",
       true, PARITY_BOOL(device_specific_seed)},
      {"device", "cpu|cuda", "Setup", false, PARITY_ENUM(device, parse_device)},
      {"num_processes", "number of rank processes (W)", "Setup", false,
       [](RunConfig& c, const std::string& v) {
         c.num_processes = static_cast<int>(to_int("num_processes", v));
       }},
      {"per_device_batch_size", "batch per rank (the global batch with --split-batches)", "Setup",
       false, PARITY_INT(per_device_batch_size)},
      {"gradient_accumulation_steps", "micro-batches per optimizer step", "Setup", false,
       [](RunConfig& c, const std::string& v) {
         c.gradient_accumulation_steps = static_cast<int>(to_int("gradient_accumulation_steps", v));
       }},
      {"mixed_precision", "no|bf16|fp16 (fp16 needs cuda)", "Setup", false,
       PARITY_ENUM(mixed_precision, parse_mixed_precision)},
      {"lr_scaling", "none|linear|sqrt: lr x 1, W or sqrt(W)", "Setup", false,
       PARITY_ENUM(lr_scaling, parse_lr_scaling)},
      {"split_batches", "the batch size is global and cut in W slices", "Setup", true,
       PARITY_BOOL(split_batches)},
      {"even_batches", "true|false: complete the last batches by cycling (default true)", "Setup",
       false, PARITY_BOOL(even_batches)},
      {"drop_last", "drop the incomplete last group of batches", "Setup", true,
       PARITY_BOOL(drop_last)},
      {"epochs", "epochs to train", "Setup", false,
       [](RunConfig& c, const std::string& v) {
         c.epochs = static_cast<int>(to_int("epochs", v));
       }},
      {"max_steps", "stop after this many optimizer steps (0 = all epochs)", "Setup", false,
       PARITY_INT(max_steps)},
      {"dataset", "fashion-mnist|csv|synthetic-regression", "Experiment", false,
       PARITY_ENUM(dataset, parse_dataset)},
      {"data_path", "dataset folder (fashion-mnist) or file (csv)", "Experiment", false,
       [](RunConfig& c, const std::string& v) { c.data_path = v; }},
      {"features", "csv feature columns COL,COL (default: all but the target)", "Experiment", false,
       [](RunConfig& c, const std::string& v) { c.features = split_list(v); }},
      {"target", "csv target column", "Experiment", false,
       [](RunConfig& c, const std::string& v) { c.target = v; }},
      {"task", "regression|classification", "Experiment", false, PARITY_ENUM(task, parse_task)},
      {"train_samples", "use only the first N training samples (0 = all)", "Experiment", false,
       PARITY_INT(train_samples)},
      {"synthetic_samples", "synthetic-regression: number of samples", "Experiment", false,
       PARITY_INT(synthetic_samples)},
      {"synthetic_noise", "synthetic-regression: stddev of the noise", "Experiment", false,
       PARITY_DOUBLE(synthetic_noise)},
      {"model", "linear|mlp|cnn", "Experiment", false, PARITY_ENUM(model, parse_model)},
      {"init", "default|zeros", "Experiment", false, PARITY_ENUM(init, parse_init)},
      {"hidden", "MLP hidden widths, e.g. 256,128", "Experiment", false,
       [](RunConfig& c, const std::string& v) {
         c.hidden.clear();
         for (const auto& w : split_list(v)) c.hidden.push_back(to_int("hidden", w));
       }},
      {"optimizer", "sgd|adamw", "Experiment", false, PARITY_ENUM(optimizer, parse_optimizer)},
      {"lr", "base learning rate (before --lr-scaling)", "Experiment", false, PARITY_DOUBLE(lr)},
      {"momentum", "SGD momentum", "Experiment", false, PARITY_DOUBLE(momentum)},
      {"weight_decay", "weight decay", "Experiment", false, PARITY_DOUBLE(weight_decay)},
      {"scheduler", "constant|linear|cosine|step", "Experiment", false,
       PARITY_ENUM(scheduler, parse_scheduler)},
      {"warmup_steps", "warm-up, in scheduler steps", "Experiment", false,
       PARITY_INT(warmup_steps)},
      {"scheduler_step_size", "step scheduler: decay every N scheduler steps", "Experiment", false,
       PARITY_INT(scheduler_step_size)},
      {"scheduler_gamma", "step scheduler: decay factor", "Experiment", false,
       PARITY_DOUBLE(scheduler_gamma)},
      {"loss", "auto|mse|cross-entropy (auto: from the task)", "Experiment", false,
       PARITY_ENUM(loss, parse_loss)},
      {"eval_every_epoch", "true|false: evaluate on the test set after each epoch", "Experiment",
       false, PARITY_BOOL(eval_every_epoch)},
  };
  return kFields;
}

// The value's kind, for --help.
std::string type_name(const std::string& field) {
  static const char* kInts[] = {"seed",
                                "data_seed",
                                "num_processes",
                                "per_device_batch_size",
                                "gradient_accumulation_steps",
                                "epochs",
                                "max_steps",
                                "train_samples",
                                "synthetic_samples",
                                "warmup_steps",
                                "scheduler_step_size"};
  static const char* kNumbers[] = {"synthetic_noise", "lr", "momentum", "weight_decay",
                                   "scheduler_gamma"};
  for (const char* f : kInts)
    if (field == f) return "INT";
  for (const char* f : kNumbers)
    if (field == f) return "NUMBER";
  if (field == "even_batches" || field == "eval_every_epoch") return "BOOL";
  if (field == "data_path") return "PATH";
  if (field == "hidden") return "INT,INT";
  if (field == "features") return "COL,COL";
  if (field == "target") return "COL";
  return "NAME";
}

}  // namespace

#undef PARITY_INT
#undef PARITY_DOUBLE
#undef PARITY_BOOL
#undef PARITY_ENUM

ConfigFlags::ConfigFlags() = default;
ConfigFlags::~ConfigFlags() = default;

std::string ConfigFlags::flag_for(const std::string& field) {
  if (field == "data_path") return "--data";
  std::string kebab = field;
  for (char& c : kebab)
    if (c == '_') c = '-';
  return "--" + kebab;
}

void ConfigFlags::add_to(CLI::App& app, bool with_config_file) {
  const auto& all = fields();
  values_.assign(all.size() + 1, "");  // sized once: CLI11 keeps pointers into it
  options_.clear();
  for (size_t i = 0; i < all.size(); ++i) {
    const auto& f = all[i];
    const std::string snake = f.name;
    std::string names = flag_for(snake);
    if (snake == "data_path") names += ",--data-path";
    if (snake.find('_') != std::string::npos) names += ",--" + snake;
    CLI::Option* opt;
    if (f.bare) {
      opt = app.add_flag(names, values_[i], std::string(f.help) + " (or =true|false)");
    } else {
      opt = app.add_option(names, values_[i], f.help)->type_name(type_name(snake));
    }
    opt->group(f.group)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    options_.push_back(opt);
  }
  options_.push_back(app.add_option("--label", values_.back(), "label shown in tables and legends")
                         ->group("Setup")
                         ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast));
  if (with_config_file)
    config_opt_ = app.add_option("--config", config_file_,
                                 "config JSON (to_json format); flags given as well override it");
}

bool ConfigFlags::any_flag_given() const {
  for (const auto* opt : options_)
    if (opt->count() > 0) return true;
  return false;
}

RunConfig ConfigFlags::build(const RunConfig& base) const {
  RunConfig config = config_file_given() ? engine::from_json(read_text_file(config_file_)) : base;
  apply(config);
  return config;
}

void ConfigFlags::apply(RunConfig& config) const {
  const auto& all = fields();
  for (size_t i = 0; i < all.size(); ++i)
    if (options_[i]->count() > 0) all[i].apply(config, values_[i]);
  if (options_.back()->count() > 0) config.label = values_.back();
  // The task follows a dataset that has only one, unless --task says otherwise.
  const auto given = [&](const char* name) {
    for (size_t i = 0; i < all.size(); ++i)
      if (std::string(all[i].name) == name) return options_[i]->count() > 0;
    return false;
  };
  if (given("dataset") && !given("task")) {
    if (config.dataset == engine::DatasetKind::kSyntheticRegression)
      config.task = engine::Task::kRegression;
    if (config.dataset == engine::DatasetKind::kFashionMnist)
      config.task = engine::Task::kClassification;
  }
}

void require_valid(const RunConfig& config) {
  const auto issues = engine::check(config);
  if (issues.empty()) return;
  std::string text =
      "invalid config" + (config.label.empty() ? "" : " (" + config.label + ")") + ":";
  for (const auto& issue : issues)
    text += "\n  " + issue.message + "  [" + ConfigFlags::flag_for(issue.field) + "]";
  throw UsageError(text);
}

}  // namespace parity::cli
