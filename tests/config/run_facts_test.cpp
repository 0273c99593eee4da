#include <gtest/gtest.h>
#include <parity/config/run_config.h>
#include <parity/config/run_facts.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string_view>

namespace parity::config {
namespace {

TEST(RunFacts, EngineRunsKnowEveryFactOfTheirConfig) {
  RunConfig c;
  c.num_processes = 4;
  c.per_device_batch_size = 16;
  c.gradient_accumulation_steps = 2;
  c.lr = 0.1;
  c.lr_scaling = LrScaling::kLinear;
  c.mixed_precision = MixedPrecision::kBf16;
  c.seed = 7;
  c.dropout = 0.25;
  const RunFacts f = facts_of(c);
  EXPECT_EQ(f.global_batch(), 128);
  EXPECT_EQ(f.num_processes.provenance, Provenance::kKnown);
  EXPECT_EQ(*f.lr_scaling, "linear");
  EXPECT_EQ(*f.mixed_precision, "bf16");
  EXPECT_EQ(*f.seed, 7);
  EXPECT_TRUE(*f.use_seedable_sampler);
  EXPECT_EQ(*f.model, "mlp, dropout 0.25");
  EXPECT_FALSE(f.threads_per_rank.has_value());
}

// An engine run's facts, written back over a default config, give every field the fact table
// names as the run had it: no fact of the engine's is made up (the sampler was once "true"
// whatever the config said).
TEST(RunFacts, AnEngineRunsFactsGiveBackItsConfigFieldByField) {
  RunConfig c;
  c.num_processes = 2;
  c.per_device_batch_size = 24;
  c.gradient_accumulation_steps = 3;
  c.lr = 0.2;
  c.lr_scaling = LrScaling::kSqrt;
  c.scheduler = SchedulerKind::kCosine;
  c.seed = 9;
  c.mixed_precision = MixedPrecision::kBf16;
  c.use_seedable_sampler = false;
  c.train_samples = 640;
  c.epochs = 3;
  RunConfig back;
  apply_facts(facts_of(c), back);
  for (const FactField& field : fact_fields()) {
    if (field.config_field.empty() || field.key == "threads_per_rank") continue;
    const std::string name(field.config_field);
    EXPECT_EQ(field_text(back, name), field_text(c, name)) << field.key;
  }
}

// `parity-cli show` prints one line a fact from the field table: each has its own label, short
// enough for show's 24-character column.
TEST(RunFacts, EachFieldHasItsOwnLabelForShow) {
  std::set<std::string_view> labels;
  for (const FactField& field : fact_fields()) {
    EXPECT_FALSE(field.label.empty()) << field.key;
    EXPECT_LT(field.label.size(), 24u) << field.key;
    EXPECT_TRUE(labels.insert(field.label).second) << field.label << " is used twice";
  }
  EXPECT_EQ(labels.size(), fact_fields().size());
}

// A fact of a few words takes its config field's spellings, so `set`'s check and the facts
// dialog's choices follow the config when it learns a spelling.
TEST(RunFacts, ChoicesAreTheConfigFieldsSpellings) {
  std::map<std::string_view, std::vector<std::string>> choices;
  for (const FactField& field : fact_fields()) choices[field.key] = fact_choices(field);
  EXPECT_EQ(choices["lr_scaling"], (std::vector<std::string>{"none", "linear", "sqrt"}));
  EXPECT_EQ(choices["schedule"],
            (std::vector<std::string>{"constant", "linear", "cosine", "step", "onecycle"}));
  EXPECT_EQ(choices["mixed_precision"], (std::vector<std::string>{"no", "bf16", "fp16"}));
  EXPECT_EQ(choices["use_seedable_sampler"], (std::vector<std::string>{"true", "false"}));
  EXPECT_TRUE(choices["num_processes"].empty());
  EXPECT_TRUE(choices["model"].empty());
  EXPECT_TRUE(field_spellings("no_such_field").empty());
}

TEST(RunFacts, SplitBatchesGivesThePerDeviceSlice) {
  RunConfig c;
  c.num_processes = 2;
  c.per_device_batch_size = 64;
  c.split_batches = true;
  EXPECT_EQ(*facts_of(c).per_device_batch_size, 32);
  EXPECT_EQ(facts_of(c).global_batch(), 64);
}

TEST(RunFacts, JsonRoundTripKeepsProvenanceAndSource) {
  RunFacts f;
  f.num_processes = Fact<int64_t>::known(2, "hparams.yml: num_processes");
  f.per_device_batch_size = Fact<int64_t>::derived(8, "train_batch_size");
  f.learning_rate = Fact<double>::known(0.05, "hparams");
  f.use_seedable_sampler = Fact<bool>::derived(false, "Accelerate's default");
  const RunFacts back = run_facts_from_json(to_json(f));
  EXPECT_EQ(*back.num_processes, 2);
  EXPECT_EQ(back.num_processes.source, "hparams.yml: num_processes");
  EXPECT_EQ(back.per_device_batch_size.provenance, Provenance::kDerived);
  EXPECT_DOUBLE_EQ(*back.learning_rate, 0.05);
  EXPECT_FALSE(*back.use_seedable_sampler);
  EXPECT_FALSE(back.seed.has_value());
  EXPECT_EQ(back.seed.provenance, Provenance::kUnknown);
  EXPECT_FALSE(back.setup_known());
}

TEST(RunFacts, MalformedJsonIsRefusedNamingTheFact) {
  EXPECT_THROW(run_facts_from_json("[1]"), std::invalid_argument);
  try {
    run_facts_from_json(R"({"seed": {"value": "x", "provenance": "known"}})");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("seed"), std::string::npos);
  }
  EXPECT_FALSE(run_facts_from_json("").seed.has_value());
}

}  // namespace
}  // namespace parity::config
