#pragma once
/// What stops a report, in a header of its own: an unknown run, a reference with no steps, an
/// output that cannot be written, a file name no writer knows.

#include <stdexcept>
#include <string>

namespace parity::report {

/// what() names what was wrong and with what ("run 9 is not in /tmp/a.db", "cannot write
/// /ro/r.html: Permission denied").
class ReportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace parity::report
