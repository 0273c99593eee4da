#include <parity/analysis/verdict.h>
#include <parity/config/batch_plan.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "verdict_util.h"

namespace parity::engine {

using namespace verdict_detail;

namespace {

std::string keys_of(const std::vector<ConfigDiff>& diffs) {
  std::string out;
  for (const ConfigDiff& d : diffs) out += (out.empty() ? "" : ", ") + d.key;
  return out;
}

// The reference's points inside the overlap, with both losses.
struct Aligned {
  std::vector<double> x, ref, run;
};
Aligned align(const Series& run, const Series& reference) {
  Aligned a;
  const Resampled r = interpolate(run, reference.x);
  for (size_t i = 0; i < reference.x.size(); ++i) {
    if (!r.covered[i]) continue;
    a.x.push_back(reference.x[i]);
    a.ref.push_back(reference.y[i]);
    a.run.push_back(r.y[i]);
  }
  return a;
}

std::string span(const Range& r) { return num(r.lo) + "–" + num(r.hi); }

double symmetric_max_delta(const Series& a, const Series& b) {
  const auto one_way = [](const Series& run, const Series& ref) {
    return delta_stats(run, ref, Axis::kSamples).max_abs;
  };
  return std::max(one_way(a, b), one_way(b, a));
}

std::vector<SeedGroup> groups_of(const std::vector<const CompareRun*>& runs,
                                 const std::vector<Series>& curves) {
  std::vector<SeedGroup> groups;
  std::map<std::string, size_t> by_key;
  std::vector<std::set<std::pair<int64_t, int64_t>>> seeds;
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunConfig& c = runs[i]->config;
    const auto [it, inserted] = by_key.emplace(setup_key(c), groups.size());
    if (inserted) groups.emplace_back(), seeds.emplace_back();
    if (!seeds[it->second].emplace(c.seed, c.effective_data_seed()).second) continue;
    groups[it->second].indices.push_back(i);
    groups[it->second].run_ids.push_back(runs[i]->id);
  }
  std::vector<SeedGroup> out;
  for (SeedGroup& g : groups) {
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

void fill_run_metrics(const CompareRun& run, const std::vector<double>& loss,
                      std::optional<double> target, RunComparison& row) {
  if (!run.points.empty()) row.final_loss = run.points.back().loss;
  row.samples_per_s = throughput(run);
  row.per_device_samples_per_s = row.samples_per_s / std::max(1, run.config.num_processes);
  row.wall_time_s =
      run.wall_time_s > 0 ? run.wall_time_s : (run.points.empty() ? 0 : run.points.back().time_s);
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

}  // namespace

std::string to_string(Axis axis) {
  switch (axis) {
    case Axis::kStep:
      return "step";
    case Axis::kSamples:
      return "samples";
    case Axis::kEpoch:
      return "epoch";
    case Axis::kTime:
      return "time";
  }
  return "samples";
}

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
      case Axis::kTime:
        s.x.push_back(p.time_s);
        break;
    }
    s.y.push_back(p.loss);
  }
  return s;
}

