// The verdict: seed groups and the noise floor they give, the decision against the allowed gap,
// its reasons and its one-line summary.

#include <parity/analysis/verdict.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "aligned.h"
#include "rounding.h"
#include "verdict_util.h"

namespace parity::analysis {

using namespace verdict_detail;

namespace {

std::string keys_of(const std::vector<ConfigDiff>& diffs) {
  std::string out;
  for (const ConfigDiff& d : diffs) out += (out.empty() ? "" : ", ") + d.key;
  return out;
}

// The config without label and seeds: equal keys <=> runs of one setup (a SeedGroup).
std::string setup_key(const config::RunConfig& c) {
  ordered_json j = flat_json(c);
  j.erase("seed");
  j.erase("data_seed");
  return j.dump();
}

double symmetric_max_delta(const Series& a, const Series& b) {
  return std::max(max_abs_delta(align(a, b)), max_abs_delta(align(b, a)));
}

// Runs that share a setup key (everything but the seeds), one member per (seed, data_seed).
std::vector<SeedGroup> setups_of(const std::vector<const CompareRun*>& runs) {
  std::vector<SeedGroup> groups;
  std::map<std::string, size_t> by_key;
  std::vector<std::set<std::pair<int64_t, int64_t>>> seeds;
  for (size_t i = 0; i < runs.size(); ++i) {
    const config::RunConfig& c = runs[i]->config;
    const auto [it, inserted] = by_key.emplace(setup_key(c), groups.size());
    if (inserted) groups.emplace_back(), seeds.emplace_back();
    if (!seeds[it->second].emplace(c.seed, c.effective_data_seed()).second) continue;
    groups[it->second].indices.push_back(i);
    groups[it->second].run_ids.push_back(runs[i]->id);
  }
  return groups;
}

// The setups with two or more seeds, each with its spread and band, in order of first member.
std::vector<SeedGroup> groups_of(const std::vector<const CompareRun*>& runs,
                                 const std::vector<Series>& curves) {
  std::vector<SeedGroup> out;
  for (SeedGroup& g : setups_of(runs)) {
    if (g.indices.size() < 2) continue;
    std::vector<Series> members;
    for (size_t i : g.indices) members.push_back(curves[i]);
    for (size_t i = 0; i < members.size(); ++i) {
      for (size_t j = i + 1; j < members.size(); ++j) {
        g.spread = std::max(g.spread, symmetric_max_delta(members[i], members[j]));
      }
    }
    g.band = band(members);
    out.push_back(std::move(g));
  }
  std::sort(out.begin(), out.end(),
            [](const SeedGroup& a, const SeedGroup& b) { return a.indices[0] < b.indices[0]; });
  return out;
}

Series smoothed_curve(const CompareRun& run, Axis axis, double ema_weight) {
  Series s = curve(run, axis);
  return ema_weight > 0 ? ema(s, EmaOptions{ema_weight, true}) : s;
}

double throughput(const CompareRun& r) {
  if (r.samples_per_s > 0) return r.samples_per_s;
  if (r.points.empty() || r.points.back().time_s <= 0) return 0;
  return r.points.back().samples / r.points.back().time_s;
}

// Where the run's (smoothed) loss first reaches the target, read on samples, time and steps.
void fill_target_crossing(const CompareRun& run, const std::vector<double>& loss,
                          std::optional<double> target, RunComparison& row) {
  if (!target || run.points.empty()) return;
  const auto position = first_crossing_position(loss, *target);
  if (!position) return;
  std::vector<double> samples, time, step;
  for (const CurvePoint& p : run.points) {
    samples.push_back(p.samples);
    time.push_back(p.time_s);
    step.push_back(static_cast<double>(p.step));
  }
  row.samples_to_target = value_at_position(samples, *position);
  row.time_to_target_s = value_at_position(time, *position);
  row.step_to_target = value_at_position(step, *position);
}

// target_factor x the mean of the last max(1, 5%) finite points; nullopt when there are none.
std::optional<double> default_target(const std::vector<double>& ref_loss, double target_factor) {
  if (ref_loss.empty()) return std::nullopt;
  const size_t tail = std::max<size_t>(1, ref_loss.size() / 20);
  double sum = 0;
  size_t n = 0;
  for (size_t i = ref_loss.size() - tail; i < ref_loss.size(); ++i) {
    if (std::isfinite(ref_loss[i])) sum += ref_loss[i], ++n;
  }
  if (n == 0) return std::nullopt;
  return target_factor * sum / static_cast<double>(n);
}

// The run scaling efficiency is measured against: the first single-process run (with a
// throughput) whose per-device shape (batch, device, precision) a multi-process run shares,
// else the first single-process run; null when there is none.
const CompareRun* scaling_baseline(const std::vector<const CompareRun*>& runs) {
  const CompareRun* baseline = nullptr;
  for (const CompareRun* r : runs) {
    const config::RunConfig& c = r->config;
    if (c.num_processes != 1 || throughput(*r) <= 0) continue;
    const bool same_shape = std::any_of(runs.begin(), runs.end(), [&](const CompareRun* o) {
      return o->config.num_processes > 1 &&
             o->config.per_device_batch_size == c.per_device_batch_size &&
             o->config.device == c.device && o->config.mixed_precision == c.mixed_precision;
    });
    if (!baseline || same_shape) baseline = r;
    if (same_shape) break;
  }
  return baseline;
}

void check_options(const CompareOptions& options) {
  if (!(options.abs_tolerance >= 0) || !(options.rel_tolerance >= 0) ||
      !(options.noise_factor >= 0) || !(options.target_factor > 0) ||
      !(options.range_note_fraction >= 0)) {
    throw AnalysisError(
        "compare: tolerances, noise_factor and range_note_fraction must be >= 0 "
        "and target_factor > 0 (abs_tolerance " +
        num(options.abs_tolerance) + ", rel_tolerance " + num(options.rel_tolerance) +
        ", noise_factor " + num(options.noise_factor) + ", target_factor " +
        num(options.target_factor) + ")");
  }
}

// With a seed group, "equivalent" allows this share of the compared points outside the seeds'
// band (a band of a few seeds is itself noisy).
constexpr double kOutsideShare = 0.05;

// compare(), one step per method: run() reads as the algorithm. Index 0 is the reference.
class Comparer {
 public:
  Comparer(const CompareRun& reference, const std::vector<CompareRun>& others,
           const CompareOptions& options)
      : reference_(reference), options_(options) {
    runs_.push_back(&reference);
    for (const CompareRun& r : others) runs_.push_back(&r);
    for (const CompareRun* r : runs_) {
      curves_.push_back(smoothed_curve(*r, options.axis, options.ema_weight));
      epoch_curves_.push_back(smoothed_curve(*r, Axis::kEpoch, options.ema_weight));
    }
  }

