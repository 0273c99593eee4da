// libFuzzer target: a line of a user's command's stdout (the PARITY {json} protocol), behind any
// launcher prefixes (torchrun's "[default0]:", srun's "0: "). A line that is not the protocol is
// nullopt; a PARITY line that is wrong is refused with LaunchError.
#include <parity/launch/launch_error.h>
#include <parity/launch/launcher_prefix.h>
#include <parity/launch/parity_line.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const std::string_view line(reinterpret_cast<const char*>(data), size);
    parity::launch::parse_parity_line(parity::launch::strip_launcher_prefixes(line).text);
  } catch (const parity::launch::LaunchError&) {
  }
  return 0;
}
