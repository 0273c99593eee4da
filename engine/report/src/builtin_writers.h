#pragma once
// The writers this library defines, each in its own file; report_writer.cpp registers them.

#include <parity/report/report_writer.h>

#include <memory>

namespace parity::report {

std::unique_ptr<ReportWriter> make_text_writer();
std::unique_ptr<ReportWriter> make_csv_writer();
std::unique_ptr<ReportWriter> make_html_writer();

}  // namespace parity::report
