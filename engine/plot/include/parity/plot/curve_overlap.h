#pragma once
/// Which drawn curves coincide, so that the chart can draw the later ones dashed over the first
/// (1x64 and 2x32 overlap exactly: the seed's very point, and invisible as two solid lines).
/// Plain functions; callable from any thread.

#include <parity/analysis/curve_analysis.h>

#include <utility>
#include <vector>

namespace parity::plot {

struct OverlapOptions {
  /// Largest |a - b| at a common x, as a fraction of both curves' loss range (0.1 %: under a
  /// pixel on any chart).
  double relTolerance = 1e-3;
  /// Common x values needed, as a fraction of the shorter curve's points (and at least 2).
  double minCommonFraction = 0.5;
};

/// True when a and b (x ascending) share enough x values and agree at every one of them; NaN
/// matches NaN only.
bool curvesCoincide(const analysis::Series& a, const analysis::Series& b,
                    const OverlapOptions& options = {});

/// For each curve, the index of the earlier curve it coincides with (the first of its group), or
/// -1. A null or empty curve coincides with none.
std::vector<int> identicalGroups(const std::vector<const analysis::Series*>& curves,
                                 const OverlapOptions& options = {});
/// The same, with each curve's finite y range given ({lo, hi}, lo > hi when it has none; a
/// MinMaxIndex finds it without reading every point), for long curves checked often.
std::vector<int> identicalGroups(const std::vector<const analysis::Series*>& curves,
                                 const std::vector<std::pair<double, double>>& yRanges,
                                 const OverlapOptions& options = {});

}  // namespace parity::plot
