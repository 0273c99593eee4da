#pragma once
/// How a Report becomes a file or the terminal's text: one ReportWriter per format, found by
/// name or by a file's extension in one registry. A new format is one file defining a writer and
/// one line in builtin_writers() (report_writer.cpp); a writer that needs more than this
/// library (the PDF, through Qt) is added at start-up with register_writer().
/// Thread contract: register writers before any thread looks one up; writers are stateless.

#include <parity/report/report.h>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace parity::report {

class ReportWriter {
 public:
  virtual ~ReportWriter() = default;
  /// "text", "csv", "html", "pdf": what --format and the registry call it.
  virtual std::string name() const = 0;
  /// The file extension it writes, without the dot ("html"); "" for the terminal's text.
  virtual std::string extension() const = 0;
  /// Writes the whole report to `out` (opened binary by write_report_file). Throws ReportError.
  virtual void write(const Report& report, std::ostream& out) const = 0;
};

/// Adds a writer; one with the same name is replaced.
void register_writer(std::unique_ptr<ReportWriter> writer);
/// The writer named `name`, or nullptr.
const ReportWriter* writer_named(const std::string& name);
/// The writer of a path's extension (case-insensitive), or nullptr.
const ReportWriter* writer_for_path(const std::string& path);
/// Extensions of every file writer, in registration order ("csv", "html", ...).
std::vector<std::string> file_extensions();

/// Writes `report` to `path` with the writer of its extension, whole or not at all: into a
/// temporary file beside it, renamed over `path` once written. Throws ReportError when no writer
/// knows the extension, the folder cannot be written or the writer fails (nothing is left).
void write_report_file(const Report& report, const std::string& path);

}  // namespace parity::report
