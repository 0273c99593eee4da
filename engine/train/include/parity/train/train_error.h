#pragma once
/// The training library's error type, in a header of its own.

#include <stdexcept>

namespace parity::train {

/// Failure inside the training loop (bad data path, collective error, ...).
class TrainError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace parity::train
