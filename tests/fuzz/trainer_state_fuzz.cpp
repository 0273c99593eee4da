// libFuzzer target: a trainer_state.json's text. A text that is no trainer state is refused with
// IngestError; anything else escaping (or a crash, a leak, UB) is a bug.
#include <parity/ingest/ingest_error.h>
#include <parity/ingest/trainer_state.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    parity::ingest::read_trainer_state(std::string_view(reinterpret_cast<const char*>(data), size),
                                       "fuzz/trainer_state.json");
  } catch (const parity::ingest::IngestError&) {
  }
  return 0;
}
