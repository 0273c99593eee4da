#pragma once
// The shared fixtures folder (a copy of shared/ beside the repository; -DPARITY_FIXTURES_DIR
// elsewhere). Missing: the test skips, except under CI=true, where no test may skip.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace parity::ingest::test {

inline std::string accelerate_fixtures() {
  return std::string(PARITY_FIXTURES) + "/accelerate-tensorboard";
}

#define PARITY_REQUIRE_FIXTURES()                                                         \
  do {                                                                                    \
    if (!std::filesystem::is_directory(::parity::ingest::test::accelerate_fixtures())) {  \
      const char* ci = std::getenv("CI");                                                 \
      if (ci && std::string(ci) == "true") {                                              \
        FAIL() << "no fixtures at " << ::parity::ingest::test::accelerate_fixtures();     \
      }                                                                                   \
      GTEST_SKIP() << "no fixtures at " << ::parity::ingest::test::accelerate_fixtures(); \
    }                                                                                     \
  } while (0)

}  // namespace parity::ingest::test
