#include <parity/report/report_writer.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "builtin_writers.h"

namespace parity::report {
namespace {

// The registry, filled with this library's writers on first use. A new writer of this library
// is one line here.
std::vector<std::unique_ptr<ReportWriter>>& registry() {
  static std::vector<std::unique_ptr<ReportWriter>> writers = [] {
    std::vector<std::unique_ptr<ReportWriter>> w;
    w.push_back(make_text_writer());
    w.push_back(make_csv_writer());
    w.push_back(make_html_writer());
    return w;
  }();
  return writers;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

void register_writer(std::unique_ptr<ReportWriter> writer) {
  auto& writers = registry();
  for (auto& w : writers) {
    if (w->name() == writer->name()) {
      w = std::move(writer);
      return;
    }
  }
  writers.push_back(std::move(writer));
}

const ReportWriter* writer_named(const std::string& name) {
  for (const auto& w : registry())
    if (w->name() == name) return w.get();
  return nullptr;
}

const ReportWriter* writer_for_path(const std::string& path) {
  std::string ext = lower(std::filesystem::path(path).extension().string());
  if (ext.empty()) return nullptr;
  ext.erase(0, 1);
  for (const auto& w : registry())
    if (!w->extension().empty() && w->extension() == ext) return w.get();
  return nullptr;
}

std::vector<std::string> file_extensions() {
  std::vector<std::string> out;
  for (const auto& w : registry())
    if (!w->extension().empty()) out.push_back(w->extension());
  return out;
}

void write_report_file(const Report& report, const std::string& path) {
  const ReportWriter* writer = writer_for_path(path);
  if (!writer) {
    std::string known;
    for (const auto& e : file_extensions()) known += (known.empty() ? "." : ", .") + e;
    throw ReportError("no report writer for '" + path + "': the file name must end in " + known);
  }
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    throw ReportError("cannot write " + path + ": the folder " + folder.string() +
                      " does not exist");
  // Written whole beside the target, then renamed over it: a reader never sees half a report,
  // and a failure leaves nothing.
  std::string tmp_name = (folder / ("." + target.filename().string() + ".XXXXXX")).string();
  const int fd = mkstemp(tmp_name.data());
  if (fd < 0) throw ReportError("cannot write " + path + ": " + std::strerror(errno));
  ::close(fd);
  try {
    {
      std::ofstream out(tmp_name, std::ios::binary | std::ios::trunc);
      if (!out) throw ReportError("cannot write " + path + ": " + std::strerror(errno));
      writer->write(report, out);
      out.flush();
      if (!out) throw ReportError("cannot write " + path + ": the disk refused the data");
    }
    fs::permissions(tmp_name,
                    fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                        fs::perms::others_read,
                    ec);
    fs::rename(tmp_name, target, ec);
    if (ec) throw ReportError("cannot write " + path + ": " + ec.message());
  } catch (...) {
    std::remove(tmp_name.c_str());
    throw;
  }
}

}  // namespace parity::report
