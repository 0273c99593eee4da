#pragma once
// The shared fixtures folder (a copy of shared/ beside the repository; -DPARITY_FIXTURES_DIR
// elsewhere). Missing: the test skips, except under CI=true, where no test may skip.
#include <gtest/gtest.h>
#include <parity/test_support/ci_skip.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace parity::ingest::test {

inline std::string accelerate_fixtures() {
  return std::string(PARITY_FIXTURES) + "/accelerate-tensorboard";
}

// Skips on a developer's machine without the fixtures, fails under CI=true (ci_skip.h).
#define PARITY_REQUIRE_FIXTURES()                                                    \
  if (!std::filesystem::is_directory(::parity::ingest::test::accelerate_fixtures())) \
  PARITY_SKIP_OR_FAIL() << "no fixtures at " << ::parity::ingest::test::accelerate_fixtures()

}  // namespace parity::ingest::test
