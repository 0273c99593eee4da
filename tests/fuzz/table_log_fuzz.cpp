// libFuzzer target: a table log's text, read as CSV and as JSONL (the first byte picks).
#include <parity/ingest/ingest_error.h>
#include <parity/ingest/table_log.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const char* file = data[0] % 2 ? "fuzz/log.jsonl" : "fuzz/run-a-tag-train_loss.csv";
  try {
    parity::ingest::read_table_log(
        std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1), file);
  } catch (const parity::ingest::IngestError&) {
  }
  return 0;
}
