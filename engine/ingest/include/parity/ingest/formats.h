#pragma once
/// The import formats, one entry each (engine/ingest/src/formats.cpp): adding a format is its
/// reader (a RunReader and a finder over a path, in a file of its own) and one line there.

#include <parity/ingest/run_reader.h>

#include <memory>
#include <string>
#include <vector>

namespace parity::ingest {

struct Format {
  std::string key;   ///< its name, as ImportedRun::format says it ("csv" also reads JSONL)
  std::string what;  ///< what it reads, in words: "event files"
  /// The runs of this format under a path; empty when none. Throws IngestError when the path
  /// cannot be read.
  RunReaders (*find)(const std::string& path) = nullptr;
  /// A file it finds runs in is its alone: the other formats take a file's folder for a logdir,
  /// so they are not asked (MLflow's SQLite store).
  bool owns_file = false;
};

/// Every format, in the order find_runs() lists their runs.
const std::vector<Format>& formats();

/// What the formats read, in words: "event files, trainer_state.json, CSV or MLflow store".
std::string formats_in_words();

}  // namespace parity::ingest
