#pragma once
/// Where the loss chart puts its ticks: round linear steps, and labelled ticks on a log axis
/// (Qt Charts' QLogValueAxis labels only powers of its base, so 0.35-2.3 showed a lone "1").
/// Plain functions; callable from any thread.

#include <vector>

namespace parity::plot {

/// 1, 2 or 5 times a power of ten, near span / ticks.
double niceStep(double span, int ticks);

/// Tick values in [lo, hi] (both > 0) for a log axis `heightPx` pixels tall: the densest of
/// 1-per-decade, 1-2-5 and 1..9 per decade whose neighbours stay `minGapPx` apart, or, over less
/// than a factor of ~2, round linear steps. At least two ticks whenever lo < hi.
std::vector<double> logTicks(double lo, double hi, double heightPx, double minGapPx = 18);

}  // namespace parity::plot
