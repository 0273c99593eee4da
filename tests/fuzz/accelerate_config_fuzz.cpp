// libFuzzer target: the YAML `accelerate config` writes (--accelerate-config FILE, the window's
// "Import accelerate config…"). A text that is no such file, or a used key holding a value Parity
// cannot take, is refused with ConfigError; anything else escaping (or a crash, a leak, UB) is a
// bug. A file that reads must apply to a setup without throwing.
#include <parity/config/accelerate_config.h>
#include <parity/config/config_error.h>
#include <parity/config/run_config.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const parity::config::AccelerateConfig a = parity::config::parse_accelerate_config(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz/default_config.yaml");
    parity::config::RunConfig c;
    parity::config::apply_accelerate_config(a, c);
  } catch (const parity::config::ConfigError&) {
  }
  return 0;
}
