#include <parity/ingest/find_runs.h>
#include <parity/ingest/ingest_error.h>

#include <filesystem>

namespace parity::ingest {

namespace {

// Leaves out each run another one holds (the Trainer's own TensorBoard files, read from its
// trainer_state.json). The last holder in the list notes it.
RunReaders without_same_training(RunReaders found) {
  std::vector<bool> held(found.size(), false);
  for (size_t i = 0; i < found.size(); ++i) {
    for (size_t j = found.size(); j-- > 0;) {
      if (j == i || held[j]) continue;
      if (found[j]->holds_same_training(*found[i])) {
        held[i] = true;
        break;
      }
    }
  }
  RunReaders out;
  for (size_t i = 0; i < found.size(); ++i)
    if (!held[i]) out.push_back(std::move(found[i]));
  return out;
}

}  // namespace

RunReaders find_runs(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw IngestError(path + " does not exist");
  const bool file = std::filesystem::is_regular_file(path, ec);
  // A file one format owns (an MLflow database) is the whole answer: the other formats take a
  // file's folder for a logdir.
  if (file) {
    for (const Format& f : formats()) {
      if (!f.owns_file) continue;
      RunReaders runs = f.find(path);
      if (!runs.empty()) return runs;
    }
  }
  RunReaders found;
  for (const Format& f : formats()) {
    if (file && f.owns_file) continue;  // asked above
    for (auto& r : f.find(path)) found.push_back(std::move(r));
  }
  return without_same_training(std::move(found));
}

}  // namespace parity::ingest
