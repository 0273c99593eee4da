// The diagnosis half of the verdict: which configuration keys differ and what each difference
// does to the arithmetic, in the seed's terms.

#include <parity/analysis/verdict.h>
#include <parity/config/batch_plan.h>
#include <parity/config/lr_schedule.h>
#include <parity/config/sampler.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "cause_registry.h"
#include "diagnosis_rules.h"
#include "verdict_util.h"

namespace parity::analysis {

using namespace verdict_detail;

std::vector<ConfigDiff> config_diff(const config::RunConfig& a,
                                    const config::RunConfig& reference) {
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

namespace verdict_detail {

Layers layers_of(const config::RunConfig& c, const std::optional<config::ModelSummary>& model) {
  if (model) {
    // A module with dropout whose rate could not be read still has dropout.
    return {model->batch_norm, model->dropout ? std::max(model->dropout_p, 1e-9) : 0.0};
  }
  if (c.model == config::ModelKind::kTorchScript) return {};
  return {c.batch_norm, c.dropout};
}

Setups::Setups(const config::RunConfig& config, const config::RunConfig& reference,
               std::optional<int64_t> train_size, std::optional<int64_t> reference_train_size,
               const std::optional<config::ModelSummary>& model,
               const std::optional<config::ModelSummary>& reference_model)
    : config(config),
      reference(reference),
      layers(layers_of(config, model)),
      layers_ref(layers_of(reference, reference_model)),
      n(train_size_of(config, train_size)),
      n_ref(train_size_of(reference, reference_train_size)),
      g(config::global_batch_size(config)),
      g_ref(config::global_batch_size(reference)),
      lr(config::effective_lr(config)),
      lr_ref(config::effective_lr(reference)),
      same_batch(g == g_ref),
      same_lr(close(lr, lr_ref)),
      plan(plan_or_none(config, n)),
      plan_ref(plan_or_none(reference, n_ref)),
      plans(plan && plan_ref),
      scheduled(config.scheduler != config::SchedulerKind::kConstant || config.warmup_steps > 0 ||
                reference.scheduler != config::SchedulerKind::kConstant ||
                reference.warmup_steps > 0),
      tails_differ(plans && (plan->padded_samples != plan_ref->padded_samples ||
                             plan->dropped_samples != plan_ref->dropped_samples)) {}

void global_batch_reason(std::string_view cause, const Setups& s, Diagnosis& d) {
  const std::string key(cause);
  if (s.same_batch) return;
  const int w = s.config.num_processes, k = s.config.gradient_accumulation_steps;
  std::string hint;
  if (s.config.split_batches) {
    // With split_batches the per-device batch is global and must divide by the processes.
    if (s.g_ref % k == 0 && (s.g_ref / k) % w == 0) {
      hint = "per_device_batch_size " + num(s.g_ref / k) + " with split_batches";
    }
  } else if (const auto b = config::equivalent_per_device_batch(s.g_ref, w, k)) {
    hint = "per-device batch " + num(*b) + " on " + processes(w) +
           (k > 1 ? " with accumulation " + num(int64_t{k}) : "");
  }
  // The lr is part of what would match: the reference's, after scaling (the remedy's).
  if (!hint.empty() && !s.same_lr) hint += " at lr " + num(s.lr_ref) + " after scaling";
  d.causes.push_back(
      {key, "global batch " + num(s.g) + " vs " + num(s.g_ref) + " (" +
                (hint.empty() ? "no per-device batch on " + processes(w) + " gives " + num(s.g_ref)
                              : hint + " would match") +
                ")"});
}

namespace {

// The rule a setup's lr follows, in words: "not scaled", "scaled linearly in the processes (x2)".
std::string lr_rule(const config::RunConfig& c) {
  const double factor = c.lr != 0 ? config::effective_lr(c) / c.lr : 1;
  switch (c.lr_scaling) {
    case config::LrScaling::kLinear:
      return "scaled linearly in the processes (x" + num(factor) + ")";
    case config::LrScaling::kSqrt:
      return "scaled by the square root of the processes (x" + num(factor, 4) + ")";
    case config::LrScaling::kNone:
      break;
  }
  return "not scaled";
}

}  // namespace

// Names the rule each side's lr follows, with both numbers, and what each rule would give here:
// linear in the processes (Accelerate's guide, --lr-scaling linear), linear or square root in the
// global batch.
void lr_reason(std::string_view cause, const Setups& s, Diagnosis& d) {
  const std::string key(cause);
  const int w = s.config.num_processes, w_ref = s.reference.num_processes;
  const std::string rule = lr_rule(s.config), rule_ref = lr_rule(s.reference);
  const std::string lrs = rule == rule_ref
                              ? "lr " + num(s.lr) + " on " + processes(w) + " vs " + num(s.lr_ref) +
                                    " on " + num(int64_t{w_ref}) + ", " +
                                    (rule == "not scaled" ? "neither scaled" : "both " + rule)
                              : "lr " + num(s.lr) + " on " + processes(w) + ", " + rule + ", vs " +
                                    num(s.lr_ref) + " on " + num(int64_t{w_ref}) + ", " + rule_ref;
  const double batch_ratio =
      static_cast<double>(s.g) / static_cast<double>(std::max<int64_t>(1, s.g_ref));
  const double in_batch = s.lr_ref * batch_ratio, in_batch_sqrt = s.lr_ref * std::sqrt(batch_ratio);
  const double in_processes = s.lr_ref * w / std::max(1, w_ref);
  const std::string batches = num(s.g) + " vs " + num(s.g_ref);
  if (s.same_batch && !s.same_lr) {
    d.causes.push_back({key, "learning rate differs at the same global batch " + num(s.g) + " (" +
                                 lrs + "); the reference's arithmetic needs lr " + num(s.lr_ref)});
  } else if (!s.same_batch && s.same_lr && w != w_ref) {
    d.causes.push_back({key, "learning rate not scaled with the number of processes (" + lrs +
                                 "); scaled linearly in the processes, as Accelerate's guide does "
                                 "(--lr-scaling linear), it would be " +
                                 num(in_processes) + "; linearly in the global batch (" + batches +
                                 "), " + num(in_batch) + "; by its square root, " +
                                 num(in_batch_sqrt)});
  } else if (!s.same_batch && !s.same_lr) {
    if (close(s.lr, in_batch)) {
      d.info.push_back({key, "learning rate scaled linearly with the global batch (" + lrs +
                                 ", global batch " + batches + ")"});
    } else if (close(s.lr, in_batch_sqrt)) {
      d.info.push_back({key, "learning rate scaled by the square root of the global batch (" + lrs +
                                 ", global batch " + batches + ")"});
    } else {
      d.causes.push_back({key, "learning rate scaled differently (" + lrs +
                                   "); linearly in the "
                                   "global batch (" +
                                   batches + ") it would be " + num(in_batch) +
                                   ", by its square root " + num(in_batch_sqrt) +
                                   ", linearly in the processes " + num(in_processes)});
    }
  }
}

namespace {

// The lr each optimizer step uses, as the engine advances the schedule: W scheduler steps per
// optimizer step (one with split_batches), OneCycleLR capped at its total.
std::vector<double> lr_curve(const config::RunConfig& c, int64_t n, int64_t steps) {
  const config::LrSchedule schedule(c, config::effective_lr(c), config::schedule_length(c, n));
  const int per_step = config::scheduler_steps_per_optimizer_step(c);
  std::vector<double> lrs;
  int64_t position = 0;
  for (int64_t i = 0; i < steps; ++i) {
    lrs.push_back(schedule.lr(position));
    position += per_step;
    if (schedule.caps_at_total()) position = std::min(position, schedule.total_steps());
  }
  return lrs;
}

// Where a schedule ends in samples seen, over a run of `steps` optimizer steps of `g` samples,
// and what it does after: "ends at 512 of 1024 samples, then rises again (...)".
std::string schedule_end(const config::RunConfig& c, int64_t n, int64_t steps, int64_t g) {
  if (c.scheduler == config::SchedulerKind::kConstant) return "is constant";
  const int64_t per_step = config::scheduler_steps_per_optimizer_step(c);
  const int64_t end_step = (config::schedule_length(c, n) + per_step - 1) / per_step;
  const int64_t run_samples = steps * g;
  if (end_step >= steps) return "ends with the run (" + num(run_samples) + " samples)";
  const char* after = "";
  switch (c.scheduler) {
    case config::SchedulerKind::kLinear:
      after = "stays at 0";
      break;
    case config::SchedulerKind::kCosine:
      after = "rises again (a cosine is not clamped past its end)";
      break;
    case config::SchedulerKind::kStep:
      after = "keeps stepping";
      break;
    case config::SchedulerKind::kOneCycle:
      after = "holds its last lr";
      break;
    case config::SchedulerKind::kConstant:
      break;
  }
  return "ends at " + num(end_step * g) + " of " + num(run_samples) + " samples, then " + after;
}

}  // namespace

// The schedules compared where they act: the lr at equal samples seen, over the reference's
// steps (the run's lr at the optimizer step that holds that sample). Without the train sizes,
// the scheduler's pace (samples per scheduler step) is compared instead.
void schedule_reason(std::string_view cause, const Setups& s, Diagnosis& d) {
  const std::string key(cause);
  if (!s.scheduled) return;
  if (!s.plans) {
    const double pace =
        static_cast<double>(s.g) / config::scheduler_steps_per_optimizer_step(s.config);
    const double pace_ref =
        static_cast<double>(s.g_ref) / config::scheduler_steps_per_optimizer_step(s.reference);
    if (close(pace, pace_ref)) return;
    d.causes.push_back({"scheduler_pace", "scheduler paced differently: one scheduler step per " +
                                              num(pace) + " vs " + num(pace_ref) +
                                              " samples (schedules are written in "
                                              "single-process steps)"});
    return;
  }
  if (!s.same_batch) {
    // Steps of different sizes sample the lr at different points; compare the schedules in
    // samples: their kind, length and warm-up.
    const double pace =
        static_cast<double>(s.g) / config::scheduler_steps_per_optimizer_step(s.config);
    const double pace_ref =
        static_cast<double>(s.g_ref) / config::scheduler_steps_per_optimizer_step(s.reference);
    const double len = static_cast<double>(config::schedule_length(s.config, *s.n)) * pace;
    const double len_ref =
        static_cast<double>(config::schedule_length(s.reference, *s.n_ref)) * pace_ref;
    const double warm = static_cast<double>(s.config.warmup_steps) * pace;
    const double warm_ref = static_cast<double>(s.reference.warmup_steps) * pace_ref;
    if (s.config.scheduler == s.reference.scheduler && close(len, len_ref) &&
        close(warm, warm_ref)) {
      return;
    }
    d.causes.push_back({key, "the schedules differ in samples: " + to_string(s.config.scheduler) +
                                 " over " + num(len) + " samples (warm-up " + num(warm) + ") vs " +
                                 to_string(s.reference.scheduler) + " over " + num(len_ref) +
                                 " (warm-up " + num(warm_ref) + ")"});
    return;
  }
  const int64_t steps_ref = s.plan_ref->total_optimizer_steps;
  const int64_t steps = s.plan->total_optimizer_steps;
  const std::vector<double> mine = lr_curve(s.config, *s.n, steps);
  const std::vector<double> ref = lr_curve(s.reference, *s.n_ref, steps_ref);
  // Shapes compared (lr / effective lr): a different base lr is effective_lr's reason.
  for (int64_t i = 0; i < steps_ref && !mine.empty(); ++i) {
    const int64_t samples = (i + 1) * s.g_ref;  // the last sample of the reference's step i
    const int64_t j = std::min<int64_t>((samples + s.g - 1) / s.g - 1, steps - 1);
    const double a = mine[static_cast<size_t>(j)], b = ref[static_cast<size_t>(i)];
    if (close(a / s.lr, b / s.lr_ref)) continue;
    const int64_t len = config::schedule_length(s.config, *s.n);
    const int64_t len_ref = config::schedule_length(s.reference, *s.n_ref);
    d.causes.push_back(
        {key, "the lr differs at equal samples seen: " + num(a) + " vs " + num(b) + " at " +
                  num(samples) + " samples (" + to_string(s.config.scheduler) + " over " +
                  num(len) + " scheduler steps, " +
                  num(int64_t{config::scheduler_steps_per_optimizer_step(s.config)}) +
                  " per optimizer step, vs " + to_string(s.reference.scheduler) + " over " +
                  num(len_ref) + ", " +
                  num(int64_t{config::scheduler_steps_per_optimizer_step(s.reference)}) +
                  "); the run's schedule " + schedule_end(s.config, *s.n, steps, s.g) +
                  "; the reference's schedule " +
                  schedule_end(s.reference, *s.n_ref, steps_ref, s.g_ref)});
    return;
  }
}

// Batch norm normalises over the per-device micro-batch, or every rank's with sync batch norm.
void batch_norm_reason(std::string_view cause, const Setups& s, Diagnosis& d) {
  const std::string key(cause);
  const int64_t b = config::batch_norm_batch(s.config);
  const int64_t b_ref = config::batch_norm_batch(s.reference);
  if (!s.layers.batch_norm || !s.layers_ref.batch_norm || b == b_ref) return;
  const bool synced = s.config.sync_batch_norm || s.reference.sync_batch_norm;
  const auto over = [](const config::RunConfig& c) {
    return c.sync_batch_norm ? std::string(" (every rank's, synchronised)") : std::string();
  };
  d.causes.push_back(
      {key, synced ? "batch norm normalises over " + num(b) + over(s.config) + " vs " + num(b_ref) +
                         over(s.reference) + " samples (a different model, not a reordering)"
                   : "batch norm normalises over the per-device batch: " + num(b) + " vs " +
                         num(b_ref) + " samples (a different model, not a reordering)"});
}

// Dropout masks follow the rank's seed and the batch's cut.
void dropout_reason(std::string_view cause, const Setups& s, Diagnosis& d) {
  const std::string key(cause);
  const config::RunConfig& c = s.config;
  const config::RunConfig& r = s.reference;
  const int64_t b = config::per_rank_micro_batch(c), b_ref = config::per_rank_micro_batch(r);
  const bool reshaped = b != b_ref || c.num_processes != r.num_processes;
  const Layers& l = s.layers;
  if (l.dropout > 0 && s.layers_ref.dropout > 0 && reshaped) {
    const bool same_masks = !c.device_specific_seed && c.num_processes > 1;
    const std::string rate = l.dropout >= 1e-6 ? " " + num(l.dropout) : "";
    d.causes.push_back(
        {key, "dropout" + rate + ": " +
                  (same_masks ? "with the same seed on every rank, the " +
                                    processes(c.num_processes) + " draw identical masks"
                              : "the ranks draw their own masks") +
                  ", unlike " + processes(r.num_processes) + " x " + num(b_ref) +
                  "; the curves can agree only statistically"});
  }
}

// Per-batch normalisation on token data weighs micro-batches, not tokens.
void token_normalization_reason(std::string_view cause, const Setups& s, Diagnosis& d) {
  const std::string key(cause);
  const config::RunConfig& c = s.config;
  const config::RunConfig& r = s.reference;
  const int64_t b = config::per_rank_micro_batch(c), b_ref = config::per_rank_micro_batch(r);
  const bool per_batch = c.loss_normalization == config::LossNormalization::kPerBatch &&
                         r.loss_normalization == config::LossNormalization::kPerBatch;
  const bool split_differently = b != b_ref || c.num_processes != r.num_processes ||
                                 c.gradient_accumulation_steps != r.gradient_accumulation_steps;
  if (per_batch && c.token_data() && r.token_data() && split_differently) {
    d.causes.push_back(
        {key,
         "per-batch loss normalisation on token data: each micro-batch's mean over its own "
         "tokens, averaged over micro-batches and ranks, is not the mean over the step's tokens "
         "(" +
             num(int64_t{c.num_processes}) + " x " + num(b) + " acc " +
             num(int64_t{c.gradient_accumulation_steps}) + " vs " + num(int64_t{r.num_processes}) +
             " x " + num(b_ref) + " acc " + num(int64_t{r.gradient_accumulation_steps}) +
             "); --loss-normalization global makes them agree"});
  }
}

// The epoch's tail: samples repeated by even_batches.
void padding_reason(std::string_view cause, const Setups& s, Diagnosis& d) {
  const std::string key(cause);
  if (!s.plans) return;
  const config::SetupPlan& plan = *s.plan;
  const config::SetupPlan& plan_ref = *s.plan_ref;
  if (plan.padded_samples == plan_ref.padded_samples) return;
  const bool mine = plan.padded_samples > 0;
  const config::RunConfig& c = mine ? s.config : s.reference;
  const int64_t n = mine ? *s.n : *s.n_ref;
  const int64_t per_step = config::samples_per_micro_step(c);
  d.causes.push_back(
      {key, std::string(mine ? "" : "reference: ") + "dataset size " + num(n) +
                " does not divide by " +
                (c.gradient_accumulation_steps == 1 ? "global batch " : "batch x processes ") +
                num(per_step) + ": even_batches repeats samples (" + num(plan.padded_samples) +
                " vs " + num(plan_ref.padded_samples) + " per epoch)"});
}

// The epoch's tail: samples dropped by drop_last.
void dropped_reason(std::string_view cause, const Setups& s, Diagnosis& d) {
  const std::string key(cause);
  if (!s.plans || s.plan->dropped_samples == s.plan_ref->dropped_samples) return;
  d.causes.push_back({key, "drop_last drops " + num(s.plan->dropped_samples) + " vs " +
                               num(s.plan_ref->dropped_samples) + " samples per epoch"});
}

// Where each epoch's order comes from: Accelerate's default sampler draws a different order on
// one process (the global generator) than on several (an unseeded generator), and neither is
// the seeded one.
void data_order_reason(std::string_view cause, const Setups& s, Diagnosis& d) {
  const std::string key(cause);
  const config::DataOrder mine = config::data_order(s.config);
  const config::DataOrder theirs = config::data_order(s.reference);
  if (mine == theirs) return;
  d.causes.push_back({key, "data order: " + config::describe(mine) + " on " +
                               processes(s.config.num_processes) + " vs " +
                               config::describe(theirs) + " on " +
                               num(int64_t{s.reference.num_processes}) +
                               " (the batches differ from the first step)"});
}

}  // namespace verdict_detail

Diagnosis diagnose(const config::RunConfig& config, const config::RunConfig& reference,
                   std::optional<int64_t> train_size, std::optional<int64_t> reference_train_size,
                   const std::optional<config::ModelSummary>& model,
                   const std::optional<config::ModelSummary>& reference_model) {
  const Setups s(config, reference, train_size, reference_train_size, model, reference_model);
  Diagnosis d;
  // The derived causes in the registry's order, then every differing config key as its entry
  // reads it.
  for (const CauseEntry& entry : cause_entries()) {
    if (entry.diagnose) entry.diagnose(entry.info.key, s, d);
  }
  for (const ConfigDiff& diff : config_diff(config, reference)) {
    const CauseEntry* entry = find_entry(diff.key);
    Reading r = entry && entry->read_key ? entry->read_key(diff, s) : read_experiment_key(diff, s);
    (r.cause ? d.causes : d.info).push_back({diff.key, std::move(r.text)});
  }
  // The summation order is fp32 rounding's: named as the cause only when nothing larger is (the
  // combined proof aligns the threads with the rest either way).
  const auto threads = std::find_if(d.causes.begin(), d.causes.end(),
                                    [](const Reason& r) { return r.key == "threads_per_rank"; });
  if (threads != d.causes.end() && d.causes.size() > 1) {
    d.info.push_back(*threads);
    d.causes.erase(threads);
  }
  return d;
}

}  // namespace parity::analysis
