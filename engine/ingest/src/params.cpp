// Hyper-parameters to run facts: the spellings Accelerate's examples, transformers'
// TrainingArguments and users' own configs use for the facts the verdict reads.
#include <parity/ingest/ingest_error.h>
#include <parity/ingest/params.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <initializer_list>
#include <nlohmann/json.hpp>

namespace parity::ingest {

using config::Fact;

namespace {

const ParamValue* find(const ParamMap& params, std::initializer_list<const char*> keys,
                       std::string* found) {
  for (const char* key : keys) {
    const auto it = params.find(key);
    if (it != params.end()) {
      *found = key;
      return &it->second;
    }
  }
  return nullptr;
}

void fill_int(Fact<int64_t>& fact, const ParamMap& params, std::initializer_list<const char*> keys,
              const std::string& source) {
  std::string key;
  if (fact.has_value()) return;
  const ParamValue* v = find(params, keys, &key);
  if (!v || !v->number || *v->number != std::floor(*v->number)) return;
  fact = Fact<int64_t>::known(static_cast<int64_t>(*v->number), source + ": " + key);
}

std::string precision_of(const ParamMap& params, std::string* key) {
  if (const ParamValue* v = find(params, {"mixed_precision"}, key)) {
    if (v->text == "bf16" || v->text == "fp16" || v->text == "no") return v->text;
    if (v->text == "fp8") return v->text;
  }
  for (const char* flag : {"bf16", "fp16"}) {
    if (const ParamValue* v = find(params, {flag}, key)) {
      if (v->boolean && *v->boolean) return flag;
    }
  }
  // transformers writes both flags: neither set means fp32.
  std::string bf, fp;
  const ParamValue* b = find(params, {"bf16"}, &bf);
  const ParamValue* f = find(params, {"fp16"}, &fp);
  if (b && f && b->boolean && f->boolean) {
    *key = "bf16, fp16";
    return "no";
  }
  return "";
}

void add_json(const nlohmann::json& j, const std::string& prefix, ParamMap& params) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
    const nlohmann::json& v = it.value();
    if (v.is_object())
      add_json(v, key, params);
    else if (v.is_boolean())
      params[key] = param_bool(v.get<bool>());
    else if (v.is_number())
      params[key] = param_number(v.get<double>());
    else if (v.is_string())
      params[key] = param_text(v.get<std::string>());
  }
}

void add_yaml(const YAML::Node& node, const std::string& prefix, ParamMap& params) {
  for (const auto& kv : node) {
    const std::string key =
        prefix.empty() ? kv.first.as<std::string>() : prefix + "." + kv.first.as<std::string>();
    const YAML::Node& v = kv.second;
    if (v.IsMap()) {
      add_yaml(v, key, params);
    } else if (v.IsScalar()) {
      const std::string text = v.as<std::string>();
      bool b = false;
      double d = 0;
      // A quoted scalar ('no', '1') stays text; plain ones are typed as YAML types them.
      if (v.Tag() == "!")
        params[key] = param_text(text);
      else if (YAML::convert<bool>::decode(v, b) && text != "no" && text != "yes")
        params[key] = param_bool(b);
      else if (YAML::convert<double>::decode(v, d))
        params[key] = param_number(d);
      else
        params[key] = param_text(text);
    }
  }
}

}  // namespace

ParamValue param_number(double v) {
  ParamValue p;
  p.text = nlohmann::json(v).dump();
  if (v == std::floor(v) && std::abs(v) < 1e15) p.text = std::to_string(static_cast<int64_t>(v));
  p.number = v;
  return p;
}

ParamValue param_text(std::string v) {
  ParamValue p;
  if (v == "true" || v == "True") p.boolean = true;
  if (v == "false" || v == "False") p.boolean = false;
  p.text = std::move(v);
  return p;
}

ParamValue param_bool(bool v) {
  ParamValue p;
  p.text = v ? "true" : "false";
  p.boolean = v;
  p.number = v ? 1.0 : 0.0;
  return p;
}

void fill_facts(config::RunFacts& f, const ParamMap& params, const std::string& source) {
  fill_int(f.num_processes, params, {"num_processes", "world_size", "num_gpus"}, source);
  fill_int(f.per_device_batch_size, params,
           {"per_device_train_batch_size", "per_device_batch_size", "train_batch_size"}, source);
  fill_int(f.gradient_accumulation_steps, params, {"gradient_accumulation_steps"}, source);
  fill_int(f.seed, params, {"seed"}, source);
  fill_int(f.train_samples, params, {"train_samples", "num_train_samples"}, source);
  fill_int(f.epochs, params, {"epochs", "num_train_epochs"}, source);
  std::string key;
  if (!f.learning_rate.has_value()) {
    const ParamValue* v = find(params, {"learning_rate", "lr"}, &key);
    if (v && v->number) f.learning_rate = Fact<double>::known(*v->number, source + ": " + key);
  }
  if (!f.mixed_precision.has_value()) {
    const std::string p = precision_of(params, &key);
    if (!p.empty()) f.mixed_precision = Fact<std::string>::known(p, source + ": " + key);
  }
  if (!f.schedule.has_value()) {
    const ParamValue* v = find(params, {"lr_scheduler_type", "lr_scheduler", "scheduler"}, &key);
    if (v && !v->text.empty()) f.schedule = Fact<std::string>::known(v->text, source + ": " + key);
  }
  if (!f.use_seedable_sampler.has_value()) {
    const ParamValue* v =
        find(params, {"use_seedable_sampler", "accelerator_config.use_seedable_sampler"}, &key);
    if (v && v->boolean)
      f.use_seedable_sampler = Fact<bool>::known(*v->boolean, source + ": " + key);
  }
  if (!f.lr_scaling.has_value()) {
    const ParamValue* v = find(params, {"lr_scaling"}, &key);
    if (v && !v->text.empty())
      f.lr_scaling = Fact<std::string>::known(v->text, source + ": " + key);
  }
}

void params_from_json(std::string_view json_text, ParamMap& params) {
  const auto j = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) throw IngestError("not a JSON object");
  add_json(j, "", params);
}

void params_from_yaml(std::string_view yaml_text, ParamMap& params) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::Exception& e) {
    throw IngestError(std::string("not YAML: ") + e.what());
  }
  if (root.IsNull()) return;
  if (!root.IsMap()) throw IngestError("not a YAML mapping");
  add_yaml(root, "", params);
}

}  // namespace parity::ingest
