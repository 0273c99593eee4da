// libFuzzer target: an MLflow file store's run, the store's texts cut from one input at NUL bytes:
// the experiment's meta.yaml, the run's meta.yaml, its metric file metrics/train/loss (each line
// "timestamp value [step]") and a param file. The folder is written afresh for each input and
// read as a user's import and follow read it (find_mlflow_runs, poll, run). A store that is no
// store is refused with IngestError; anything else escaping (or a crash, a leak, UB) is a bug.
#include <parity/ingest/ingest_error.h>
#include <parity/ingest/mlflow.h>

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

// One private folder per fuzzing process, removed when it ends.
const fs::path& store_folder() {
  static const fs::path folder = [] {
    std::string tmpl = (fs::temp_directory_path() / "parity-mlflow-fuzz-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) std::abort();
    std::atexit([] { std::error_code ec; fs::remove_all(store_folder(), ec); });
    return fs::path(tmpl);
  }();
  return folder;
}

void write(const fs::path& file, std::string_view text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary).write(text.data(), std::streamsize(text.size()));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> parts;
  for (size_t at = 0; parts.size() < 4;) {
    const size_t end = std::min(input.find('\0', at), input.size());
    parts.push_back(input.substr(at, end - at));
    if (end == input.size()) break;
    at = end + 1;
  }
  parts.resize(4);
  const fs::path mlruns = store_folder() / "mlruns";
  std::error_code ec;
  fs::remove_all(mlruns, ec);
  const fs::path run = mlruns / "1" / "0123456789abcdef";
  write(mlruns / "1" / "meta.yaml", parts[0]);
  write(run / "meta.yaml", parts[1]);
  write(run / "metrics" / "train" / "loss", parts[2]);
  write(run / "params" / "learning_rate", parts[3]);
  try {
    for (auto& reader : parity::ingest::find_mlflow_runs(mlruns.string())) {
      reader->poll();
      reader->run({});
      reader->poll();  // following: nothing new
    }
  } catch (const parity::ingest::IngestError&) {
  }
  return 0;
}