DeltaStats delta_stats(const Series& run, const Series& reference, Axis axis,
                       double range_note_fraction) {
  DeltaStats d;
  d.axis = axis;
  d.reference_range = x_range(reference);
  d.run_range = x_range(run);
  d.overlap = overlap(d.reference_range, d.run_range);
  const Aligned a = align(run, reference);
  double sum = 0;
  for (size_t i = 0; i < a.x.size(); ++i) {
    if (!std::isfinite(a.ref[i]) || !std::isfinite(a.run[i])) {
      ++d.nonfinite_points;
      continue;
    }
    const double delta = std::abs(a.run[i] - a.ref[i]);
    const double rel = a.ref[i] != 0 ? delta / std::abs(a.ref[i]) : 0.0;
    if (d.points == 0 || delta > d.max_abs) {
      d.max_abs = delta;
      d.x_at_max = a.x[i];
    }
    d.max_rel = std::max(d.max_rel, rel);
    d.final_abs = delta;
    d.final_rel = rel;
    sum += delta;
    ++d.points;
  }
  if (d.points > 0) d.mean_abs = sum / static_cast<double>(d.points);
  if (d.reference_range.empty() || d.run_range.empty()) return d;
  const std::string name = to_string(axis);
  if (d.overlap.empty()) {
    d.different_ranges = true;
    d.range_note = "no overlap on " + name + ": this run " + span(d.run_range) + ", reference " +
                   span(d.reference_range);
    return d;
  }
  const double slack = range_note_fraction * d.reference_range.width();
  if (std::abs(d.run_range.lo - d.reference_range.lo) > slack ||
      std::abs(d.run_range.hi - d.reference_range.hi) > slack) {
    d.different_ranges = true;
    const double share =
        d.reference_range.width() > 0 ? 100 * d.overlap.width() / d.reference_range.width() : 100.0;
    d.range_note = "runs cover different " + name + " ranges: this run " + span(d.run_range) +
                   ", reference " + span(d.reference_range) + "; compared on " + span(d.overlap) +
                   " only (" + num(share, 3) + "% of the reference)";
  }
  return d;
}

Series delta_curve(const Series& run, const Series& reference) {
  const Aligned a = align(run, reference);
  Series out{a.x, {}};
  out.y.reserve(a.x.size());
  for (size_t i = 0; i < a.x.size(); ++i) out.y.push_back(a.run[i] - a.ref[i]);
  return out;
}

std::vector<SeedGroup> seed_groups(const std::vector<CompareRun>& runs,
                                   const SeedGroupOptions& options) {
  std::vector<const CompareRun*> pointers;
  std::vector<Series> curves;
  for (const CompareRun& r : runs) {
    pointers.push_back(&r);
    curves.push_back(smoothed_curve(r, options.axis, options.ema_weight));
  }
  return groups_of(pointers, curves);
}

