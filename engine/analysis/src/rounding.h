#pragma once
// What fp32 reordering can and cannot explain: where the curves part beyond fp32 precision, and
// the reason the verdict gives when no config difference changes the arithmetic.

#include <parity/analysis/verdict_types.h>
#include <parity/config/run_config.h>

#include <string>

#include "aligned.h"

namespace parity::analysis::verdict_detail {

/// fp32 precision of one loss after reordered sums: where the curves are said to part.
inline constexpr double kReorderRel = 1e-5;

struct Parting {
  bool within = true;  ///< every point within kReorderRel
  size_t index = 0;    ///< first aligned point beyond it
  double rel = 0;      ///< the relative gap there
};
Parting first_parting(const Aligned& a);

/// "summation_order" (summation order or a bug) when the sums may run in another order, else
/// "unexplained" (with `where` the curves part, when they do).
Reason no_cause(const config::RunConfig& a, const config::RunConfig& b, const Parting& parting,
                const std::string& where);

}  // namespace parity::analysis::verdict_detail