  Comparison run() {
    out_.reference_id = reference_.id;
    out_.axis = options_.axis;
    if (options_.use_seed_groups) out_.groups = groups_of(runs_, curves_);
    take_noise_floors();
    out_.target_loss = options_.target_loss ? options_.target_loss
                                            : default_target(curves_[0].y, options_.target_factor);
    baseline_ = scaling_baseline(runs_);
    if (baseline_) out_.baseline_id = baseline_->id;
    out_.rows.push_back(reference_row());
    for (size_t i = 1; i < runs_.size(); ++i) out_.rows.push_back(compared_row(i));
    return std::move(out_);
  }

 private:
  // Each run's noise floor: the spread of the seed group it is in, if any.
  void take_noise_floors() {
    floor_.assign(runs_.size(), 0.0);
    floor_source_.assign(runs_.size(), "");
    group_of_.assign(runs_.size(), nullptr);
    for (const SeedGroup& g : out_.groups) {
      for (size_t i : g.indices) {
        if (g.spread < floor_[i]) continue;
        floor_[i] = g.spread;
        group_of_[i] = &g;
        floor_source_[i] = "spread of " + num(int64_t(g.indices.size())) + " seeds of " +
                           (i == 0 ? "the reference" : "this setup");
      }
    }
  }

  // What every row reports, the reference's too: finals, throughput, scaling, the target.
  RunComparison measured_row(size_t i) const {
    const CompareRun& run = *runs_[i];
    RunComparison row;
    row.id = run.id;
    row.label = run.label;
    if (!run.points.empty()) row.final_loss = run.points.back().loss;
    row.samples_per_s = throughput(run);
    row.per_device_samples_per_s = row.samples_per_s / std::max(1, run.config.num_processes);
    row.wall_time_s =
        run.wall_time_s > 0 ? run.wall_time_s : (run.points.empty() ? 0 : run.points.back().time_s);
    fill_target_crossing(run, curves_[i].y, out_.target_loss, row);
    if (baseline_ && row.samples_per_s > 0) {
      row.scaling_efficiency =
          row.samples_per_s / (std::max(1, run.config.num_processes) * throughput(*baseline_));
    }
    if (run.final_eval_loss && reference_.final_eval_loss) {
      row.final_eval_loss_delta = *run.final_eval_loss - *reference_.final_eval_loss;
    }
    if (run.final_accuracy && reference_.final_accuracy) {
      row.final_accuracy_delta = *run.final_accuracy - *reference_.final_accuracy;
    }
    return row;
  }