Comparison compare(const CompareRun& reference, const std::vector<CompareRun>& others,
                   const CompareOptions& options) {
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
  std::vector<const CompareRun*> runs{&reference};
  for (const CompareRun& r : others) runs.push_back(&r);
  std::vector<Series> curves, epoch_curves;
  for (const CompareRun* r : runs) {
    curves.push_back(smoothed_curve(*r, options.axis, options.ema_weight));
    epoch_curves.push_back(smoothed_curve(*r, Axis::kEpoch, options.ema_weight));
  }

  Comparison out;
  out.reference_id = reference.id;
  out.axis = options.axis;
  if (options.use_seed_groups) out.groups = groups_of(runs, curves);
  std::vector<double> floor(runs.size(), 0.0);
  std::vector<std::string> floor_source(runs.size());
  for (const SeedGroup& g : out.groups) {
    for (size_t i : g.indices) {
      if (g.spread < floor[i]) continue;
      floor[i] = g.spread;
      floor_source[i] = "spread of " + num(int64_t(g.indices.size())) + " seeds of " +
                        (i == 0 ? "the reference" : "this setup");
    }
  }

  const std::vector<double>& ref_loss = curves[0].y;
  if (options.target_loss) {
    out.target_loss = options.target_loss;
  } else if (!ref_loss.empty()) {
    const size_t tail = std::max<size_t>(1, ref_loss.size() / 20);
    double sum = 0;
    size_t n = 0;
    for (size_t i = ref_loss.size() - tail; i < ref_loss.size(); ++i) {
      if (std::isfinite(ref_loss[i])) sum += ref_loss[i], ++n;
    }
    if (n > 0) out.target_loss = options.target_factor * sum / static_cast<double>(n);
  }

  // Scaling baseline: a single-process run, preferably of the same per-device shape.
  const CompareRun* baseline = nullptr;
  for (const CompareRun* r : runs) {
    const RunConfig& c = r->config;
    if (c.num_processes != 1 || throughput(*r) <= 0) continue;
    const bool same_shape = std::any_of(runs.begin(), runs.end(), [&](const CompareRun* o) {
      return o->config.num_processes > 1 &&
             o->config.per_device_batch_size == c.per_device_batch_size &&
             o->config.device == c.device && o->config.mixed_precision == c.mixed_precision;
    });
    if (!baseline || same_shape) baseline = r;
    if (same_shape) break;
  }
  if (baseline) out.baseline_id = baseline->id;

  for (size_t i = 0; i < runs.size(); ++i) {
    const CompareRun& run = *runs[i];
    RunComparison row;
    row.id = run.id;
    row.label = run.label;
    fill_run_metrics(run, curves[i].y, out.target_loss, row);
    if (baseline && row.samples_per_s > 0) {
      row.scaling_efficiency =
          row.samples_per_s / (std::max(1, run.config.num_processes) * throughput(*baseline));
    }
    if (run.final_eval_loss && reference.final_eval_loss) {
      row.final_eval_loss_delta = *run.final_eval_loss - *reference.final_eval_loss;
    }
    if (run.final_accuracy && reference.final_accuracy) {
      row.final_accuracy_delta = *run.final_accuracy - *reference.final_accuracy;
    }
    if (i == 0) {
      row.verdict = Verdict::kReference;
      row.delta.axis = options.axis;
      row.delta.reference_range = row.delta.run_range = row.delta.overlap = x_range(curves[0]);
      row.summary = "reference" + (row.final_loss ? ": final loss " + num(*row.final_loss, 4) : "");
      out.rows.push_back(std::move(row));
      continue;
    }
    row.delta = delta_stats(curves[i], curves[0], options.axis, options.range_note_fraction);
    row.epoch_delta =
        delta_stats(epoch_curves[i], epoch_curves[0], Axis::kEpoch, options.range_note_fraction);
    row.delta_curve = delta_curve(curves[i], curves[0]);
    row.config_diff = config_diff(run.config, reference.config);
    const bool from_ref = floor[0] >= floor[i];
    row.noise_floor = from_ref ? floor[0] : floor[i];
    row.noise_source = from_ref ? floor_source[0] : floor_source[i];

    const Aligned a = align(curves[i], curves[0]);
    for (size_t k = 0; k < a.x.size(); ++k) {
      if (!std::isfinite(a.ref[k]) || !std::isfinite(a.run[k])) continue;
      const double allowed =
          std::max(options.noise_factor * row.noise_floor,
                   options.abs_tolerance + options.rel_tolerance * std::abs(a.ref[k]));
      const double delta = std::abs(a.run[k] - a.ref[k]);
      const double ratio =
          allowed > 0 ? delta / allowed : (delta > 0 ? std::numeric_limits<double>::infinity() : 0);
      row.worst_ratio = std::max(row.worst_ratio, ratio);
    }

    Diagnosis diag = diagnose(run.config, reference.config, run.train_size, reference.train_size);
    const DeltaStats& d = row.delta;
    if (d.points == 0 && d.nonfinite_points == 0) {
      row.verdict = Verdict::kNotComparable;
    } else if (d.nonfinite_points > 0 || row.worst_ratio > 1) {
      row.verdict = Verdict::kDifferent;
    } else {
      row.verdict = Verdict::kEquivalent;
    }
    if (row.verdict == Verdict::kDifferent) {
      row.reasons = std::move(diag.causes);
      if (d.nonfinite_points > 0) {
        row.reasons.insert(
            row.reasons.begin(),
            Reason{"loss", "loss is NaN or infinite at " + num(int64_t(d.nonfinite_points)) +
                               " compared points (diverged)"});
      }
      if (row.reasons.empty()) {
        // Same arithmetic but another summation order (ranks, slices, micro-batches): fp32
        // rounding of ~1e-7 per step can grow through training. Say so before crying bug.
        const RunConfig& a = run.config;
        const RunConfig& b = reference.config;
        const bool reordered = a.num_processes != b.num_processes ||
                               a.per_device_batch_size != b.per_device_batch_size ||
                               a.gradient_accumulation_steps != b.gradient_accumulation_steps ||
                               a.split_batches != b.split_batches;
        row.reasons.push_back(
            reordered
                ? Reason{"rounding",
                         "same arithmetic, different summation order (processes, per-device "
                         "batch or accumulation): fp32 rounding grows through training; compare "
                         "smoothed curves (EMA) and the final evaluation — a large gap means a bug"}
                : Reason{"unexplained",
                         "the configs match in every key that changes the arithmetic: "
                         "suspect a bug or nondeterminism"});
      }
      row.info = std::move(diag.info);
    } else {
      row.info = std::move(diag.causes);
      row.info.insert(row.info.end(), diag.info.begin(), diag.info.end());
    }
    if (d.different_ranges) row.info.insert(row.info.begin(), Reason{"range", d.range_note});

    const std::string gap =
        "max |Δloss| " + num(d.max_abs, 3) +
        (d.max_abs > 0 ? " at " + to_string(d.axis) + " " + num(d.x_at_max) : std::string());
    const std::string allowed = row.noise_source.empty()
                                    ? "tolerance " + num(options.abs_tolerance, 3) + " + " +
                                          num(options.rel_tolerance, 3) + "×|loss|"
                                    : row.noise_source + " (" + num(row.noise_floor, 3) + ")";
    switch (row.verdict) {
      case Verdict::kNotComparable:
        row.summary = "not comparable: " + (d.range_note.empty() ? "an empty curve" : d.range_note);
        break;
      case Verdict::kEquivalent:
        row.summary = (row.noise_source.empty() ? "equivalent within tolerance: "
                                                : "equivalent within seed noise: ") +
                      gap + ", within " + allowed;
        if (!row.config_diff.empty()) {
          row.summary += "; configs differ in: " + keys_of(row.config_diff);
        }
        break;
      default: {
        row.summary = "different: " + gap + " (" + num(row.worst_ratio, 3) +
                      "× the allowed gap: " + allowed + ")";
        for (const Reason& r : row.reasons) row.summary += "; " + r.text;
        break;
      }
    }
    if (d.different_ranges && row.verdict != Verdict::kNotComparable) {
      row.summary += "; " + d.range_note;
    }
    out.rows.push_back(std::move(row));
  }
  return out;
}

