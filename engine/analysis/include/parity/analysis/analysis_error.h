#pragma once
/// The analysis library's error type, in a header of its own.

#include <stdexcept>
#include <string>

namespace parity::analysis {

/// A bad argument to an analysis function (mismatched lengths, a weight out of range, ...).
/// what() names the argument and its value.
class AnalysisError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace parity::analysis
