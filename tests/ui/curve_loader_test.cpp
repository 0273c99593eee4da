// The chart's curve loader on a database this process cannot write: it only reads, so a
// read-only mount shows the curves beside the runs' list (the loader opened the file read-write,
// failed, and the chart stayed empty).
#include <gtest/gtest.h>
#include <parity/storage/database.h>
#include <parity/test_support/ci_skip.h>
#include <parity/test_support/small_tmpfs.h>
#include <parity/ui/chart/curve_loader.h>

#include <optional>

namespace parity::ui {
namespace {

TEST(CurveLoader, ReadsTheCurvesOfADatabaseOnAReadOnlyMount) {
  test_support::SmallTmpfs disk(4096);
  if (!disk.mounted()) PARITY_SKIP_OR_FAIL() << disk.why();
  const std::string path = disk.file("runs.db");
  int64_t id = 0;
  {
    storage::Database db(path);
    id = db.create_run("on a read-only disk", "{}", storage::RunStatus::kRunning);
    std::vector<storage::StepRow> rows;
    for (int s = 1; s <= 5; ++s)
      rows.push_back({id, s, -1, s / 5.0, s * 8, 1.0 / s, 0.1, static_cast<double>(s)});
    db.append_steps(rows);
    db.finish_run(id, storage::RunStatus::kFinished, "", 10);
  }
  ASSERT_TRUE(disk.make_read_only()) << disk.why();
  CurveLoader loader;
  std::optional<CurveFetch> got;
  QString failure;
  QObject::connect(&loader, &CurveLoader::fetched,
                   [&](quint64, const CurveFetch& fetch) { got = fetch; });
  QObject::connect(&loader, &CurveLoader::fetchFailed,
                   [&](quint64, const QString& message) { failure = message; });
  loader.openDatabase(QString::fromStdString(path));
  CurveFetchRequest request;
  request.curves.push_back({id, -1, 0});
  loader.fetch(1, request);
  EXPECT_TRUE(failure.isEmpty()) << failure.toStdString();
  ASSERT_TRUE(got.has_value());
  ASSERT_EQ(got->chunks.size(), 1u);
  EXPECT_EQ(got->chunks[0].rows.size(), 5u);
}

}  // namespace
}  // namespace parity::ui
