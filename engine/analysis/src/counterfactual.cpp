#include <parity/analysis/counterfactual.h>
#include <parity/config/batch_plan.h>
#include <parity/config/lr_schedule.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "cause_registry.h"
#include "verdict_util.h"

namespace parity::analysis {
namespace {

using namespace verdict_detail;

Change align(const std::string& key, const AlignInput& in) {
  if (const CauseEntry* entry = find_entry(key)) {
    return entry->align ? entry->align(in, key) : refused(std::string(entry->info.aligned));
  }
  return align_key(in, key);  // an experiment key
}

// Keys that are the run's own setup: the combined proof keeps them, and aligns what they do
// (global batch, effective lr, schedule in samples) through the derived causes instead.
bool setup_shape_key(const std::string& key) {
  static const char* const kShape[] = {"num_processes",
                                       "per_device_batch_size",
                                       "gradient_accumulation_steps",
                                       "split_batches",
                                       "lr",
                                       "lr_scaling",
                                       "scheduler",
                                       "warmup_steps",
                                       "num_training_steps",
                                       "scheduler_step_size",
                                       "scheduler_gamma",
                                       "pct_start",
                                       "div_factor",
                                       "final_div_factor"};
  for (const char* k : kShape) {
    if (key == k) return true;
  }
  return false;
}

// The combined proof: the run with every differing fact set to the reference's, the reference's
// arithmetic on the run's setup. First every config key outside the setup's shape; then each
// derived cause the diagnosis still finds, once each, until none is left that a counterfactual
// can align. A cause none can align is left out, and its name says so ("all but batch_norm").
Counterfactual combined(const config::RunConfig& run, const config::RunConfig& reference,
                        std::optional<int64_t> n, std::optional<int64_t> n_ref) {
  config::RunConfig all = run;
  std::vector<std::string> words, applied, left_out;
  std::vector<std::string> touched;  // keys a derived cause's change set
  for (const ConfigDiff& d : config_diff(run, reference)) {
    if (setup_shape_key(d.key)) continue;
    const Change change = align_key(AlignInput{all, reference, n, n_ref}, d.key);
    if (!change.config) continue;
    all = *change.config;
    words.push_back(change.words);
    applied.push_back(d.key);
  }
  const auto seen = [](const std::vector<std::string>& keys, const std::string& key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  };
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    for (const Reason& cause : diagnose(all, reference, n, n_ref).causes) {
      if (seen(applied, cause.key) || seen(left_out, cause.key)) continue;
      if (setup_shape_key(cause.key)) continue;  // the run's setup: its derived causes align it
      const Change change = align(cause.key, AlignInput{all, reference, n, n_ref});
      if (!change.config) {
        left_out.push_back(cause.key);
        continue;
      }
      applied.push_back(cause.key);
      // A change may not undo an earlier cause's (even_batches false is padding's alignment).
      const std::vector<ConfigDiff> diff = config_diff(*change.config, all);
      const bool undoes = std::any_of(diff.begin(), diff.end(),
                                      [&](const ConfigDiff& d) { return seen(touched, d.key); });
      if (diff.empty() || undoes) continue;
      for (const ConfigDiff& d : diff) touched.push_back(d.key);
      all = *change.config;
      words.push_back(change.words);
      changed = true;
    }
    if (!changed) break;
  }
  std::string name = "all", text;
  for (const auto& w : words) text += (text.empty() ? "" : "; ") + w;
  for (size_t i = 0; i < left_out.size(); ++i) {
    name += (i == 0 ? " but " : ", ") + left_out[i];
  }
  if (!left_out.empty()) text += (text.empty() ? "" : "; ") + std::string("left out: ");
  for (size_t i = 0; i < left_out.size(); ++i) text += (i ? ", " : "") + left_out[i];
  return {name, text, all, "", {}};
}

// The reference under kBandSeeds more seeds (its data order follows the seed, as a user's seed
// group's does unless data_seed is set).
Counterfactual seed_band(const std::string& cause, const config::RunConfig& reference) {
  Counterfactual cf{cause, "", std::nullopt, "", {}};
  std::string seeds;
  for (int k = 1; k <= kBandSeeds; ++k) {
    config::RunConfig c = reference;
    c.seed = reference.seed + k;
    cf.seeds.push_back(c);
    seeds += (k > 1 ? (k == kBandSeeds ? " and " : ", ") : "") + num(c.seed);
  }
  cf.change = "the reference under seeds " + seeds + ": the run judged against the band of " +
              num(int64_t{kBandSeeds + 1}) + " seeds";
  return cf;
}

}  // namespace

std::vector<Counterfactual> counterfactuals(const config::RunConfig& run,
                                            const config::RunConfig& reference,
                                            const std::vector<Reason>& causes,
                                            std::optional<int64_t> train_size,
                                            std::optional<int64_t> reference_train_size) {
  std::vector<Counterfactual> out;
  size_t testable = 0;
  const AlignInput in{run, reference, train_size, reference_train_size};
  for (const Reason& cause : causes) {
    const Change change = align(cause.key, in);
    if (!change.config && cause_info(cause.key).seed_band) {
      out.push_back(seed_band(cause.key, reference));
      continue;
    }
    out.push_back({cause.key, change.words, change.config, change.why_not, {}});
    testable += change.config.has_value();
  }
  if (testable < 2) return out;
  out.push_back(combined(run, reference, train_size, reference_train_size));
  return out;
}

std::string to_string(Proof proof) {
  switch (proof) {
    case Proof::kConfirmed:
      return "confirmed";
    case Proof::kPartly:
      return "partly";
    case Proof::kNotConfirmed:
      break;
  }
  return "not confirmed";
}

ProofResult judge_seed_band(const RunComparison& row) {
  ProofResult r;
  const std::string share = num(100 * row.outside_fraction, 3) + " % of the points outside";
  if (row.verdict == Verdict::kEquivalent && !row.noise_source.empty()) {
    r.proof = Proof::kConfirmed;
    r.text = "confirmed: within the " + row.noise_source + " (" + share + ", at most 5 % allowed)";
  } else {
    r.proof = Proof::kNotConfirmed;
    r.text = "not confirmed: outside the " +
             (row.noise_source.empty() ? std::string("seeds' band") : row.noise_source) + " (" +
             share + ")";
  }
  return r;
}

ProofResult judge_counterfactual(const RunComparison& original,
                                 const RunComparison& counterfactual) {
  ProofResult r;
  const double before = original.worst_ratio, after = counterfactual.worst_ratio;
  r.shrink = after > 0 ? before / after : std::numeric_limits<double>::infinity();
  const std::string gaps =
      "worst gap " + num(after, 3) + "x the allowed, was " + num(before, 3) + "x";
  if (counterfactual.verdict == Verdict::kEquivalent) {
    r.proof = Proof::kConfirmed;
    r.text = "confirmed: equivalent now (" + gaps + ")";
  } else if (counterfactual.verdict == Verdict::kDifferent && r.shrink >= kPartlyFactor) {
    r.proof = Proof::kPartly;
    r.text = "partly: the gap shrinks " + num(r.shrink, 3) + "x (" + gaps + ")";
  } else {
    r.proof = Proof::kNotConfirmed;
    r.text = "not confirmed: " + to_string(counterfactual.verdict) + " (" + gaps + ")";
  }
  return r;
}

}  // namespace parity::analysis
