#pragma once
/// The report as one self-contained HTML page (no network, no script): the question and the
/// answer, the loss curves and the delta plot as inline SVG (hover titles, the seeds' band
/// shaded, where the curves part marked), the verdict table, the proofs, the config diffs, the
/// equivalent-batch table, each run's facts with their provenance, and the environment.
/// The PDF writer lays out the same page through Qt, with the plots as images it renders itself.

#include <parity/report/report.h>

#include <string>

namespace parity::report {

struct HtmlOptions {
  /// true: the plots inline as <svg>; false: <img src="parity-plot:loss"> and
  /// "parity-plot:delta", for a renderer that is given loss_svg() and delta_svg() as images.
  bool inline_svg = true;
  int plot_width = 760;
  int plot_height = 380;
};

inline constexpr const char* kLossPlotUrl = "parity-plot:loss";
inline constexpr const char* kDeltaPlotUrl = "parity-plot:delta";

std::string report_html(const Report& report, const HtmlOptions& options = {});
/// The plots alone, as standalone SVG documents.
std::string loss_svg(const Report& report, const HtmlOptions& options = {});
std::string delta_svg(const Report& report, const HtmlOptions& options = {});

}  // namespace parity::report
