// RunFacts: the engine's facts from its config, and the JSON a run's facts are stored as.
#include <parity/config/batch_plan.h>
#include <parity/config/run_config.h>
#include <parity/config/run_facts.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

namespace parity::config {

namespace {

using nlohmann::json;

// Every fact of RunFacts with its JSON key: the table's order.
template <class F>
void for_each_fact(RunFacts& f, F&& visit) {
  for_each_fact_field([&](const FactField& field, auto member) {
    visit(std::string(field.key).c_str(), f.*member);
  });
}

// Each provenance's spelling, once: the JSON's and the text's, read and written from here.
constexpr std::pair<Provenance, std::string_view> kProvenanceNames[] = {
    {Provenance::kKnown, "known"},
    {Provenance::kDerived, "derived"},
    {Provenance::kUnknown, "unknown"},
};

std::optional<Provenance> parse_provenance(std::string_view text) {
  for (const auto& [value, name] : kProvenanceNames)
    if (name == text) return value;
  return std::nullopt;
}

template <class T>
bool value_fits(const json& v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v.is_boolean();
  } else if constexpr (std::is_same_v<T, std::string>) {
    return v.is_string();
  } else if constexpr (std::is_same_v<T, double>) {
    return v.is_number();
  } else {
    return v.is_number_integer();
  }
}

std::string model_traits(const RunConfig& c) {
  std::string text = to_string(c.model);
  if (c.dropout > 0) text += ", dropout " + json(c.dropout).dump();
  if (c.batch_norm) text += ", batch norm";
  return text;
}

}  // namespace

std::string_view to_string(Provenance provenance) {
  for (const auto& [value, name] : kProvenanceNames)
    if (value == provenance) return name;
  return "unknown";
}

std::optional<int64_t> RunFacts::global_batch() const {
  if (!num_processes.has_value() || !per_device_batch_size.has_value() ||
      !gradient_accumulation_steps.has_value()) {
    return std::nullopt;
  }
  return *num_processes * *per_device_batch_size * *gradient_accumulation_steps;
}

RunFacts facts_of(const RunConfig& c) {
  const std::string from = "the run's config";
  RunFacts f;
  f.num_processes = Fact<int64_t>::known(c.num_processes, from);
  // With split_batches the config's batch is the global one, cut in W slices.
  f.per_device_batch_size = Fact<int64_t>::known(per_rank_micro_batch(c), from);
  f.gradient_accumulation_steps = Fact<int64_t>::known(c.gradient_accumulation_steps, from);
  f.learning_rate = Fact<double>::known(c.lr, from);
  f.lr_scaling = Fact<std::string>::known(to_string(c.lr_scaling), from);
  f.schedule = Fact<std::string>::known(to_string(c.scheduler), from);
  f.seed = Fact<int64_t>::known(c.seed, from);
  f.mixed_precision = Fact<std::string>::known(to_string(c.mixed_precision), from);
  // The engine's sampler: seeded data_seed + epoch on every rank (Accelerate's
  // use_seedable_sampler=True, the default), or Accelerate's own default order when set false.
  f.use_seedable_sampler = Fact<bool>::known(c.use_seedable_sampler, from);
  f.model = Fact<std::string>::known(model_traits(c), from);
  if (const auto n = known_train_size(c)) f.train_samples = Fact<int64_t>::known(*n, from);
  f.epochs = Fact<int64_t>::known(c.epochs, from);
  // threads_per_rank depends on the machine's cores, not the config: left unknown here.
  return f;
}

const std::vector<FactField>& fact_fields() {
  static const std::vector<FactField> kFields = [] {
    std::vector<FactField> out;
    for_each_fact_field([&](const FactField& field, auto) { out.push_back(field); });
    return out;
  }();
  return kFields;
}

std::vector<std::string> fact_choices(const FactField& field) {
  return field.config_field.empty() ? std::vector<std::string>{}
                                    : field_spellings(field.config_field);
}

std::string fact_text(const Fact<int64_t>& fact) { return std::to_string(*fact); }
std::string fact_text(const Fact<double>& fact) { return json(*fact).dump(); }
std::string fact_text(const Fact<bool>& fact) { return *fact ? "true" : "false"; }
std::string fact_text(const Fact<std::string>& fact) { return *fact; }

void apply_facts(const RunFacts& f, RunConfig& c) {
  for_each_fact_field([&](const FactField& field, auto member) {
    const auto& fact = f.*member;
    if (!fact.has_value() || field.config_field.empty()) return;
    try {
      set_field_from_text(c, std::string(field.config_field), fact_text(fact));
    } catch (const ConfigError&) {
      // A spelling the config does not know leaves its field as it was.
    }
  });
  // The facts' per-device batch is each rank's own: never the global batch split_batches cuts.
  if (f.per_device_batch_size.has_value()) c.split_batches = false;
}

std::string to_json(const RunFacts& facts) {
  json out = json::object();
  RunFacts copy = facts;
  for_each_fact(copy, [&](const char* key, auto& fact) {
    json entry;
    entry["value"] = fact.value ? json(*fact.value) : json(nullptr);
    entry["provenance"] =
        std::string(to_string(fact.value ? fact.provenance : Provenance::kUnknown));
    entry["source"] = fact.source;
    out[key] = std::move(entry);
  });
  return out.dump();
}

RunFacts run_facts_from_json(std::string_view text) {
  RunFacts facts;
  if (text.empty()) return facts;
  const json in = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!in.is_object()) throw std::invalid_argument("run facts: not a JSON object");
  for_each_fact(facts, [&](const char* key, auto& fact) {
    using T = typename std::decay_t<decltype(fact.value)>::value_type;
    const auto it = in.find(key);
    if (it == in.end()) return;
    const json& entry = *it;
    const auto provenance = entry.is_object() && entry.value("provenance", json()).is_string()
                                ? parse_provenance(entry["provenance"].get<std::string>())
                                : std::nullopt;
    if (!provenance)
      throw std::invalid_argument(std::string("run facts: ") + key + " is malformed");
    const json& value = entry.value("value", json());
    if (*provenance == Provenance::kUnknown || value.is_null()) return;
    if (!value_fits<T>(value)) {
      throw std::invalid_argument(std::string("run facts: ") + key +
                                  " has a value of the wrong type");
    }
    fact.value = value.get<T>();
    fact.provenance = *provenance;
    fact.source = entry.value("source", std::string());
  });
  return facts;
}

}  // namespace parity::config
