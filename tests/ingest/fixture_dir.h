#pragma once
// The repository's upstream fixtures (tests/fixtures/accelerate-tensorboard). They are part of
// the checkout, so a missing folder is a broken checkout: the test fails, it never skips.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace parity::ingest::test {

inline std::string accelerate_fixtures() {
  return std::string(PARITY_FIXTURES) + "/accelerate-tensorboard";
}

#define PARITY_REQUIRE_FIXTURES()                                                          \
  ASSERT_TRUE(std::filesystem::is_directory(::parity::ingest::test::accelerate_fixtures())) \
      << "no fixtures at " << ::parity::ingest::test::accelerate_fixtures()

}  // namespace parity::ingest::test
