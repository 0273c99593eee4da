#include <parity/engine/batch_plan.h>
#include <parity/engine/verdict.h>

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

namespace parity::engine {
namespace {

using ordered_json = nlohmann::ordered_json;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string num(double v, int digits = 6) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}
std::string num(int64_t v) { return std::to_string(v); }
std::string processes(int w) { return num(int64_t{w}) + (w == 1 ? " process" : " processes"); }
std::string precision_name(MixedPrecision p) {
  return p == MixedPrecision::kNo ? "fp32" : to_string(p);
}
bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), 1.0); }

std::string show(const ordered_json& v) {
  if (v.is_null()) return "(unset)";
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// Flattens nested objects into "outer.inner" keys, keeping order.
void flatten(const ordered_json& j, const std::string& prefix, ordered_json& out) {
  for (const auto& [key, value] : j.items()) {
    if (value.is_object()) {
      flatten(value, prefix + key + ".", out);
    } else {
      out[prefix + key] = value;
    }
  }
}
ordered_json flat_json(const RunConfig& c) {
  ordered_json out = ordered_json::object();
  flatten(ordered_json::parse(to_json(c, -1)), "", out);
  out.erase("label");
  return out;
}

// Setup key without the seeds: equal keys <=> same_setup_except_seed().
std::string setup_key(const RunConfig& c) {
  ordered_json j = flat_json(c);
  j.erase("seed");
  j.erase("data_seed");
  return j.dump();
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

// The plan of a stored run, or nullopt when the size is unknown or the config is refused (the
// verdict then skips the checks that need it rather than failing).
std::optional<SetupPlan> plan_or_none(const RunConfig& c, std::optional<int64_t> n) {
  if (!n || *n <= 0) return std::nullopt;
  try {
    return plan_setup(c, *n);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// True when n samples cut into whole micro-batch groups on every rank (no tail to handle).
bool whole_steps(const RunConfig& c, int64_t n) {
  const int64_t per_step =
      c.split_batches ? c.per_device_batch_size : c.per_device_batch_size * c.num_processes;
  return per_step > 0 && n % per_step == 0;
}

std::string keys_of(const std::vector<ConfigDiff>& diffs) {
  std::string out;
  for (const ConfigDiff& d : diffs) out += (out.empty() ? "" : ", ") + d.key;
  return out;
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

std::vector<ConfigDiff> config_diff(const RunConfig& a, const RunConfig& reference) {
  const ordered_json ja = flat_json(a), jb = flat_json(reference);
  std::vector<ConfigDiff> out;
  for (const auto& [key, value] : ja.items()) {
    const auto other = jb.find(key);
    if (other == jb.end()) {
      out.push_back({key, show(value), "(unset)"});
    } else if (*other != value) {
      out.push_back({key, show(value), show(*other)});
    }
  }
  for (const auto& [key, value] : jb.items()) {
    if (!ja.contains(key)) out.push_back({key, "(unset)", show(value)});
  }
  return out;
}

bool same_setup_except_seed(const RunConfig& a, const RunConfig& b) {
  return setup_key(a) == setup_key(b);
}

Diagnosis diagnose(const RunConfig& config, const RunConfig& reference,
                   std::optional<int64_t> train_size, std::optional<int64_t> reference_train_size) {
  Diagnosis d;
  const auto cause = [&](std::string key, std::string text) {
    d.causes.push_back({std::move(key), std::move(text)});
  };
  const auto info = [&](std::string key, std::string text) {
    d.info.push_back({std::move(key), std::move(text)});
  };
  const int64_t g = global_batch_size(config), g_ref = global_batch_size(reference);
  const double lr = effective_lr(config), lr_ref = effective_lr(reference);
  const int w = config.num_processes, w_ref = reference.num_processes;
  const int k = config.gradient_accumulation_steps;
  const bool same_batch = g == g_ref, same_lr = close(lr, lr_ref);
  if (!train_size) train_size = known_train_size(config);
  if (!reference_train_size) reference_train_size = known_train_size(reference);
  std::optional<SetupPlan> plan = plan_or_none(config, train_size);
  std::optional<SetupPlan> plan_ref = plan_or_none(reference, reference_train_size);
  const bool plans = plan && plan_ref;

  if (!same_batch) {
    std::string hint;
    if (config.split_batches) {
      // With split_batches the per-device batch is global and must divide by the processes.
      if (g_ref % k == 0 && (g_ref / k) % w == 0) {
        hint = "per_device_batch_size " + num(g_ref / k) + " with split_batches";
      }
    } else if (const auto b = equivalent_per_device_batch(g_ref, w, k)) {
      hint = "per-device batch " + num(*b) + " on " + processes(w) +
             (k > 1 ? " with accumulation " + num(int64_t{k}) : "");
    }
    cause("global_batch",
          "global batch " + num(g) + " vs " + num(g_ref) + " (" +
              (hint.empty() ? "no per-device batch on " + processes(w) + " gives " + num(g_ref)
                            : hint + " would match") +
              ")");
  }
  const std::string lrs =
      "lr " + num(lr) + " on " + processes(w) + " vs " + num(lr_ref) + " on " + num(int64_t{w_ref});
  const double linear =
      lr_ref * static_cast<double>(g) / static_cast<double>(std::max<int64_t>(1, g_ref));
  if (same_batch && !same_lr) {
    cause("effective_lr",
          "learning rate scaled differently at the same global batch (" + lrs + ")");
  } else if (!same_batch && same_lr && w != w_ref) {
    cause("effective_lr", "learning rate not scaled with the number of processes (" + lrs +
                              "; linear scaling would give " + num(linear) + ")");
  } else if (!same_batch && !same_lr) {
    if (close(lr, linear)) {
      info("effective_lr", "learning rate scaled linearly with the global batch (" + lrs + ")");
    } else {
      cause("effective_lr", "learning rate scaled differently (" + lrs +
                                "; linear scaling would give " + num(linear) + ")");
    }
  }
  const bool scheduled = config.scheduler != SchedulerKind::kConstant || config.warmup_steps > 0 ||
                         reference.scheduler != SchedulerKind::kConstant ||
                         reference.warmup_steps > 0;
  const double pace = static_cast<double>(g) / scheduler_steps_per_optimizer_step(config);
  const double pace_ref =
      static_cast<double>(g_ref) / scheduler_steps_per_optimizer_step(reference);
  if (scheduled && !close(pace, pace_ref)) {
    cause("scheduler_pace", "scheduler paced differently: one scheduler step per " + num(pace) +
                                " vs " + num(pace_ref) +
                                " samples (schedules are written in single-process steps)");
  }
  const bool tails_differ = plans && (plan->padded_samples != plan_ref->padded_samples ||
                                      plan->dropped_samples != plan_ref->dropped_samples);
  if (plans && plan->padded_samples != plan_ref->padded_samples) {
    const bool mine = plan->padded_samples > 0;
    const RunConfig& c = mine ? config : reference;
    const int64_t n = mine ? *train_size : *reference_train_size;
    const int64_t per_step =
        c.split_batches ? c.per_device_batch_size : c.per_device_batch_size * c.num_processes;
    cause("padding",
          std::string(mine ? "" : "reference: ") + "dataset size " + num(n) +
              " does not divide by " +
              (c.gradient_accumulation_steps == 1 ? "global batch " : "batch x processes ") +
              num(per_step) + ": even_batches repeats samples (" + num(plan->padded_samples) +
              " vs " + num(plan_ref->padded_samples) + " per epoch)");
  }
  if (plans && plan->dropped_samples != plan_ref->dropped_samples) {
    cause("dropped", "drop_last drops " + num(plan->dropped_samples) + " vs " +
                         num(plan_ref->dropped_samples) + " samples per epoch");
  }

  for (const ConfigDiff& diff : config_diff(config, reference)) {
    const std::string& key = diff.key;
    const std::string vs = diff.value + " vs " + diff.reference;
    if (key == "seed") {
      cause(key,
            "seeds differ (" + vs + ")" +
                (config.effective_data_seed() == reference.effective_data_seed()
                     ? "; same shuffle order (data_seed " + num(config.effective_data_seed()) + ")"
                     : ""));
    } else if (key == "data_seed") {
      if (config.effective_data_seed() != reference.effective_data_seed()) {
        cause(key, "shuffle order differs (data_seed " + num(config.effective_data_seed()) +
                       " vs " + num(reference.effective_data_seed()) + ")");
      } else {
        info(key, "data_seed " + vs + ": same effective shuffle seed");
      }
    } else if (key == "device_specific_seed") {
      cause(key, "device_specific_seed " + vs + ": per-rank model and dropout seeds differ");
    } else if (key == "mixed_precision") {
      cause(key, "precision differs: " + precision_name(config.mixed_precision) + " vs " +
                     precision_name(reference.mixed_precision) + " — small differences expected");
    } else if (key == "device") {
      cause(key, "device " + vs + " — small differences expected (different kernels)");
    } else if (key == "gradient_accumulation_steps") {
      if (!same_batch) {
        cause(key, "gradient accumulation " + vs);
      } else if (plans && (plan->short_last_accumulation || plan_ref->short_last_accumulation)) {
        cause(key, "gradient accumulation " + vs +
                       ": the epoch's last group is shorter and under-weighted");
      } else {
        info(key, "gradient accumulation " + vs + " at the same global batch " + num(g));
      }
    } else if (key == "num_processes") {
      info(key, "num_processes " + vs +
                    (same_batch && same_lr && !tails_differ
                         ? " with the same global batch " + num(g) + " and effective lr " +
                               num(lr) + ": same arithmetic"
                         : ""));
    } else if (key == "split_batches" || key == "even_batches" || key == "drop_last") {
      // The flags only touch the epoch's tail: no effect when every step is a full batch.
      const bool no_effect = train_size && reference_train_size &&
                             whole_steps(config, *train_size) &&
                             whole_steps(reference, *reference_train_size) &&
                             (key != "split_batches" || (same_batch && !scheduled));
      if (no_effect) {
        info(key, key + " " + vs + ": no effect at this dataset size");
      } else {
        cause(key, key + " differs (" + vs + ")");
      }
    } else if (key == "per_device_batch_size" || key == "lr" || key == "lr_scaling" ||
               key == "epochs" || key == "max_steps" || key == "eval_every_epoch") {
      // Covered by global_batch / effective_lr, or does not change the per-step arithmetic
      // (run length, evaluation).
      info(key, key + " " + vs);
    } else {
      cause(key, key + " " + vs + " (the experiment differs)");
    }
  }
  return d;
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
        row.reasons.push_back({"unexplained",
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
