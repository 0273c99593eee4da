#pragma once
/// A plain text table for the terminal: columns padded to their widest cell, cells that look like
/// numbers right-aligned, two spaces between columns.

#include <ostream>
#include <string>
#include <vector>

namespace parity::cli {

class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  /// Adds a row; missing cells print empty, extra cells are ignored.
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  bool empty() const { return rows_.empty(); }
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace parity::cli
