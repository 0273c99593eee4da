// libFuzzer target: a run config's JSON (--config FILE, a run-set, a stored run's config). Bad
// input is refused with ConfigError naming the field; a config that reads must check() and write
// back without throwing.
#include <parity/config/config_error.h>
#include <parity/config/run_config.h>

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const parity::config::RunConfig c =
        parity::config::from_json(std::string(reinterpret_cast<const char*>(data), size));
    parity::config::check(c);
    parity::config::from_json(parity::config::to_json(c));
  } catch (const parity::config::ConfigError&) {
  }
  return 0;
}
