// Advice fits the error: an export to a folder that does not exist is told about the folder,
// not offered the failed-run advice ("Hover the run's status in the Runs table").
#include <gtest/gtest.h>
#include <parity/ui/window/error_advice.h>

namespace parity::ui {
namespace {

TEST(ErrorAdvice, AnExportThatCannotWriteIsToldAboutItsFolder) {
  // The message DatabaseWorker::exportCurves gives.
  const Advice a = adviseOnOperation("cannot open /no/such/folder/curves.csv for writing");
  EXPECT_TRUE(a.fix.contains("folder exists")) << a.fix.toStdString();
  EXPECT_FALSE(a.fix.contains("Runs table")) << a.fix.toStdString();
  EXPECT_TRUE(a.problem.contains("/no/such/folder/curves.csv"));
  // The run's advice is unchanged where a run failed.
  EXPECT_TRUE(adviseOn("rank 1 exited with status 1").fix.contains("Runs table"));
  // Usual database failures keep their own advice in an operation too.
  EXPECT_TRUE(adviseOnOperation("database is locked").fix.contains("Wait"));
  EXPECT_FALSE(adviseOnOperation("no run 42").fix.contains("Runs table"));
}

}  // namespace
}  // namespace parity::ui
