#pragma once
/// The launch library's error: ranks that cannot be started at all. Its own header so the
/// process plumbing below the supervisor can throw it without including the supervisor.

#include <stdexcept>

namespace parity::launch {

/// Thrown when ranks cannot be started at all (missing worker binary, no free port, ...).
class LaunchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace parity::launch
