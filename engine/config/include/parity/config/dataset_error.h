#pragma once
/// Data that cannot be read or does not fit the setup, in a header of its own.

#include <stdexcept>
#include <string>

namespace parity::config {

/// A dataset file that cannot be read: names the file and what was wrong with it.
class DatasetError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace parity::config
