// How the diagnosis reads one differing config key: a cause (it can change the arithmetic) or
// information. The registry (cause_registry.cpp) names the reader of each key.

#include <string>

#include "diagnosis_rules.h"

namespace parity::analysis::verdict_detail {

bool whole_steps_both(const Setups& s) {
  return s.n && s.n_ref && whole_steps(s.config, *s.n) && whole_steps(s.reference, *s.n_ref);
}

namespace {

// The flags that only touch the epoch's tail: no effect when every step is a full batch on both
// sides and `also` holds (split_batches also changes the global batch and the scheduler's pace).
Reading tail_flag(const ConfigDiff& d, const Setups& s, bool also) {
  const bool no_effect = whole_steps_both(s) && also;
  return no_effect ? info(d.key + " " + vs(d) + ": no effect at this dataset size")
                   : cause(d.key + " differs (" + vs(d) + ")");
}

}  // namespace

Reading read_seed(const ConfigDiff& d, const Setups& s) {
  const int64_t data_seed = s.config.effective_data_seed();
  return cause("seeds differ (" + vs(d) + ")" +
               (data_seed == s.reference.effective_data_seed()
                    ? "; same shuffle order (data_seed " + num(data_seed) + ")"
                    : ""));
}

Reading read_data_seed(const ConfigDiff& d, const Setups& s) {
  const int64_t mine = s.config.effective_data_seed();
  const int64_t theirs = s.reference.effective_data_seed();
  return mine != theirs
             ? cause("shuffle order differs (data_seed " + num(mine) + " vs " + num(theirs) + ")")
             : info("data_seed " + vs(d) + ": same effective shuffle seed");
}

Reading read_device_specific_seed(const ConfigDiff& d, const Setups&) {
  return cause("device_specific_seed " + vs(d) + ": per-rank model and dropout seeds differ");
}

Reading read_mixed_precision(const ConfigDiff&, const Setups& s) {
  return cause("precision differs: " + precision_name(s.config.mixed_precision) + " vs " +
               precision_name(s.reference.mixed_precision) + " — small differences expected");
}

Reading read_device(const ConfigDiff& d, const Setups&) {
  return cause("device " + vs(d) + " — small differences expected (different kernels)");
}

Reading read_accumulation(const ConfigDiff& d, const Setups& s) {
  const std::string text = "gradient accumulation " + vs(d);
  if (!s.same_batch) return cause(text);
  if (s.plans && (s.plan->short_last_accumulation || s.plan_ref->short_last_accumulation)) {
    return cause(text + ": the epoch's last group is shorter and under-weighted");
  }
  return info(text + " at the same global batch " + num(s.g));
}

Reading read_num_processes(const ConfigDiff& d, const Setups& s) {
  return info("num_processes " + vs(d) +
              (s.same_batch && s.same_lr && !s.tails_differ
                   ? " with the same global batch " + num(s.g) + " and effective lr " + num(s.lr) +
                         ": same arithmetic"
                   : ""));
}

// With both sizes known, lr_schedule compares the schedules at equal samples seen, which covers
// split_batches' scheduler pace.
Reading read_split_batches(const ConfigDiff& d, const Setups& s) {
  return tail_flag(d, s, s.same_batch && (!s.scheduled || s.plans));
}

Reading read_tail_flag(const ConfigDiff& d, const Setups& s) { return tail_flag(d, s, true); }

// A schedule key: a cause when the schedule cannot be compared on samples (sizes unknown),
// else information (lr_schedule says whether the lr differs where it acts).
Reading read_schedule_key(const ConfigDiff& d, const Setups& s) {
  if (s.plans) return {false, d.key + " " + d.value + " vs " + d.reference};
  return {true, d.key + " differs (" + d.value + " vs " + d.reference + ")"};
}

Reading read_loss_normalization(const ConfigDiff& d, const Setups& s) {
  return s.config.token_data() || !whole_steps_both(s)
             ? cause("loss normalisation " + vs(d) +
                     ": micro-batches hold different numbers of items")
             : info("loss normalisation " + vs(d) + ": equal-size batches, same loss");
}

// Intra-op threads split every sum differently: the same arithmetic in another summation order,
// whose fp32 rounding then grows along the trajectory like any perturbation. 0 = not recorded.
Reading read_threads(const ConfigDiff&, const Setups& s) {
  const int mine = s.config.threads_per_rank, theirs = s.reference.threads_per_rank;
  const auto threads = [](int t) { return num(int64_t{t}) + (t == 1 ? " thread" : " threads"); };
  if (mine == 0 || theirs == 0) {
    return info("threads per rank " + (mine ? threads(mine) : "not recorded") + " vs " +
                (theirs ? threads(theirs) : "not recorded"));
  }
  return cause("summation order: " + threads(mine) + " vs " + num(int64_t{theirs}) +
               " per rank (the same sums split differently; fp32 rounding then grows along the "
               "trajectory)");
}

// Covered by global_batch / effective_lr / data_order, or does not change the per-step
// arithmetic (run length, evaluation).
Reading read_plain_info(const ConfigDiff& d, const Setups&) { return info(d.key + " " + vs(d)); }

Reading read_experiment_key(const ConfigDiff& d, const Setups&) {
  return cause(d.key + " " + vs(d) + " (the experiment differs)");
}

}  // namespace parity::analysis::verdict_detail
