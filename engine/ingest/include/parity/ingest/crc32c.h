#pragma once
/// CRC32C (Castagnoli: reflected polynomial 0x82F63B78, init and final XOR 0xFFFFFFFF), as
/// TFRecord frames use it, with TensorFlow's mask (crc32c.h: rotate right 15, add 0xa282ead8).
/// A 256-entry table; Debian 12 packages no CRC32C library. crc32c("123456789") = 0xE3069283.

#include <cstdint>
#include <string_view>

namespace parity::ingest {

uint32_t crc32c(std::string_view bytes);
uint32_t masked_crc32c(std::string_view bytes);

}  // namespace parity::ingest
