// Numeric option checks that say what is allowed in words.
#include <cmath>
#include <string>

#include "commands.h"

namespace parity::cli {
namespace {

CLI::Validator number_check(bool zero_allowed) {
  const std::string allowed = zero_allowed ? "a number, 0 or more" : "a number above 0";
  return CLI::Validator(
      [zero_allowed, allowed](std::string& text) -> std::string {
        size_t used = 0;
        double v = 0;
        try {
          v = std::stod(text, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        const bool ok =
            used == text.size() && used > 0 && std::isfinite(v) && (zero_allowed ? v >= 0 : v > 0);
        return ok ? "" : "'" + text + "' is not allowed; it must be " + allowed;
      },
      zero_allowed ? "NUMBER>=0" : "NUMBER>0");
}

}  // namespace

CLI::Validator above_zero() { return number_check(false); }
CLI::Validator zero_or_more() { return number_check(true); }

}  // namespace parity::cli
