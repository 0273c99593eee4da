// The cause registry: one entry per cause the verdict can name. Order is the diagnosis's: the
// derived causes first (as their rules push them), then the config keys as config_diff lists
// them, then the verdict's own (no config key: a diverged loss, the final evaluation, summation
// order or a bug). Adding a cause is one entry here plus its tests.

#include "cause_registry.h"

#include <string>
#include <vector>

namespace parity::analysis {
namespace verdict_detail {
namespace {

constexpr const char* kSetKey = "sets the key to the reference's (the command line's parser)";

CauseEntry derived(CauseInfo info, Diagnose diagnose, Align align, ReadKey read = nullptr) {
  info.alignable = align != nullptr;
  return {info, diagnose, read, align};
}
CauseEntry key(CauseInfo info, ReadKey read, Align align) {
  info.alignable = align != nullptr;
  return {info, nullptr, read, align};
}
CauseEntry proved_by_seeds(CauseEntry entry) {
  entry.info.seed_band = true;
  return entry;
}
CauseEntry verdict_cause(CauseInfo info, Align align = nullptr) {
  info.alignable = align != nullptr;
  return {info, nullptr, nullptr, align};
}

// Causes derived from several keys at once (the global batch, the effective lr, ...).
std::vector<CauseEntry> derived_causes() {
  return {
      derived({"global_batch", "global batch", "per-device batch x processes x accumulation differ",
               "the per-device batch that gives the reference's global batch"},
              global_batch_reason, align_global_batch),
      derived({"effective_lr", "learning rate",
               "the effective lr is not the reference's scaled linearly with the global batch",
               "the reference's effective lr, scaled linearly with the global batch"},
              lr_reason, align_lr),
      derived({"lr_schedule", "lr schedule", "the lr differs at equal samples seen",
               "the reference's schedule in this run's scheduler steps"},
              schedule_reason, align_schedule),
      derived({"scheduler_pace", "scheduler pace",
               "samples per scheduler step differ (train sizes unknown)",
               "the reference's schedule in this run's scheduler steps"},
              nullptr, align_schedule),
      derived({"batch_norm", "batch norm",
               "batch norm in both models over different per-device batches",
               "sync batch norm, where every rank's batch together is the reference's; else none: "
               "statistics over another batch are another model"},
              batch_norm_reason, align_batch_norm),
      proved_by_seeds(
          derived({"dropout", "dropout", "dropout in both models with the batch cut differently",
                   "dropout masks differ whenever the batch is cut differently: no change removes "
                   "that; proved against two more seeds of the reference, whose band the run must "
                   "stay in"},
                  dropout_reason, nullptr)),
      derived({"loss_normalization", "loss normalisation",
               "per-batch normalisation on token data cut differently, or the key differs",
               "global loss normalisation (every item of the step weighs the same)"},
              token_normalization_reason, align_normalization, read_loss_normalization),
      derived({"padding", "even_batches padding", "the epochs repeat different numbers of samples",
               "even_batches false with global loss normalisation"},
              padding_reason, align_padding),
      derived({"dropped", "drop_last", "the epochs drop different numbers of samples",
               "the reference's drop_last"},
              dropped_reason, align_dropped),
      derived({"data_order", "data order",
               "the samplers differ: seeded, or Accelerate's default on one or several processes",
               "the reference's sampler"},
              data_order_reason, align_data_order),
  };
}

// Causes that are one config key each; the schedule's and the run length's keys come last.
std::vector<CauseEntry> key_causes() {
  std::vector<CauseEntry> e = {
      key({"seed", "seed", "the seeds differ", "the reference's seed and data_seed"}, read_seed,
          align_seed),
      key({"data_seed", "shuffle seed", "the effective data seeds differ", kSetKey}, read_data_seed,
          align_key),
      key({"device_specific_seed", "per-rank seeds", "the key differs", kSetKey},
          read_device_specific_seed, align_key),
      key({"mixed_precision", "precision", "the key differs", kSetKey}, read_mixed_precision,
          align_key),
      key({"device", "device", "the key differs", kSetKey}, read_device, align_key),
      key({"gradient_accumulation_steps", "accumulation",
           "differs at another global batch, or the epoch's last group is short",
           "global loss normalisation (every item of the step weighs the same)"},
          read_accumulation, align_normalization),
      key({"num_processes", "processes", "information: the setup compared",
           "none: the setup compared"},
          read_num_processes, nullptr),
      key({"split_batches", "split_batches", "differs where the epoch's tail or pace differs",
           kSetKey},
          read_split_batches, align_key),
      key({"even_batches", "even_batches", "differs where the epoch has a tail", kSetKey},
          read_tail_flag, align_key),
      key({"drop_last", "drop_last", "differs where the epoch has a tail", kSetKey}, read_tail_flag,
          align_key),
      key({"per_device_batch_size", "per-device batch", "information (global_batch covers it)",
           "none: global_batch aligns it"},
          read_plain_info, nullptr),
      key({"threads_per_rank", "summation order (threads)",
           "both runs recorded their intra-op threads and they differ",
           "the reference's threads per rank; then the curves agree to fp32 precision or the "
           "cause is not confirmed"},
          read_threads, align_key),
      key({"use_seedable_sampler", "sampler", "information (data_order covers it)",
           "the reference's sampler"},
          read_plain_info, align_data_order),
      key({"sync_batch_norm", "sync batch norm", "information (batch_norm covers it)",
           "the batch_norm cause's alignment"},
          read_plain_info, align_batch_norm),
  };
  const char* schedule_diag = "differs while the sizes are unknown (else lr_schedule)";
  for (const char* k : {"scheduler", "warmup_steps", "num_training_steps", "scheduler_step_size",
                        "scheduler_gamma", "pct_start", "div_factor", "final_div_factor"}) {
    e.push_back(key({k, k, schedule_diag, kSetKey}, read_schedule_key, align_key));
  }
  for (const char* k : {"lr", "lr_scaling", "epochs", "max_steps", "eval_every_epoch"}) {
    e.push_back(key({k, k, "information (effective_lr, the run's length)", kSetKey},
                    read_plain_info, align_key));
  }
  return e;
}

// Causes the verdict names from the curves themselves, not from a config difference.
std::vector<CauseEntry> verdict_causes() {
  const char* nothing = "no config difference to align";
  std::vector<CauseEntry> e;
  e.push_back(verdict_cause({"loss", "diverged loss", "NaN or infinite losses", nothing}));
  e.push_back(verdict_cause(
      {"final_eval", "final evaluation", "outside the seeds' spread of final evaluations",
       "the final evaluation is where the gap shows, not a setting; the causes listed with it "
       "are tested"}));
  e.push_back(verdict_cause(
      {"summation_order", "summation order or a bug",
       "no config difference changes the arithmetic, but the sums run in another order",
       "the reference's threads per rank, when they differ; the setup's own order, never"},
      align_summation_order));
  e.push_back(verdict_cause({"unexplained", "possible bug",
                             "same setup and summation order, and the curves part", nothing}));
  e.push_back(
      verdict_cause({"rounding", "summation order", "(stored by earlier versions)", nothing}));
  e.push_back(
      verdict_cause({"range", "x range", "information: the runs cover other ranges", nothing}));
  e.push_back(verdict_cause({"seed_band", "band of two seeds",
                             "information: a seed group of two is its own gap", nothing}));
  return e;
}

// The registry's order: derived causes, config keys, the verdict's own.
std::vector<CauseEntry> make_entries() {
  std::vector<CauseEntry> e = derived_causes();
  const std::vector<CauseEntry> keys = key_causes(), verdict = verdict_causes();
  e.insert(e.end(), keys.begin(), keys.end());
  e.insert(e.end(), verdict.begin(), verdict.end());
  return e;
}

}  // namespace

const std::vector<CauseEntry>& cause_entries() {
  static const std::vector<CauseEntry> kEntries = make_entries();
  return kEntries;
}

const CauseEntry* find_entry(std::string_view key) {
  for (const CauseEntry& e : cause_entries()) {
    if (e.info.key == key) return &e;
  }
  return nullptr;
}

}  // namespace verdict_detail

const std::vector<CauseInfo>& cause_registry() {
  static const std::vector<CauseInfo> kInfos = [] {
    std::vector<CauseInfo> infos;
    for (const auto& e : verdict_detail::cause_entries()) infos.push_back(e.info);
    return infos;
  }();
  return kInfos;
}

const CauseInfo& cause_info(std::string_view key) {
  static const CauseInfo kExperiment{"experiment", "experiment", "an experiment key differs",
                                     "sets the key to the reference's", true};
  static const CauseInfo kAll{"all", "every cause at once",
                              "the causes of a run with more than one testable",
                              "every differing fact set to the reference's", true};
  if (const auto* e = verdict_detail::find_entry(key)) return e->info;
  if (key.substr(0, 3) == "all") return kAll;
  return kExperiment;
}

std::string cause_label(std::string_view key) {
  const CauseInfo& info = cause_info(key);
  if (info.key == "experiment" || info.key == "all") return std::string(key);
  return std::string(info.label);
}

}  // namespace parity::analysis
