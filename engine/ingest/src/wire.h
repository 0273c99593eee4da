#pragma once
// Private to parity_ingest: a bounds-checked reader of the protobuf wire format (varint, 64-bit,
// length-delimited, 32-bit), enough for TensorBoard's Event, Summary and TensorProto and the
// hparams plugin's messages. Every read checks the bytes left; a malformed message throws
// WireError, never reads past its end. Unknown fields are skipped, as protobuf parsers do.

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string_view>

namespace parity::ingest::detail {

class WireError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLen = 2, kFixed32 = 5 };

struct Field {
  uint32_t number = 0;
  WireType type = kVarint;
  uint64_t varint = 0;     // kVarint; the raw bits for kFixed64 / kFixed32
  std::string_view bytes;  // kLen

  double as_double() const {
    double d;
    std::memcpy(&d, &varint, sizeof d);
    return d;
  }
  float as_float() const {
    const uint32_t bits = static_cast<uint32_t>(varint);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
};

class WireReader {
 public:
  explicit WireReader(std::string_view bytes)
      : p_(bytes.data()), end_(bytes.data() + bytes.size()) {}

  bool done() const { return p_ >= end_; }

  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ >= end_) throw WireError("truncated varint");
      const auto b = static_cast<unsigned char>(*p_++);
      v |= static_cast<uint64_t>(b & 0x7F) << shift;
      if ((b & 0x80) == 0) return v;
    }
    throw WireError("varint longer than 10 bytes");
  }

  uint64_t fixed(size_t n) {
    if (static_cast<size_t>(end_ - p_) < n) throw WireError("truncated fixed-width field");
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i)
      v |= static_cast<uint64_t>(static_cast<unsigned char>(p_[i])) << (8 * i);
    p_ += n;
    return v;
  }

  Field next() {
    Field f;
    const uint64_t key = varint();
    f.number = static_cast<uint32_t>(key >> 3);
    f.type = static_cast<WireType>(key & 7);
    if (f.number == 0) throw WireError("field number 0");
    switch (f.type) {
      case kVarint:
        f.varint = varint();
        break;
      case kFixed64:
        f.varint = fixed(8);
        break;
      case kFixed32:
        f.varint = fixed(4);
        break;
      case kLen: {
        const uint64_t n = varint();
        if (n > static_cast<uint64_t>(end_ - p_))
          throw WireError("length-delimited field past the end");
        f.bytes = std::string_view(p_, static_cast<size_t>(n));
        p_ += n;
        break;
      }
      default:
        throw WireError("unsupported wire type " + std::to_string(static_cast<int>(f.type)));
    }
    return f;
  }

 private:
  const char* p_;
  const char* end_;
};

}  // namespace parity::ingest::detail
