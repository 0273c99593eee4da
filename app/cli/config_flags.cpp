#include "config_flags.h"

#include <parity/config/data_format.h>

#include <cstdio>
#include <string_view>

#include "cli_common.h"

namespace parity::cli {

using config::RunConfig;

namespace {

// What --help calls a value.
const char* type_name(config::FieldKind kind) {
  using K = config::FieldKind;
  switch (kind) {
    case K::kInt:
      return "INT";
    case K::kNumber:
      return "NUMBER";
    case K::kBool:
    case K::kSwitch:
      return "BOOL";
    case K::kText:
      return "TEXT";
    case K::kPath:
      return "PATH";
    case K::kName:
      return "NAME";
    case K::kIntList:
      return "INT,INT";
    case K::kColumns:
      return "COL,COL";
    case K::kColumn:
      return "COL";
  }
  return "VALUE";
}

}  // namespace

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
  const auto& all = config::config_fields();
  values_.assign(all.size(), "");  // sized once: CLI11 keeps pointers into it
  options_.clear();
  for (size_t i = 0; i < all.size(); ++i) {
    const config::ConfigField& f = all[i];
    const std::string snake(f.name);
    std::string names = flag_for(snake);
    if (snake == "data_path") names += ",--data-path";
    if (snake.find('_') != std::string::npos) names += ",--" + snake;
    const std::string help(f.help);
    CLI::Option* opt;
    if (f.kind == config::FieldKind::kSwitch) {
      opt = app.add_flag(names, values_[i], help + " (or =true|false)");
    } else {
      opt = app.add_option(names, values_[i], help)->type_name(type_name(f.kind));
    }
    opt->group(std::string(f.group))->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    options_.push_back(opt);
  }
  if (with_config_file) {
    config_opt_ = app.add_option("--config", config_file_,
                                 "config JSON (to_json format); flags given as well override it");
    accelerate_opt_ =
        app.add_option("--accelerate-config,--accelerate_config", accelerate_file_,
                       "the YAML `accelerate config` wrote (num_processes, mixed_precision, "
                       "gradient_accumulation_steps, machines); flags given as well override it");
  }
}

bool ConfigFlags::any_flag_given() const {
  for (const auto* opt : options_)
    if (opt->count() > 0) return true;
  return false;
}

RunConfig ConfigFlags::build(const RunConfig& base) const {
  const bool json_given = config_opt_ && config_opt_->count() > 0;
  RunConfig config = json_given ? config::from_json(read_text_file(config_file_)) : base;
  if (accelerate_opt_ && accelerate_opt_->count() > 0) {
    accelerate_ = config::read_accelerate_config(accelerate_file_);
    config::apply_accelerate_config(*accelerate_, config);
    if (!accelerate_->ignored.empty()) {
      std::string keys;
      for (const auto& k : accelerate_->ignored) keys += (keys.empty() ? "" : ", ") + k;
      std::fprintf(stderr, "accelerate config %s: not used by Parity: %s\n",
                   accelerate_file_.c_str(), keys.c_str());
    }
  }
  apply(config);
  return config;
}

void ConfigFlags::apply(RunConfig& config) const {
  const auto& all = config::config_fields();
  for (size_t i = 0; i < all.size(); ++i) {
    if (options_[i]->count() > 0) {
      config::set_field_from_text(config, std::string(all[i].name), values_[i]);
    }
  }
  // The task follows a dataset that has only one, unless --task says otherwise.
  const auto given = [&](std::string_view name) {
    for (size_t i = 0; i < all.size(); ++i)
      if (all[i].name == name) return options_[i]->count() > 0;
    return false;
  };
  if (given("dataset") && !given("task")) {
    if (const auto task = config::data_format(config.dataset).task) config.task = *task;
  }
}

void require_valid(const RunConfig& config) {
  // A label is one line in every table, CSV and legend that shows it.
  if (config.label.find_first_of("\r\n") != std::string::npos)
    throw UsageError("--label: a label is one line; this one holds a line break");
  const auto issues = config::check(config);
  if (issues.empty()) return;
  std::string text =
      "invalid config" + (config.label.empty() ? "" : " (" + config.label + ")") + ":";
  for (const auto& issue : issues)
    text += "\n  " + issue.message + "  [" + ConfigFlags::flag_for(issue.field) + "]";
  throw UsageError(text);
}

}  // namespace parity::cli
