#pragma once
// A test that needs something the machine lacks (root, a tool, a locale, a data package) skips on
// a developer's machine but fails in CI: scripts/install-deps.sh installs everything a test needs,
// so under CI=true a skip would only hide a test that did not run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

namespace parity::testing {

/// True when the environment says CI (CI=true, as CI runs .ci/run).
inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && (std::strcmp(ci, "true") == 0 || std::strcmp(ci, "1") == 0);
}

}  // namespace parity::testing

/// GTEST_SKIP() outside CI, a fatal failure in it; streams its reason as GTEST_SKIP() does:
///   if (!have_tool) PARITY_SKIP_OR_FAIL() << "xdotool is not installed";
#define PARITY_SKIP_OR_FAIL()                                                                 \
  return GTEST_MESSAGE_(::parity::testing::in_ci()                                            \
                            ? "CI=true, so this test fails instead of skipping "              \
                              "(scripts/install-deps.sh installs what it needs)"              \
                            : "",                                                             \
                        ::parity::testing::in_ci() ? ::testing::TestPartResult::kFatalFailure \
                                                   : ::testing::TestPartResult::kSkip)
