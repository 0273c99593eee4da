// The determinism check of a rerun: bitwise comparison of two loss series.

#include <parity/analysis/verdict.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "verdict_util.h"

namespace parity::analysis {

using namespace verdict_detail;

DeterminismResult first_difference(const std::vector<CurvePoint>& a,
                                   const std::vector<CurvePoint>& b) {
  DeterminismResult r;
  r.points = a.size();
  r.other_points = b.size();
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    const bool same_step = a[i].step == b[i].step;
    if (same_step && std::memcmp(&a[i].loss, &b[i].loss, sizeof(double)) == 0) continue;
    r.first_step = std::min(a[i].step, b[i].step);
    r.loss = a[i].loss;
    r.other_loss = b[i].loss;
    r.abs_diff = std::abs(a[i].loss - b[i].loss);
    r.summary = same_step ? "first difference at step " + num(a[i].step) + ": loss " +
                                num(a[i].loss, 17) + " vs " + num(b[i].loss, 17) + " (|Δ| " +
                                num(r.abs_diff, 3) + ")"
                          : "step numbers diverge after " + num(int64_t(i)) + " points: step " +
                                num(a[i].step) + " vs " + num(b[i].step);
    return r;
  }
  if (a.size() == b.size()) {
    r.identical = true;
    r.summary = "bitwise identical (" + num(int64_t(n)) + " steps)";
    return r;
  }
  const bool a_longer = a.size() > b.size();
  const CurvePoint& extra = a_longer ? a[n] : b[n];
  r.first_step = extra.step;
  r.loss = a_longer ? extra.loss : kNaN;
  r.other_loss = a_longer ? kNaN : extra.loss;
  r.abs_diff = kNaN;
  r.summary = "identical for the first " + num(int64_t(n)) + " steps, then only " +
              (a_longer ? "the first" : "the second") + " run has step " + num(extra.step) + " (" +
              num(int64_t(a.size())) + " vs " + num(int64_t(b.size())) + " steps)";
  return r;
}

}  // namespace parity::analysis
