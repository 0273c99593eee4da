#pragma once
/// A plain text table for the terminal (`compare`, `list`, the report's text writer): columns
/// padded to their widest cell, cells that look like numbers right-aligned, two spaces between
/// columns.

#include <ostream>
#include <string>
#include <vector>

namespace parity::report {

/// text with every control character (C0, DEL and UTF-8's C1) written as a visible \xNN: a
/// stored label holding a terminal escape sequence is shown, never obeyed by the terminal.
/// kKeep leaves line breaks as they are (a multi-line text such as a config).
enum class Breaks { kEscape, kKeep };
std::string terminal_safe(const std::string& text, Breaks breaks = Breaks::kEscape);

class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  /// Adds a row (each cell made terminal_safe); missing cells print empty, extra cells are ignored.
  void add(std::vector<std::string> row) {
    for (auto& cell : row) cell = terminal_safe(cell);
    rows_.push_back(std::move(row));
  }
  bool empty() const { return rows_.empty(); }
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace parity::report
