// Every fact reaches the verdict: the fact table (config/run_facts.h) walked field by field, an
// edited sampler named as the data order, and a command's own data assumed to be no dataset.
#include <gtest/gtest.h>
#include <parity/analysis/facts_verdict.h>
#include <parity/config/run_facts.h>

#include <cmath>
#include <map>

#include "verdict_test_util.h"

namespace parity::analysis {
namespace {

using config::Fact;
using config::RunFacts;
using test::make_run;
using test::regression;

// Two values of each fact's type that the config's parser reads.
void set_value(Fact<int64_t>& f, int which) { f = Fact<int64_t>::known(2 + which, "test"); }
void set_value(Fact<double>& f, int which) { f = Fact<double>::known(0.05 * (1 + which), "test"); }
void set_value(Fact<bool>& f, int which) { f = Fact<bool>::known(which == 0, "test"); }
void set_value(Fact<std::string>& f, int which, std::string_view key) {
  static const std::map<std::string_view, std::pair<const char*, const char*>> kTexts = {
      {"lr_scaling", {"none", "linear"}},
      {"schedule", {"constant", "cosine"}},
      {"mixed_precision", {"no", "bf16"}},
      {"model", {"mlp", "mlp, dropout 0.25"}}};
  const auto& pair = kTexts.at(key);
  f = Fact<std::string>::known(which == 0 ? pair.first : pair.second, "test");
}

// Changing one fact alone changes the config diff the verdict reads, unless the table says why it
// need not (and every fact is in the table).
TEST(FactsVerdict, EveryFactChangedAloneReachesTheConfigDiff) {
  size_t walked = 0;
  config::for_each_fact_field([&](const config::FactField& field, auto member) {
    ++walked;
    RunFacts a, b;
    using T = typename std::decay_t<decltype((a.*member).value)>::value_type;
    if constexpr (std::is_same_v<T, std::string>) {
      set_value(a.*member, 0, field.key);
      set_value(b.*member, 1, field.key);
    } else {
      set_value(a.*member, 0);
      set_value(b.*member, 1);
    }
    config::RunConfig ca = regression(1, 16), cb = regression(1, 16);
    config::apply_facts(a, ca);
    config::apply_facts(b, cb);
    const std::vector<ConfigDiff> diff = config_diff(ca, cb);
    if (!field.neutral.empty()) {
      EXPECT_TRUE(diff.empty()) << field.key << " is listed neutral but changes the config";
      EXPECT_TRUE(field.config_field.empty()) << field.key;
      return;
    }
    ASSERT_FALSE(field.config_field.empty()) << field.key << ": no config field and no reason";
    bool named = false;
    for (const ConfigDiff& d : diff) named = named || d.key == field.config_field;
    EXPECT_TRUE(named) << field.key << " changed alone does not reach the config diff ("
                       << field.config_field << ")";
  });
  EXPECT_EQ(walked, config::fact_fields().size());
  EXPECT_EQ(walked, 13u);
}

FactRun fact_run(int64_t id, const config::RunConfig& c, double (*loss)(double)) {
  FactRun r;
  r.run = make_run(id, c, loss);
  r.facts = config::facts_of(c);
  r.facts.use_seedable_sampler = Fact<bool>::derived(false, "Accelerate's default");
  r.facts.train_samples = Fact<int64_t>::known(1024, "test");
  return r;
}

double curve_a(double s) { return std::exp(-s / 500.0); }
double curve_b(double s) { return std::exp(-s / 500.0) + 0.01; }

// The case: the 1x32 reference's sampler is derived as Accelerate's default, 2x16's is
// edited to seedable. The data order differs (the global generator's draws vs the seeded
// sampler): a cause, not "summation order or a bug".
TEST(FactsVerdict, AnEditedSamplerIsTheDataOrder) {
  const FactRun ref = fact_run(1, regression(1, 32), curve_a);
  FactRun run = fact_run(2, regression(2, 16), curve_b);
  run.facts.use_seedable_sampler = Fact<bool>::known(true, "edited");
  const Comparison c = compare_with_facts(ref, {run});
  const RunComparison& row = c.rows.at(1);
  ASSERT_EQ(row.verdict, Verdict::kDifferent);
  bool order = false;
  for (const Reason& r : row.reasons) {
    order = order || r.key == "data_order";
    EXPECT_NE(r.key, "summation_order") << r.text;
  }
  EXPECT_TRUE(order) << row.summary;
}

// A command's data is its own: with no fact of its size, no dataset of Parity's is assumed (the
// configs say Fashion-MNIST, whose 60,000 samples do not divide by 64 x 2).
TEST(FactsVerdict, ACommandsOwnDataIsNoDatasetOfParitys) {
  config::RunConfig one, two;
  one.per_device_batch_size = two.per_device_batch_size = 64;
  two.num_processes = 2;
  FactRun ref, run;
  ref.run = make_run(1, one, curve_a, 6400);
  run.run = make_run(2, two, curve_b, 6400);
  ref.run.train_size.reset();
  run.run.train_size.reset();
  ref.facts = config::facts_of(one);
  run.facts = config::facts_of(two);
  ref.facts.train_samples = run.facts.train_samples = Fact<int64_t>{};
  const Comparison c = compare_with_facts(ref, {run});
  for (const Reason& r : c.rows.at(1).reasons) {
    EXPECT_NE(r.key, "padding") << r.text;
    EXPECT_EQ(r.text.find("60000"), std::string::npos) << r.text;
  }
}

}  // namespace
}  // namespace parity::analysis
