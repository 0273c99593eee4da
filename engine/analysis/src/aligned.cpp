// The gap between two curves: alignment, delta statistics, range notes and the delta curve.

#include "aligned.h"

#include <algorithm>
#include <string>

#include "verdict_util.h"

namespace parity::analysis::verdict_detail {
namespace {

std::string span(const Range& r) { return num(r.lo) + "–" + num(r.hi); }

// The plain-language note when the runs cover noticeably different x ranges.
void note_ranges(DeltaStats& d, double range_note_fraction) {
  if (d.reference_range.empty() || d.run_range.empty()) return;
  const std::string name = to_string(d.axis);
  if (d.overlap.empty()) {
    d.different_ranges = true;
    d.range_note = "no overlap on " + name + ": this run " + span(d.run_range) + ", reference " +
                   span(d.reference_range);
    return;
  }
  const double slack = range_note_fraction * d.reference_range.width();
  if (std::abs(d.run_range.lo - d.reference_range.lo) > slack ||
      std::abs(d.run_range.hi - d.reference_range.hi) > slack) {
    d.different_ranges = true;
    const double share =
        d.reference_range.width() > 0 ? 100 * d.overlap.width() / d.reference_range.width() : 100.0;
    d.range_note = "runs cover different " + name + " ranges: this run " + span(d.run_range) +
                   ", reference " + span(d.reference_range) + "; compared on " + span(d.overlap) +
                   " only (" + num(share, 3) + "% of the reference)";
  }
}

}  // namespace

Aligned align(const Series& run, const Series& reference) {
  Aligned a;
  a.reference_range = x_range(reference);
  a.run_range = x_range(run);
  const Resampled r = interpolate(run, reference.x);
  for (size_t i = 0; i < reference.x.size(); ++i) {
    if (!r.covered[i]) continue;
    a.x.push_back(reference.x[i]);
    a.ref.push_back(reference.y[i]);
    a.run.push_back(r.y[i]);
  }
  return a;
}

DeltaStats stats_of(const Aligned& a, Axis axis, double range_note_fraction) {
  DeltaStats d;
  d.axis = axis;
  d.reference_range = a.reference_range;
  d.run_range = a.run_range;
  d.overlap = overlap(d.reference_range, d.run_range);
  double sum = 0;
  for_each_finite(a, [&](size_t i, double delta) {
    const double rel = a.ref[i] != 0 ? delta / std::abs(a.ref[i]) : 0.0;
    if (d.points == 0 || delta > d.max_abs) {
      d.max_abs = delta;
      d.x_at_max = a.x[i];
    }
    d.max_rel = std::max(d.max_rel, rel);
    d.final_abs = delta;
    d.final_rel = rel;
    sum += delta;
    ++d.points;
  });
  d.nonfinite_points = a.x.size() - d.points;
  if (d.points > 0) d.mean_abs = sum / static_cast<double>(d.points);
  note_ranges(d, range_note_fraction);
  return d;
}

Series delta_of(const Aligned& a) {
  Series out{a.x, {}};
  out.y.reserve(a.x.size());
  for (size_t i = 0; i < a.x.size(); ++i) out.y.push_back(a.run[i] - a.ref[i]);
  return out;
}

double max_abs_delta(const Aligned& a) {
  double max_abs = 0;
  for_each_finite(a, [&](size_t, double delta) { max_abs = std::max(max_abs, delta); });
  return max_abs;
}

}  // namespace parity::analysis::verdict_detail
