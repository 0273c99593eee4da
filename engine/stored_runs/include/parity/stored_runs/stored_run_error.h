#pragma once
/// A stored run the verdict cannot read, in a header of its own.

#include <stdexcept>
#include <string>

namespace parity::stored_runs {

/// A stored run that cannot be read as a verdict input: it is not in the database, or its
/// config does not load. what() names the run (and the database or the config's problem).
class StoredRunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace parity::stored_runs
