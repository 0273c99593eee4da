// libFuzzer target: a CSV line as the trainer, plan and the table-log reader split it, and a
// header's columns checked for repeats.
#include <parity/config/data_sizes.h>
#include <parity/config/dataset_error.h>

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto cells =
      parity::config::split_csv_line(std::string(reinterpret_cast<const char*>(data), size));
  try {
    parity::config::require_unique_columns(cells, "fuzz.csv");
  } catch (const parity::config::DatasetError&) {
  }
  return 0;
}
