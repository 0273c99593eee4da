#include "alignments.h"

#include <parity/analysis/verdict.h>
#include <parity/config/batch_plan.h>
#include <parity/config/lr_schedule.h>
#include <parity/config/sampler.h>

#include <cmath>

#include "verdict_util.h"

namespace parity::analysis::verdict_detail {
namespace {

// Samples per scheduler step: how fast a schedule written in scheduler steps is run through.
double pace(const config::RunConfig& c) {
  return static_cast<double>(config::global_batch_size(c)) /
         config::scheduler_steps_per_optimizer_step(c);
}

// Sets one field from text as the command line does; a refusal names the field.
bool set_field(config::RunConfig& c, const std::string& key, const std::string& text,
               std::string* error) {
  try {
    config::set_field_from_text(c, key, text);
    return true;
  } catch (const config::ConfigError& e) {
    *error = e.what();
    return false;
  }
}

}  // namespace

Change align_global_batch(const AlignInput& in, const std::string&) {
  const config::RunConfig& run = in.run;
  const int64_t g_ref = config::global_batch_size(in.reference);
  const int w = run.num_processes, k = run.gradient_accumulation_steps;
  int64_t b = 0;
  if (run.split_batches) {
    if (g_ref % k != 0 || (g_ref / k) % w != 0) {
      return refused("no split batch on " + processes(w) + " gives a global batch of " +
                     num(g_ref));
    }
    b = g_ref / k;
  } else if (const auto e = config::equivalent_per_device_batch(g_ref, w, k)) {
    b = *e;
  } else {
    return refused("no per-device batch on " + processes(w) +
                   (k > 1 ? " with accumulation " + num(int64_t{k}) : "") + " gives " + num(g_ref));
  }
  config::RunConfig c = run;
  std::string error;
  if (!set_field(c, "per_device_batch_size", num(b), &error)) return refused(error);
  return {"per-device batch " + num(run.per_device_batch_size) + " -> " + num(b) + " (global " +
              num(g_ref) + ")",
          c, ""};
}

// At the same global batch, the reference's effective lr; at another, the reference's scaled
// linearly with the global batch (the scaling the run's lr missed or overdid).
Change align_lr(const AlignInput& in, const std::string&) {
  config::RunConfig c = in.run;
  const double g = static_cast<double>(config::global_batch_size(in.run));
  const double g_ref = static_cast<double>(config::global_batch_size(in.reference));
  const double lr = config::effective_lr(in.reference) * g / g_ref;
  std::string error;
  if (!set_field(c, "lr_scaling", "none", &error) || !set_field(c, "lr", num(lr, 17), &error)) {
    return refused(error);
  }
  return {"effective lr " + num(config::effective_lr(in.run)) + " -> " + num(c.lr) +
              (g != g_ref ? " (the reference's " + num(config::effective_lr(in.reference)) +
                                " scaled linearly with the global batch, " + num(g) + " vs " +
                                num(g_ref) + ")"
                          : ""),
          c, ""};
}

// The reference's schedule, in this run's scheduler steps: its length and warm-up scaled by the
// ratio of the paces, so the lr at equal samples seen is the reference's.
Change align_schedule(const AlignInput& in, const std::string&) {
  const config::RunConfig& ref = in.reference;
  if (!in.n_ref) return refused("the reference's training-set size is unknown");
  const double ratio = pace(ref) / pace(in.run);
  const double length = static_cast<double>(config::schedule_length(ref, *in.n_ref)) * ratio;
  const double warmup = static_cast<double>(ref.warmup_steps) * ratio;
  if (std::abs(length - std::round(length)) > 1e-9 ||
      std::abs(warmup - std::round(warmup)) > 1e-9) {
    return refused("the reference's schedule (" + num(config::schedule_length(ref, *in.n_ref)) +
                   " scheduler steps) is not a whole number of this run's (x " + num(ratio) + ")");
  }
  const auto scaled = [&](double v) { return num(static_cast<int64_t>(std::llround(v))); };
  config::RunConfig c = in.run;
  std::string error;
  const std::pair<const char*, std::string> fields[] = {
      {"scheduler", config::field_text(ref, "scheduler")},
      {"num_training_steps", scaled(length)},
      {"warmup_steps", scaled(warmup)},
      {"scheduler_step_size", scaled(static_cast<double>(ref.scheduler_step_size) * ratio)},
      {"scheduler_gamma", config::field_text(ref, "scheduler_gamma")},
      {"pct_start", config::field_text(ref, "pct_start")},
      {"div_factor", config::field_text(ref, "div_factor")},
      {"final_div_factor", config::field_text(ref, "final_div_factor")},
  };
  for (const auto& [key, text] : fields) {
    if (!set_field(c, key, text, &error)) return refused(error);
  }
  return {"schedule over " + num(c.num_training_steps) + " scheduler steps (warm-up " +
              num(c.warmup_steps) + "): the reference's lr at equal samples seen",
          c, ""};
}

Change align_seed(const AlignInput& in, const std::string&) {
  config::RunConfig c = in.run;
  std::string error;
  if (!set_field(c, "seed", config::field_text(in.reference, "seed"), &error)) {
    return refused(error);
  }
  c.data_seed = in.reference.data_seed;  // unset follows the seed, as the reference's does
  return {"seed " + num(in.run.seed) + " -> " + num(in.reference.seed), c, ""};
}

Change align_padding(const AlignInput& in, const std::string&) {
  if (!(in.run.even_batches && config::samples_per_micro_step(in.run) > 1)) {
    return refused("the reference pads, not this run: align the reference instead");
  }
  // No repeats, and the short last batch weighted by its real size on every rank: the single
  // device's short batch, exactly.
  config::RunConfig c = in.run;
  std::string error;
  if (!set_field(c, "even_batches", "false", &error) ||
      !set_field(c, "loss_normalization", "global", &error)) {
    return refused(error);
  }
  return {"even_batches false with global loss normalisation (no repeated samples)", c, ""};
}

Change align_normalization(const AlignInput& in, const std::string&) {
  if (in.reference.loss_normalization == config::LossNormalization::kGlobal ||
      in.run.loss_normalization != config::LossNormalization::kGlobal) {
    config::RunConfig c = in.run;
    std::string error;
    if (!set_field(c, "loss_normalization", "global", &error)) return refused(error);
    return {"loss normalisation global (every item of the step weighs the same)", c, ""};
  }
  return align_key(in, "loss_normalization");
}

Change align_dropped(const AlignInput& in, const std::string&) {
  return align_key(in, "drop_last");
}

// The reference's sampler. One process under Accelerate's default draws from the global
// generator, several from an unseeded one: neither order exists on the other process count.
Change align_data_order(const AlignInput& in, const std::string&) {
  const config::DataOrder mine = config::data_order(in.run);
  const config::DataOrder theirs = config::data_order(in.reference);
  if (theirs != config::DataOrder::kSeedable && mine != theirs) {
    return refused("Accelerate's default sampler draws " + config::describe(theirs) + " on " +
                   processes(in.reference.num_processes) + ", an order " +
                   processes(in.run.num_processes) +
                   " never draw: align the reference instead (--use-seedable-sampler true)");
  }
  config::RunConfig c = in.run;
  std::string error;
  if (!set_field(c, "use_seedable_sampler",
                 config::field_text(in.reference, "use_seedable_sampler"), &error)) {
    return refused(error);
  }
  c.data_seed = in.reference.data_seed;
  if (!c.data_seed && c.seed != in.reference.seed) c.data_seed = in.reference.seed;
  return {"sampler " + config::describe(mine) + " -> " + config::describe(theirs), c, ""};
}

// Sync batch norm takes the statistics over every rank's micro-batch: when that is the
// reference's batch-norm batch (2x32 against 1x64), turning it on (or off) aligns the cause.
Change align_batch_norm(const AlignInput& in, const std::string&) {
  const int64_t want = config::batch_norm_batch(in.reference);
  config::RunConfig c = in.run;
  std::string error;
  if (!set_field(c, "sync_batch_norm", in.run.sync_batch_norm ? "false" : "true", &error))
    return refused(error);
  if (config::batch_norm_batch(c) == want && (!c.sync_batch_norm || c.even_batches)) {
    return {std::string("sync batch norm ") + (c.sync_batch_norm ? "on" : "off") +
                ": statistics over " + num(config::batch_norm_batch(c)) +
                " samples, as the "
                "reference's",
            c, ""};
  }
  return refused("batch-norm statistics over " + num(config::batch_norm_batch(in.run)) +
                 " samples cannot equal those over " + num(want) + " on " +
                 processes(in.run.num_processes) +
                 (in.run.num_processes > 1 ? " (with or without sync batch norm)" : "") +
                 "; compare at equal per-device batch, or without batch norm");
}

// Only the threads can be aligned: the ranks in the allreduce, the per-device batch and the
// accumulation are the setup being compared.
Change align_summation_order(const AlignInput& in, const std::string&) {
  if (in.reference.threads_per_rank > 0 &&
      in.run.threads_per_rank != in.reference.threads_per_rank) {
    return align_key(in, "threads_per_rank");
  }
  return refused(in.reference.threads_per_rank == 0
                     ? "the reference's threads per rank were not recorded"
                     : "the sums run in another order because the setups differ (ranks in the "
                       "allreduce, per-device batch or accumulation): no change of this run "
                       "alone keeps its setup and sums in the reference's order; seeds of both "
                       "setups show whether the gap is noise");
}

Change align_key(const AlignInput& in, const std::string& key) {
  for (const ConfigDiff& d : config_diff(in.run, in.reference)) {
    if (d.key != key) continue;
    config::RunConfig c = in.run;
    std::string error;
    if (key == "data_seed" && !in.reference.data_seed) {
      c.data_seed.reset();
    } else if (!set_field(c, key, config::field_text(in.reference, key), &error)) {
      return refused(error);
    }
    return {key + " " + d.value + " -> " + d.reference, c, ""};
  }
  return refused(key + " does not differ");
}

}  // namespace parity::analysis::verdict_detail