  RunComparison reference_row() const {
    RunComparison row = measured_row(0);
    row.verdict = Verdict::kReference;
    row.delta.axis = options_.axis;
    row.delta.reference_range = row.delta.run_range = row.delta.overlap = x_range(curves_[0]);
    row.summary = "reference" + (row.final_loss ? ": final loss " + num(*row.final_loss, 4) : "");
    return row;
  }

  // Measure the gap, decide against the allowed gap, explain from the config diff, summarise.
  RunComparison compared_row(size_t i) const {
    const CompareRun& run = *runs_[i];
    RunComparison row = measured_row(i);
    const Aligned aligned = align(curves_[i], curves_[0]);
    row.delta = stats_of(aligned, options_.axis, options_.range_note_fraction);
    row.epoch_delta = stats_of(align(epoch_curves_[i], epoch_curves_[0]), Axis::kEpoch,
                               options_.range_note_fraction);
    row.delta_curve = delta_of(aligned);
    row.config_diff = config_diff(run.config, reference_.config);
    const bool from_ref = floor_[0] >= floor_[i];
    row.noise_floor = from_ref ? floor_[0] : floor_[i];
    row.noise_source = from_ref ? floor_source_[0] : floor_source_[i];
    const SeedGroup* group = from_ref ? group_of_[0] : group_of_[i];
    row.worst_ratio = worst_ratio(aligned, group, &row.outside_fraction, &row.first_outside_x,
                                  &row.allowed_at_max);
    row.verdict = decide(row.delta, row.worst_ratio, group != nullptr, row.outside_fraction);
    if (group && row.verdict == Verdict::kEquivalent) check_final_eval(run, *group, row);
    explain(run, row);
    if (group && group->indices.size() == 2) {
      row.info.push_back(Reason{"seed_band", "the band is the gap between 2 seeds (" +
                                                 num(group->spread, 3) + "): a third seed of " +
                                                 (from_ref ? "the reference" : "this setup") +
                                                 " gives a band to judge by"});
    }
    row.summary = summary_of(row);
    return row;
  }

  // The allowed gap at aligned point k: the tolerance, or with a seed group the seeds' min-max
  // spread at that point (interpolated on their band) times noise_factor, whichever is larger.
  double allowed_at(const Aligned& a, size_t k, const SeedGroup* group) const {
    const double tolerance = options_.abs_tolerance + options_.rel_tolerance * std::abs(a.ref[k]);
    if (!group) return tolerance;
    return std::max(tolerance, options_.noise_factor * band_spread_at(group->band, a.x[k]));
  }

  // The band's width (hi - lo) at x, linearly interpolated; 0 outside the band.
  static double band_spread_at(const Band& b, double x) {
    if (b.x.empty() || x < b.x.front() || x > b.x.back()) return 0;
    const auto it = std::lower_bound(b.x.begin(), b.x.end(), x);
    const size_t j = static_cast<size_t>(it - b.x.begin());
    const double w_j = b.hi[j] - b.lo[j];
    if (j == 0 || b.x[j] == x) return w_j;
    const double w_i = b.hi[j - 1] - b.lo[j - 1];
    const double t = (x - b.x[j - 1]) / (b.x[j] - b.x[j - 1]);
    return w_i + t * (w_j - w_i);
  }

