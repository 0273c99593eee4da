// libFuzzer target: TensorBoard event-file bytes (TFRecord frames, both CRC32Cs, Event/Summary
// protobufs). Damage is counted in the result, never thrown: nothing may escape.
#include <parity/ingest/tensorboard.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  parity::ingest::parse_tensorboard_events(
      std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
