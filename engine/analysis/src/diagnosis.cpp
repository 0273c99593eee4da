// The diagnosis half of the verdict: which configuration keys differ and what each difference
// does to the arithmetic, in the seed's terms.

#include <parity/analysis/verdict.h>

#include <set>

#include "verdict_util.h"

namespace parity::engine {

using namespace verdict_detail;

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

}  // namespace parity::engine
