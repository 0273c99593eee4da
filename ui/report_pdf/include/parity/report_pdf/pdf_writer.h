#pragma once
/// The report as a PDF for A4, through Qt's own PDF writer: the HTML report's page laid out by
/// QTextDocument, its two plots rendered from the same SVG by QSvgRenderer. The one report
/// writer that needs Qt (Gui and Svg, no widgets), so it lives beside parity_report rather than
/// in it; parity-cli and the window register it at start-up.
/// Thread affinity: the thread of the QGuiApplication. Where none exists (parity-cli), write()
/// creates one for its own duration on Qt's offscreen platform unless QT_QPA_PLATFORM says
/// otherwise, so no display is needed.

#include <parity/report/report_writer.h>

#include <memory>

namespace parity::report_pdf {

/// The writer named "pdf", extension "pdf".
std::unique_ptr<report::ReportWriter> make_pdf_writer();
/// report::register_writer(make_pdf_writer()).
void register_pdf_writer();

}  // namespace parity::report_pdf
