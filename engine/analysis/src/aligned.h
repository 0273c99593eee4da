#pragma once
// One run aligned on a reference, shared by the verdict's gap statistics, its delta curve, its
// decision and the seed groups' spread (internal to parity_analysis).

#include <parity/analysis/verdict_types.h>

#include <cmath>
#include <cstddef>
#include <vector>

namespace parity::analysis::verdict_detail {

/// The reference's points inside the overlap, with both losses at each. Computed once per
/// (run, reference) pair and read by everything that measures the gap.
struct Aligned {
  Range reference_range, run_range;
  std::vector<double> x, ref, run;
};

/// `run` interpolated at the reference's x points (no extrapolation).
Aligned align(const Series& run, const Series& reference);

/// Calls f(i, |run - ref|) at each aligned point where both losses are finite, in x order.
template <class F>
void for_each_finite(const Aligned& a, F f) {
  for (size_t i = 0; i < a.x.size(); ++i) {
    if (std::isfinite(a.ref[i]) && std::isfinite(a.run[i])) f(i, std::abs(a.run[i] - a.ref[i]));
  }
}

/// The gap statistics of an alignment, with the range note (see CompareOptions).
DeltaStats stats_of(const Aligned& a, Axis axis, double range_note_fraction);
/// run - ref at every aligned point (RunComparison::delta_curve).
Series delta_of(const Aligned& a);
/// max |delta| over the finite points (0 when none), as stats_of() reads it.
double max_abs_delta(const Aligned& a);

}  // namespace parity::analysis::verdict_detail
