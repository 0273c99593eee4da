#pragma once
// Test helper: TensorBoard event records built field by field from the protobuf wire format, as
// torch.utils.tensorboard / tensorboardX / TF2 write them (field numbers of event.proto,
// summary.proto and tensor.proto), framed as TFRecord with masked CRC32C.
#include <parity/ingest/crc32c.h>

#include <cstdint>
#include <cstring>
#include <string>

namespace parity::ingest::test {

inline std::string varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
  return out;
}
inline std::string fixed(uint64_t v, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
  return out;
}
inline std::string key(int field, int type) {
  return varint(static_cast<uint64_t>(field << 3 | type));
}
inline std::string len_field(int field, const std::string& bytes) {
  return key(field, 2) + varint(bytes.size()) + bytes;
}
inline std::string double_field(int field, double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, 8);
  return key(field, 1) + fixed(bits, 8);
}
inline std::string float_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return fixed(bits, 4);
}
inline std::string float_field(int field, float f) { return key(field, 5) + float_bits(f); }
inline std::string varint_field(int field, uint64_t v) { return key(field, 0) + varint(v); }

inline std::string metadata(const std::string& plugin, const std::string& content = "") {
  return len_field(
      9, len_field(1, len_field(1, plugin) + (content.empty() ? "" : len_field(2, content))));
}
/// Summary.Value{tag, simple_value}
inline std::string simple_value(const std::string& tag, float v) {
  return len_field(1, tag) + float_field(2, v);
}
/// Summary.Value{tag, metadata (scalars plugin), tensor}
inline std::string tensor_value(const std::string& tag, const std::string& tensor, bool with_meta) {
  return len_field(1, tag) + (with_meta ? metadata("scalars") : "") + len_field(8, tensor);
}
inline std::string event(double wall, int64_t step, const std::string& values) {
  return double_field(1, wall) + varint_field(2, static_cast<uint64_t>(step)) +
         len_field(5, len_field(1, values));
}
inline std::string event_multi(double wall, int64_t step, const std::string& summary_values) {
  return double_field(1, wall) + varint_field(2, static_cast<uint64_t>(step)) +
         len_field(5, summary_values);
}
inline std::string file_version_event(double wall) {
  return double_field(1, wall) + len_field(3, "brain.Event:2");
}
inline std::string record(const std::string& data) {
  const std::string length = fixed(data.size(), 8);
  return length + fixed(masked_crc32c(length), 4) + data + fixed(masked_crc32c(data), 4);
}

}  // namespace parity::ingest::test
