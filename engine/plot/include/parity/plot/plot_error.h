#pragma once
/// What the plot library throws: a misuse of its inputs (mismatched lengths, an index of another
/// series), named in the message.
#include <stdexcept>

namespace parity::plot {

class PlotError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace parity::plot
