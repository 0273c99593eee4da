#include "rounding.h"

#include <algorithm>
#include <cmath>

#include "verdict_util.h"

namespace parity::analysis::verdict_detail {

// fp32 reordering: a sum of the same terms in another order (ranks, slices, micro-batches)
// differs by a few units of 2^-24 ~ 6e-8 relative per step; the first step's loss (same
// initialisation, same samples) differs by at most that, and training compounds it. The bound
// the verdict allows: a relative gap of kReorderRel at the first compared point, growing at most
// linearly, kReorderRel x (1 + k) at the k-th. Beyond it, reordering does not explain the gap.

Parting first_parting(const Aligned& a) {
  Parting p;
  size_t k = 0;
  for (size_t i = 0; i < a.x.size(); ++i) {
    if (!std::isfinite(a.ref[i]) || !std::isfinite(a.run[i])) continue;
    const double rel = std::abs(a.run[i] - a.ref[i]) / std::max(1e-12, std::abs(a.ref[i]));
    if (rel > kReorderRel * static_cast<double>(1 + k)) {
      p.within = false;
      p.index = i;
      p.rel = rel;
      return p;
    }
    ++k;
  }
  return p;
}

// Different, but no config key explains it. "Same arithmetic, another summation order" only when
// the setups do reorder the sums and the gap stays within the fp32 reordering bound; otherwise
// the run is unexplained, with where the curves part.
Reason no_cause(const config::RunConfig& a, const config::RunConfig& b, const Parting& parting,
                const std::string& where) {
  const bool reordered = a.num_processes != b.num_processes ||
                         a.per_device_batch_size != b.per_device_batch_size ||
                         a.gradient_accumulation_steps != b.gradient_accumulation_steps ||
                         a.split_batches != b.split_batches;
  if (reordered && parting.within) {
    return {"rounding",
            "same arithmetic, different summation order (processes, per-device batch or "
            "accumulation): the gap stays within fp32 reordering (relative 1e-5 at the first "
            "point, growing at most linearly) — compare smoothed curves (EMA) and the final "
            "evaluation"};
  }
  if (!parting.within) {
    return {"unexplained",
            "unexplained: possible bug — no config difference changes the arithmetic, and the "
            "curves part at " +
                where + " (relative gap " + num(parting.rel, 3) +
                ", beyond fp32 reordering's 1e-5 x (1 + point))"};
  }
  return {"unexplained",
          "the configs match in every key that changes the arithmetic: suspect a bug or "
          "nondeterminism"};
}

}  // namespace parity::analysis::verdict_detail
