#include "rounding.h"

#include <algorithm>
#include <cmath>

#include "verdict_util.h"

namespace parity::analysis::verdict_detail {

// fp32 reordering: a sum of the same terms in another order (ranks, slices, micro-batches,
// threads) differs by a few units of 2^-24 ~ 6e-8 relative per step. Training does not keep it
// there: like any perturbation of a chaotic trajectory, it can stay near 1e-7 for a run or grow
// to 1e-4 within ten steps (measured on 1x32 vs 2x16: 1e-8 at step 50, 3e-4 at step 64), seed by
// seed and machine by machine. So no bound on the gap tells reordering from a bug; the curves
// are said to part where the relative gap first passes fp32's kReorderRel, and only a
// counterfactual that aligns the summation order tells the two apart.

Parting first_parting(const Aligned& a) {
  Parting p;
  for (size_t i = 0; i < a.x.size(); ++i) {
    if (!std::isfinite(a.ref[i]) || !std::isfinite(a.run[i])) continue;
    const double rel = std::abs(a.run[i] - a.ref[i]) / std::max(1e-12, std::abs(a.ref[i]));
    if (rel > kReorderRel) {
      p.within = false;
      p.index = i;
      p.rel = rel;
      return p;
    }
  }
  return p;
}

// Different, but no config key changes the arithmetic. When the sums may run in another order
// (processes, per-device batch, accumulation, split, threads differ or were not recorded), the
// gap is summation order or a bug, and only `explain` tells them apart; "possible bug" is said
// only when the setups match in every key, the summation order included.
Reason no_cause(const config::RunConfig& a, const config::RunConfig& b, const Parting& parting,
                const std::string& where) {
  const bool reordered = a.num_processes != b.num_processes ||
                         a.per_device_batch_size != b.per_device_batch_size ||
                         a.gradient_accumulation_steps != b.gradient_accumulation_steps ||
                         a.split_batches != b.split_batches || a.threads_per_rank == 0 ||
                         b.threads_per_rank == 0 || a.threads_per_rank != b.threads_per_rank;
  const std::string parts =
      parting.within
          ? "the curves agree to fp32 precision (relative 1e-5) at every point"
          : "the curves part at " + where + " (relative gap " + num(parting.rel, 3) + ")";
  if (reordered) {
    return {"summation_order",
            "summation order or a bug: no config difference changes the arithmetic, but the "
            "sums run in another order (processes, per-device batch, accumulation or threads), "
            "whose fp32 rounding grows along the trajectory like any perturbation; " +
                parts + " — `explain` tells them apart"};
  }
  if (!parting.within) {
    return {"unexplained",
            "unexplained: possible bug — the setups match in every key that changes the "
            "arithmetic, the summation order included, and " +
                parts};
  }
  return {"unexplained",
          "the configs match in every key that changes the arithmetic: suspect a bug or "
          "nondeterminism"};
}

}  // namespace parity::analysis::verdict_detail
