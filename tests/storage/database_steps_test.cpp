// A run's curve rows (database_steps.cpp): steps and evaluations round-trip, NaN and infinity
// included; appending a key again replaces it; a failed append writes nothing.
#include <gtest/gtest.h>
#include <parity/storage/database.h>

#include <cmath>
#include <limits>

#include "test_util.h"

namespace parity::storage {
namespace {

using testing::step_row;
using testing::TempDir;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(Database, StepsRoundTripIncludingNaNAndInfinity) {
  TempDir dir;
  Database db(dir.file("steps.db"));
  const int64_t id = db.create_run("r", "{}");
  std::vector<StepRow> rows;
  for (int64_t s = 1; s <= 5; ++s) {
    for (int rank = -1; rank < 2; ++rank) rows.push_back(step_row(id, s, rank, 1.0 / s + rank));
  }
  rows[3 * 3].loss = kNaN;       // step 4, global
  rows[3 * 3 + 1].loss = kInf;   // step 4, rank 0
  rows[3 * 4 + 2].loss = -kInf;  // step 5, rank 1
  db.append_steps(rows);

  const auto global = db.steps(id);
  ASSERT_EQ(global.size(), 5u);
  for (size_t i = 0; i < global.size(); ++i) {
    const StepRow& want = rows[i * 3];
    const StepRow& got = global[i];
    EXPECT_EQ(got.run_id, id);
    EXPECT_EQ(got.step, static_cast<int64_t>(i + 1));
    EXPECT_EQ(got.rank, -1);
    EXPECT_DOUBLE_EQ(got.epoch, want.epoch);
    EXPECT_EQ(got.samples, want.samples);
    EXPECT_DOUBLE_EQ(got.lr, want.lr);
    EXPECT_DOUBLE_EQ(got.time_s, want.time_s);
    if (i == 3) {
      EXPECT_TRUE(std::isnan(got.loss));
    } else {
      EXPECT_EQ(got.loss, want.loss);  // bit-exact
    }
  }
  EXPECT_EQ(db.steps(id, 0)[3].loss, kInf);
  EXPECT_EQ(db.steps(id, 1)[4].loss, -kInf);
  EXPECT_EQ(db.ranks(id), (std::vector<int>{-1, 0, 1}));
  EXPECT_TRUE(db.ranks(id + 1).empty());

  const auto tail = db.steps(id, -1, 3);
  ASSERT_EQ(tail.size(), 2u);
  EXPECT_EQ(tail[0].step, 4);
  EXPECT_EQ(tail[1].step, 5);
  EXPECT_EQ(db.get_run(id)->steps_done, 5);
}

TEST(Database, AppendingTheSameKeyReplacesAndStepsDoneNeverGoesBack) {
  TempDir dir;
  Database db(dir.file("replace.db"));
  const int64_t id = db.create_run("r", "{}");
  db.append_steps({step_row(id, 7, -1, 1.0), step_row(id, 3, -1, 1.0), step_row(id, 2, 0, 9.0)});
  EXPECT_EQ(db.get_run(id)->steps_done, 7);
  db.append_steps({step_row(id, 3, -1, 2.5)});
  EXPECT_EQ(db.get_run(id)->steps_done, 7);  // max, not the latest
  const auto global = db.steps(id);
  ASSERT_EQ(global.size(), 2u);
  EXPECT_EQ(global[0].step, 3);
  EXPECT_EQ(global[0].loss, 2.5);
}

TEST(Database, AFailedAppendWritesNothing) {
  TempDir dir;
  Database db(dir.file("atomic.db"));
  const int64_t id = db.create_run("r", "{}");
  // The second row names a run that does not exist: the foreign key fails the whole batch.
  try {
    db.append_steps({step_row(id, 1, -1, 1.0), step_row(id + 1, 1, -1, 1.0)});
    FAIL() << "appended a step for a missing run";
  } catch (const StorageError& e) {
    EXPECT_NE(std::string(e.what()).find("FOREIGN KEY"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(db.steps(id).empty());
  EXPECT_EQ(db.get_run(id)->steps_done, 0);
  EXPECT_THROW(db.append_steps({step_row(id, 1, -2, 1.0)}), StorageError);
  // The connection is usable afterwards (the transaction was rolled back, not left open).
  db.append_steps({step_row(id, 1, -1, 1.0)});
  EXPECT_EQ(db.steps(id).size(), 1u);
}

TEST(Database, EvalsRoundTrip) {
  TempDir dir;
  Database db(dir.file("evals.db"));
  const int64_t id = db.create_run("r", "{}");
  db.append_evals({{id, 2, 200, 12800, 0.25, 0.91}, {id, 1, 100, 6400, kNaN, std::nullopt}});
  const auto evals = db.evals(id);
  ASSERT_EQ(evals.size(), 2u);
  EXPECT_EQ(evals[0].epoch, 1);  // in step order
  EXPECT_EQ(evals[0].step, 100);
  EXPECT_EQ(evals[0].samples, 6400);
  EXPECT_TRUE(std::isnan(evals[0].loss));
  EXPECT_FALSE(evals[0].accuracy.has_value());
  EXPECT_EQ(evals[1].loss, 0.25);
  EXPECT_EQ(evals[1].accuracy, 0.91);
}

}  // namespace
}  // namespace parity::storage
