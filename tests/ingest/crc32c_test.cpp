#include <gtest/gtest.h>
#include <parity/ingest/crc32c.h>

namespace parity::ingest {
namespace {

TEST(Crc32c, StandardCheckValue) { EXPECT_EQ(crc32c("123456789"), 0xE3069283u); }

TEST(Crc32c, TensorboardXVector) { EXPECT_EQ(crc32c("abcd"), 0x92c80a31u); }

TEST(Crc32c, EmptyIsZero) { EXPECT_EQ(crc32c(""), 0u); }

// The first record of a real event file (the fixtures' 1x32): its length 24 and the masked CRC
// a writer stored beside it.
TEST(Crc32c, MaskMatchesARealWriter) {
  const std::string length("\x18\0\0\0\0\0\0\0", 8);
  EXPECT_EQ(masked_crc32c(length), 0x224b7fa3u);
}

}  // namespace
}  // namespace parity::ingest
