#pragma once
/// The terminal's table and safe text, shared with the report's text writer (parity::report).

#include <parity/report/text_table.h>

namespace parity::cli {

using report::Breaks;
using report::Table;
using report::terminal_safe;

}  // namespace parity::cli