DeterminismResult first_difference(const std::vector<CurvePoint>& a,
                                   const std::vector<CurvePoint>& b) {
  DeterminismResult r;
  r.points = a.size();
  r.other_points = b.size();
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const bool same_step = a[i].step == b[i].step;
    if (same_step && std::memcmp(&a[i].loss, &b[i].loss, sizeof(double)) == 0) continue;
    r.first_step = std::min(a[i].step, b[i].step);
    r.loss = a[i].loss;
    r.other_loss = b[i].loss;
    r.abs_diff = std::abs(a[i].loss - b[i].loss);
    r.summary = same_step ? "first difference at step " + num(a[i].step) + ": loss " +
                                num(a[i].loss, 17) + " vs " + num(b[i].loss, 17) + " (|Δ| " +
                                num(r.abs_diff, 3) + ")"
                          : "step numbers diverge after " + num(int64_t(i)) + " points: step " +
                                num(a[i].step) + " vs " + num(b[i].step);
    return r;
  }
  if (a.size() == b.size()) {
    r.identical = true;
    r.summary = "bitwise identical (" + num(int64_t(n)) + " steps)";
    return r;
  }
  const bool a_longer = a.size() > b.size();
  const CurvePoint& extra = a_longer ? a[n] : b[n];
  r.first_step = extra.step;
  r.loss = a_longer ? extra.loss : kNaN;
  r.other_loss = a_longer ? kNaN : extra.loss;
  r.abs_diff = kNaN;
  r.summary = "identical for the first " + num(int64_t(n)) + " steps, then only " +
              (a_longer ? "the first" : "the second") + " run has step " + num(extra.step) + " (" +
              num(int64_t(a.size())) + " vs " + num(int64_t(b.size())) + " steps)";
  return r;
}

}  // namespace parity::engine
