#pragma once
/// The window library's own error type: what its Qt-free helpers (decimation, ...) throw for
/// arguments they cannot use. The window catches it where it shows errors.

#include <stdexcept>

namespace parity::ui {

class UiError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace parity::ui
