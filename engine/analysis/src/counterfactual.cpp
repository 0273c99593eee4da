#include <parity/analysis/counterfactual.h>
#include <parity/config/batch_plan.h>
#include <parity/config/lr_schedule.h>

#include <algorithm>
#include <cmath>

#include "verdict_util.h"

namespace parity::analysis {
namespace {

using namespace verdict_detail;

struct Change {
  std::string words;
  std::optional<config::RunConfig> config;
  std::string why_not;
};

Change refused(std::string why) { return {"", std::nullopt, std::move(why)}; }

// Samples per scheduler step: how fast a schedule written in scheduler steps is run through.
double pace(const config::RunConfig& c) {
  return static_cast<double>(config::global_batch_size(c)) /
         config::scheduler_steps_per_optimizer_step(c);
}

Change align_global_batch(const config::RunConfig& run, const config::RunConfig& ref) {
  const int64_t g_ref = config::global_batch_size(ref);
  const int w = run.num_processes, k = run.gradient_accumulation_steps;
  config::RunConfig c = run;
  if (run.split_batches) {
    if (g_ref % k != 0 || (g_ref / k) % w != 0) {
      return refused("no split batch on " + processes(w) + " gives a global batch of " +
                     num(g_ref));
    }
    c.per_device_batch_size = g_ref / k;
  } else if (const auto b = config::equivalent_per_device_batch(g_ref, w, k)) {
    c.per_device_batch_size = *b;
  } else {
    return refused("no per-device batch on " + processes(w) +
                   (k > 1 ? " with accumulation " + num(int64_t{k}) : "") + " gives " + num(g_ref));
  }
  return {"per-device batch " + num(run.per_device_batch_size) + " -> " +
              num(c.per_device_batch_size) + " (global " + num(g_ref) + ")",
          c, ""};
}

// At the same global batch, the reference's effective lr; at another, the reference's scaled
// linearly with the global batch (the scaling the run's lr missed or overdid).
Change align_lr(const config::RunConfig& run, const config::RunConfig& ref) {
  config::RunConfig c = run;
  c.lr_scaling = config::LrScaling::kNone;
  const double g = static_cast<double>(config::global_batch_size(run));
  const double g_ref = static_cast<double>(config::global_batch_size(ref));
  c.lr = config::effective_lr(ref) * g / g_ref;
  return {"effective lr " + num(config::effective_lr(run)) + " -> " + num(c.lr) +
              (g != g_ref ? " (the reference's, scaled linearly with the global batch)" : ""),
          c, ""};
}

// The reference's schedule, in this run's scheduler steps: its length and warm-up scaled by the
// ratio of the paces, so the lr at equal samples seen is the reference's.
Change align_schedule(const config::RunConfig& run, const config::RunConfig& ref,
                      std::optional<int64_t> n, std::optional<int64_t> n_ref) {
  if (!n_ref) return refused("the reference's training-set size is unknown");
  const double ratio = pace(ref) / pace(run);
  const double length = static_cast<double>(config::schedule_length(ref, *n_ref)) * ratio;
  const double warmup = static_cast<double>(ref.warmup_steps) * ratio;
  if (std::abs(length - std::round(length)) > 1e-9 ||
      std::abs(warmup - std::round(warmup)) > 1e-9) {
    return refused("the reference's schedule (" + num(config::schedule_length(ref, *n_ref)) +
                   " scheduler steps) is not a whole number of this run's (x " + num(ratio) + ")");
  }
  config::RunConfig c = run;
  c.scheduler = ref.scheduler;
  c.num_training_steps = static_cast<int64_t>(std::llround(length));
  c.warmup_steps = static_cast<int64_t>(std::llround(warmup));
  c.scheduler_step_size =
      static_cast<int64_t>(std::llround(static_cast<double>(ref.scheduler_step_size) * ratio));
  c.scheduler_gamma = ref.scheduler_gamma;
  c.pct_start = ref.pct_start;
  c.div_factor = ref.div_factor;
  c.final_div_factor = ref.final_div_factor;
  (void)n;
  return {"schedule over " + num(c.num_training_steps) + " scheduler steps (warm-up " +
              num(c.warmup_steps) + "): the reference's lr at equal samples seen",
          c, ""};
}

// The reference's value of one config key, set through the config's own text reader.
Change align_key(const config::RunConfig& run, const config::RunConfig& ref,
                 const std::string& key) {
  for (const ConfigDiff& d : config_diff(run, ref)) {
    if (d.key != key) continue;
    config::RunConfig c = run;
    try {
      if (key == "data_seed" && !ref.data_seed) {
        c.data_seed.reset();
      } else {
        config::set_field_from_text(c, key, d.reference == "(unset)" ? "" : d.reference);
      }
    } catch (const config::ConfigError& e) {
      return refused(e.what());
    }
    return {key + " " + d.value + " -> " + d.reference, c, ""};
  }
  return refused(key + " does not differ");
}

Change align(const Reason& cause, const config::RunConfig& run, const config::RunConfig& ref,
             std::optional<int64_t> n, std::optional<int64_t> n_ref) {
  const std::string& key = cause.key;
  if (key == "global_batch") return align_global_batch(run, ref);
  if (key == "effective_lr") return align_lr(run, ref);
  if (key == "lr_schedule" || key == "scheduler_pace") return align_schedule(run, ref, n, n_ref);
  if (key == "seed") {
    config::RunConfig c = run;
    c.seed = ref.seed;
    c.data_seed = ref.data_seed;
    return {"seed " + num(run.seed) + " -> " + num(ref.seed), c, ""};
  }
  if (key == "padding") {
    if (!(run.even_batches && config::samples_per_micro_step(run) > 1)) {
      return refused("the reference pads, not this run: align the reference instead");
    }
    // No repeats, and the short last batch weighted by its real size on every rank: the single
    // device's short batch, exactly.
    config::RunConfig c = run;
    c.even_batches = false;
    c.loss_normalization = config::LossNormalization::kGlobal;
    return {"even_batches false with global loss normalisation (no repeated samples)", c, ""};
  }
  if (key == "gradient_accumulation_steps" || key == "loss_normalization") {
    config::RunConfig c = run;
    c.loss_normalization = config::LossNormalization::kGlobal;
    if (ref.loss_normalization == config::LossNormalization::kGlobal ||
        run.loss_normalization != config::LossNormalization::kGlobal) {
      return {"loss normalisation global (every item of the step weighs the same)", c, ""};
    }
    return align_key(run, ref, "loss_normalization");
  }
  if (key == "dropped") return align_key(run, ref, "drop_last");
  if (key == "batch_norm") {
    return refused("batch-norm statistics over " + num(config::per_rank_micro_batch(run)) +
                   " samples cannot equal those over " + num(config::per_rank_micro_batch(ref)) +
                   " on " + processes(run.num_processes) +
                   "; compare at equal per-device batch, or without batch norm");
  }
  if (key == "dropout") {
    return refused(
        "dropout masks differ whenever the batch is cut differently; only a seed "
        "group (several seeds of each setup) can show the runs agree statistically");
  }
  if (key == "rounding" || key == "unexplained" || key == "loss" || key == "range") {
    return refused("no config difference to align");
  }
  if (key == "final_eval") {
    return refused(
        "the final evaluation is where the gap shows, not a setting; the causes "
        "listed with it are tested");
  }
  return align_key(run, ref, key);  // seeds, precision, device, experiment keys
}

}  // namespace

std::vector<Counterfactual> counterfactuals(const config::RunConfig& run,
                                            const config::RunConfig& reference,
                                            const std::vector<Reason>& causes,
                                            std::optional<int64_t> train_size,
                                            std::optional<int64_t> reference_train_size) {
  std::vector<Counterfactual> out;
  size_t testable = 0;
  for (const Reason& cause : causes) {
    const Change change = align(cause, run, reference, train_size, reference_train_size);
    out.push_back({cause.key, change.words, change.config, change.why_not});
    testable += change.config.has_value();
  }
  if (testable < 2) return out;
  // Every cause at once: aligned and diagnosed again until none is left that a change of this
  // run can align (aligning one can uncover another: a smaller per-device batch halves the
  // samples a warm-up step lasts).
  config::RunConfig all = run;
  std::vector<std::string> words;
  std::vector<std::string> touched;  // keys a change set: later changes may not undo them
  for (int round = 0; round < 6; ++round) {
    bool changed = false;
    for (const Reason& cause : diagnose(all, reference, train_size, reference_train_size).causes) {
      const Change change = align(cause, all, reference, train_size, reference_train_size);
      if (!change.config) continue;
      const std::vector<ConfigDiff> diff = config_diff(*change.config, all);
      const bool undoes = std::any_of(diff.begin(), diff.end(), [&](const ConfigDiff& d) {
        return std::find(touched.begin(), touched.end(), d.key) != touched.end();
      });
      if (diff.empty() || undoes) continue;
      for (const ConfigDiff& d : diff) touched.push_back(d.key);
      all = *change.config;
      words.push_back(change.words);
      changed = true;
    }
    if (!changed) break;
  }
  std::string text;
  for (const auto& w : words) text += (text.empty() ? "" : "; ") + w;
  out.push_back({"all", text, all, ""});
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