  // max over the finite points of |delta| / allowed; *outside = the share of points above 1,
  // *first = the x of the first of them.
  double worst_ratio(const Aligned& a, const SeedGroup* group, double* outside,
                     std::optional<double>* first, double* allowed_at_max) const {
    double worst = 0, largest = -1;
    size_t points = 0, above = 0;
    for_each_finite(a, [&](size_t k, double delta) {
      const double allowed = allowed_at(a, k, group);
      if (delta > largest) largest = delta, *allowed_at_max = allowed;
      const double ratio =
          allowed > 0 ? delta / allowed : (delta > 0 ? std::numeric_limits<double>::infinity() : 0);
      worst = std::max(worst, ratio);
      ++points;
      above += ratio > 1;
      if (ratio > 1 && !*first) *first = a.x[k];
    });
    *outside = points > 0 ? static_cast<double>(above) / static_cast<double>(points) : 0;
    return worst;
  }

  // With seeds: inside the band almost everywhere (at most kOutsideShare of the points above
  // it). Without: within the tolerance everywhere.
  static Verdict decide(const DeltaStats& d, double worst_ratio, bool seeds, double outside) {
    if (d.points == 0 && d.nonfinite_points == 0) return Verdict::kNotComparable;
    if (d.nonfinite_points > 0) return Verdict::kDifferent;
    if (seeds) return outside <= kOutsideShare ? Verdict::kEquivalent : Verdict::kDifferent;
    return worst_ratio > 1 ? Verdict::kDifferent : Verdict::kEquivalent;
  }

  // With seeds, equivalence also needs the final evaluation within the seeds' spread of theirs.
  void check_final_eval(const CompareRun& run, const SeedGroup& group, RunComparison& row) const {
    if (!run.final_eval_loss || !reference_.final_eval_loss) return;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    size_t with_eval = 0;
    for (size_t i : group.indices) {
      if (!runs_[i]->final_eval_loss) continue;
      lo = std::min(lo, *runs_[i]->final_eval_loss);
      hi = std::max(hi, *runs_[i]->final_eval_loss);
      ++with_eval;
    }
    if (with_eval < 2) return;
    row.eval_spread = hi - lo;
    const double gap = std::abs(*run.final_eval_loss - *reference_.final_eval_loss);
    const double allowed = std::max(
        options_.noise_factor * (hi - lo),
        options_.abs_tolerance + options_.rel_tolerance * std::abs(*reference_.final_eval_loss));
    if (gap <= allowed) return;
    row.verdict = Verdict::kDifferent;
    row.final_eval_outside = true;
  }

  // Different: the diagnosis' causes are the reasons (a diverged loss first; rounding or "a bug"
  // when there is none). Otherwise every difference is information. A range note leads the info.
  void explain(const CompareRun& run, RunComparison& row) const {
    Diagnosis diag = diagnose(run.config, reference_.config, run.train_size, reference_.train_size,
                              run.model, reference_.model);
    const DeltaStats& d = row.delta;
    if (row.verdict == Verdict::kDifferent) {
      row.reasons = std::move(diag.causes);
      if (d.nonfinite_points > 0) {
        row.reasons.insert(
            row.reasons.begin(),
            Reason{"loss", "loss is NaN or infinite at " + num(int64_t(d.nonfinite_points)) +
                               " compared points (diverged)"});
      }
      if (row.final_eval_outside) {
        row.reasons.insert(
            row.reasons.begin(),
            Reason{"final_eval", "final evaluation " + num(*row.final_eval_loss_delta, 3) +
                                     " vs the reference, outside the seeds' spread "
                                     "of final evaluations (" +
                                     num(*row.eval_spread, 3) + ")"});
      }
      if (row.reasons.empty()) {
        const Aligned aligned = align(curves_[index_of(run)], curves_[0]);
        const Parting parting = first_parting(aligned);
        row.reasons.push_back(
            no_cause(run.config, reference_.config, parting, where(aligned, parting.index)));
      }
      row.info = std::move(diag.info);
    } else {
      row.info = std::move(diag.causes);
      row.info.insert(row.info.end(), diag.info.begin(), diag.info.end());
    }
    if (d.different_ranges) row.info.insert(row.info.begin(), Reason{"range", d.range_note});
  }

  size_t index_of(const CompareRun& run) const {
    for (size_t i = 0; i < runs_.size(); ++i)
      if (runs_[i] == &run) return i;
    return 0;
  }

