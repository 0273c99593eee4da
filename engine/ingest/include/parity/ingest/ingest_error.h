#pragma once
/// What the import readers throw when a whole input cannot be read (an unreadable file, a
/// folder with no runs, a store that is not one). Damage inside a file (a CRC mismatch, a bad
/// line) is not thrown: the readers skip and count it, and say so in the run's notes.

#include <stdexcept>
#include <string>

namespace parity::ingest {

class IngestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace parity::ingest
