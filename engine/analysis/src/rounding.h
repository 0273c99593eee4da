#pragma once
// What fp32 reordering can explain: the bound a gap must stay within for "same arithmetic,
// different summation order", where the curves part beyond it, and the reason the verdict gives
// when no config difference changes the arithmetic.

#include <parity/analysis/verdict.h>

#include <string>

#include "aligned.h"

namespace parity::analysis::verdict_detail {

/// Relative gap allowed at the first compared point; kReorderRel x (1 + k) at the k-th.
inline constexpr double kReorderRel = 1e-5;

struct Parting {
  bool within = true;  ///< every point within the reordering bound
  size_t index = 0;    ///< first aligned point beyond it
  double rel = 0;      ///< the relative gap there
};
Parting first_parting(const Aligned& a);

/// "rounding" when the setups reorder the sums and the gap stays within the bound, else
/// "unexplained" (with `where` the curves part, when they do).
Reason no_cause(const config::RunConfig& a, const config::RunConfig& b, const Parting& parting,
                const std::string& where);

}  // namespace parity::analysis::verdict_detail