  // "step 17 of the reference (4,352 samples)": the reference point nearest aligned point i.
  std::string where(const Aligned& a, size_t i) const {
    if (i >= a.x.size()) return "the end";
    const Series& ref = curves_[0];
    size_t best = 0;
    for (size_t k = 0; k < ref.x.size(); ++k)
      if (std::abs(ref.x[k] - a.x[i]) < std::abs(ref.x[best] - a.x[i])) best = k;
    const int64_t step = best < reference_.points.size() ? reference_.points[best].step : 0;
    return "the reference's step " + num(step) + " (" + to_string(options_.axis) + " " +
           num(a.x[i]) + ")";
  }

  std::string summary_of(const RunComparison& row) const {
    const DeltaStats& d = row.delta;
    if (row.verdict == Verdict::kNotComparable) {
      return "not comparable: " + (d.range_note.empty() ? "an empty curve" : d.range_note);
    }
    const std::string gap =
        "max |Δloss| " + num(d.max_abs, 3) +
        (d.max_abs > 0 ? " at " + to_string(d.axis) + " " + num(d.x_at_max) : std::string());
    const std::string allowed = row.noise_source.empty()
                                    ? "tolerance " + num(options_.abs_tolerance, 3) + " + " +
                                          num(options_.rel_tolerance, 3) + "×|loss|"
                                    : row.noise_source + " (" + num(row.noise_floor, 3) + ")";
    std::string summary;
    if (row.verdict == Verdict::kEquivalent) {
      summary = (row.noise_source.empty() ? "equivalent within tolerance: "
                                          : "equivalent within seed noise: ") +
                gap + ", within " + allowed;
      if (!row.config_diff.empty()) summary += "; configs differ in: " + keys_of(row.config_diff);
    } else if (!row.noise_source.empty()) {
      // The band is as wide as the seeds' spread at each point: say how wide it is where the gap
      // is largest, and how much of the curve lies outside it.
      summary = "different: " + gap + ", where the band (" + row.noise_source + ") is " +
                num(row.allowed_at_max, 3) + " wide; outside the band at " +
                num(100 * row.outside_fraction, 3) + " % of the points (at most " +
                num(100 * kOutsideShare, 2) + " % allowed)";
    } else {
      summary = "different: " + gap + " (" + num(row.worst_ratio, 3) +
                "× the allowed gap: " + allowed + ")";
      for (const Reason& r : row.reasons) summary += "; " + r.text;
    }
    if (d.different_ranges) summary += "; " + d.range_note;
    return summary;
  }

  const CompareRun& reference_;
  const CompareOptions& options_;
  std::vector<const CompareRun*> runs_;        ///< 0 = the reference, then the others
  std::vector<Series> curves_, epoch_curves_;  ///< smoothed, on options_.axis and on epochs
  std::vector<double> floor_;                  ///< noise floor per run (0 = none)
  std::vector<const SeedGroup*> group_of_;     ///< the group giving it (nullptr = none)
  std::vector<std::string> floor_source_;
  const CompareRun* baseline_ = nullptr;
  Comparison out_;
};

}  // namespace

std::string to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kReference:
      return "reference";
    case Verdict::kEquivalent:
      return "equivalent";
    case Verdict::kDifferent:
      return "different";
    case Verdict::kNotComparable:
      return "not comparable";
  }
  return "not comparable";
}

Series curve(const CompareRun& run, Axis axis) {
  Series s;
  s.x.reserve(run.points.size());
  s.y.reserve(run.points.size());
  for (const CurvePoint& p : run.points) {
    switch (axis) {
      case Axis::kStep:
        s.x.push_back(static_cast<double>(p.step));
        break;
      case Axis::kSamples:
        s.x.push_back(p.samples);
        break;
      case Axis::kEpoch:
        s.x.push_back(p.epoch);
        break;
      case Axis::kWallTime:
        s.x.push_back(p.time_s);
        break;
    }
    s.y.push_back(p.loss);
  }
  return s;
}

Comparison compare(const CompareRun& reference, const std::vector<CompareRun>& others,
                   const CompareOptions& options) {
  check_options(options);
  return Comparer(reference, others, options).run();
}

}  // namespace parity::analysis
