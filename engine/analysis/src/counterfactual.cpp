#include <parity/analysis/counterfactual.h>
#include <parity/analysis/remedy.h>
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

Change align_entry(const std::string& key, const AlignInput& in) {
  if (const CauseEntry* entry = find_entry(key)) {
    return entry->align ? entry->align(in, key) : refused(std::string(entry->info.aligned));
  }
  return align_key(in, key);  // an experiment key
}

// A cause aligned as its registry entry says; for a command run only through the values its
// template carries (the script decides the rest: its sampler, schedule, data).
Change align(const std::string& key, const AlignInput& in) {
  Change change = align_entry(key, in);
  if (!change.config || in.run.command.empty()) return change;
  for (const ConfigDiff& d : config_diff(*change.config, in.run)) {
    if (!template_moves(in.run, d.key)) {
      return refused("your command's template has no placeholder for " + d.key +
                     ": the script decides it");
    }
  }
  if (config_diff(*change.config, in.run).empty()) {
    return refused("nothing your command's template carries differs for this cause");
  }
  return change;
}

// The combined proof: the remedy, the whole setup of the run's shape with the reference's
// arithmetic (remedy.h). Named "all", or "all but KEY, ..." for what no setup of this shape
// aligns; trained against the band of the reference's seeds when noise is left.
Counterfactual combined(const Remedy& r) {
  std::string name = "all";
  for (size_t i = 0; i < r.left.size(); ++i) name += (i == 0 ? " but " : ", ") + r.left[i].key;
  std::string text = r.changes_text();
  if (!r.left.empty()) {
    text += "; left out: ";
    for (size_t i = 0; i < r.left.size(); ++i) text += (i ? "; " : "") + r.left[i].text;
  }
  return {name, text, r.config, "", {}};
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
                                            std::optional<int64_t> reference_train_size,
                                            const std::optional<config::ModelSummary>& model,
                                            const std::optional<config::ModelSummary>& ref_model) {
  const Remedy fix = remedy(run, reference, train_size, reference_train_size, model, ref_model);
  const auto noise = [&](const std::string& key) {
    return std::any_of(fix.noise.begin(), fix.noise.end(),
                       [&](const Reason& r) { return r.key == key; });
  };
  std::vector<Counterfactual> out;
  const AlignInput in{run, reference, train_size_of(run, train_size),
                      train_size_of(reference, reference_train_size)};
  for (const Reason& cause : causes) {
    const Change change = align(cause.key, in);
    if (!change.config && (cause_info(cause.key).seed_band || noise(cause.key))) {
      // Noise no change removes: the run itself against the band of the reference's seeds, or,
      // with other causes to align, the remedy against that band (below).
      if (!fix.needed()) {
        out.push_back(seed_band(cause.key, reference));
      } else {
        out.push_back({cause.key, "", std::nullopt,
                       "noise no change removes: proved with the remedy (all) against the band of "
                       "the reference's seeds",
                       {}});
      }
      continue;
    }
    out.push_back({cause.key, change.words, change.config, change.why_not, {}});
  }
  if (!fix.needed()) return out;
  // The remedy, unless one cause's counterfactual already is that setup.
  const bool trained = std::any_of(out.begin(), out.end(), [&](const Counterfactual& cf) {
    return cf.config && config::to_json(*cf.config) == config::to_json(fix.config);
  });
  if (trained && fix.noise.empty() && fix.exact()) return out;
  out.push_back(remedy_counterfactual(fix, reference));
  return out;
}

Counterfactual remedy_counterfactual(const Remedy& fix, const config::RunConfig& reference) {
  Counterfactual all = combined(fix);
  if (!fix.noise.empty()) {
    const Counterfactual band = seed_band(all.cause, reference);
    all.seeds = band.seeds;
    std::string noise;
    for (const Reason& r : fix.noise) noise += (noise.empty() ? "" : ", ") + r.key;
    std::string seeds;
    for (size_t i = 0; i < band.seeds.size(); ++i)
      seeds += (i == 0 ? "" : i + 1 == band.seeds.size() ? " and " : ", ") + num(band.seeds[i].seed);
    all.change += "; judged against the reference under seeds " + seeds + " (noise: " + noise + ")";
  }
  return all;
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

ProofResult judge_seed_band(const Comparison& with_band) {
  ProofResult r;
  if (with_band.rows.size() < 3) {
    r.text = "not confirmed: no seeds of the reference to judge by";
    return r;
  }
  const RunComparison& judged = with_band.rows.back();
  double widest = 0;
  std::string seeds;
  for (size_t i = 1; i + 1 < with_band.rows.size(); ++i) {
    const double gap = with_band.rows[i].delta.mean_abs;
    widest = std::max(widest, gap);
    seeds += (seeds.empty() ? "" : ", ") + num(gap, 3);
  }
  const double gap = judged.delta.mean_abs;
  const std::string numbers = "mean |Δloss| " + num(gap, 3) + "; the reference's other seeds " +
                              seeds + "; " + num(100 * judged.outside_fraction, 3) +
                              " % of the points outside their band";
  if (judged.verdict != Verdict::kNotComparable && judged.delta.nonfinite_points == 0 &&
      gap <= widest) {
    r.proof = Proof::kConfirmed;
    r.text = "confirmed: no further from the reference than its own seeds (" + numbers + ")";
  } else {
    r.proof = Proof::kNotConfirmed;
    r.text = "not confirmed: further from the reference than its own seeds (" + numbers + ")";
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
