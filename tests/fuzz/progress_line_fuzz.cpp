// libFuzzer target: a line a rank writes to its status pipe (the worker's progress protocol).
#include <parity/launch/launch_error.h>
#include <parity/launch/progress_protocol.h>

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    parity::launch::decode_line(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const parity::launch::LaunchError&) {
  }
  return 0;
}
