// The window's chart choices kept with the database (schema 6's run_shown): which runs the user
// chose to draw or hide survive a reopen, go with a deleted run, and an older file migrates.
#include <gtest/gtest.h>
#include <parity/storage/database.h>

#include <map>

#include "test_util.h"

namespace parity::storage {
namespace {

using testing::exec_sql;
using testing::TempDir;

TEST(DatabaseView, MigratesAVersion5DatabaseWithNoChoicesRecorded) {
  TempDir dir;
  const std::string path = dir.file("v5.db");
  int64_t old = 0;
  {
    Database db(path);
    old = db.create_run("before schema 6", "{}");
    exec_sql(db.handle(), std::string(testing::kDropSchemaV6) + "PRAGMA user_version = 5");
  }
  {
    Database viewer(path, OpenMode::kReadOnly);  // read as it is: no table, no choices
    EXPECT_EQ(viewer.schema_version(), 5);
    EXPECT_TRUE(viewer.shown_choices().empty());
  }
  Database db(path);
  EXPECT_EQ(db.schema_version(), Database::kSchemaVersion);
  EXPECT_TRUE(db.shown_choices().empty());
  db.set_shown_choices({old}, false);
  EXPECT_EQ(db.shown_choices(), (std::map<int64_t, bool>{{old, false}}));
  EXPECT_EQ(db.get_run(old)->label, "before schema 6");
}

TEST(DatabaseView, ChoicesSurviveAReopenAndGoWithTheirRun) {
  TempDir dir;
  const std::string path = dir.file("p.db");
  int64_t a = 0, b = 0, c = 0;
  {
    Database db(path);
    a = db.create_run("a", "{}");
    b = db.create_run("b", "{}");
    c = db.create_run("c", "{}");
    db.set_shown_choices({a, b}, false);
    db.set_shown_choices({c}, true);
    db.set_shown_choices({a}, true);         // the latest choice wins
    db.set_shown_choices({c + 100}, false);  // no such run: nothing recorded, no error
  }
  Database db(path);
  EXPECT_EQ(db.shown_choices(), (std::map<int64_t, bool>{{a, true}, {b, false}, {c, true}}));
  db.delete_run(b);
  EXPECT_EQ(db.shown_choices(), (std::map<int64_t, bool>{{a, true}, {c, true}}));
  Database viewer(path, OpenMode::kReadOnly);
  EXPECT_EQ(viewer.shown_choices().size(), 2u);
  EXPECT_THROW(viewer.set_shown_choices({a}, false), StorageError);
}

TEST(DatabaseView, MigratesAVersion6DatabaseLosingNothing) {
  TempDir dir;
  const std::string path = dir.file("v6.db");
  int64_t kept = 0, hidden = 0;
  {
    Database db(path);
    kept = db.create_run("before schema 7", R"({"lr": 0.1})");
    hidden = db.create_run("hidden", "{}");
    db.set_notes(kept, "my notes");
    db.set_shown_choices({hidden}, false);
    db.append_steps({{kept, 1, -1, 0.0, 32, 2.5, 0.1, 0.01}});
    exec_sql(db.handle(), std::string(testing::kDropSchemaV7) + "PRAGMA user_version = 6");
  }
  {
    Database viewer(path, OpenMode::kReadOnly);  // read as it is: no table, nothing saved
    EXPECT_EQ(viewer.schema_version(), 6);
    EXPECT_FALSE(viewer.saved_setups());
    EXPECT_EQ(viewer.shown_choices(), (std::map<int64_t, bool>{{hidden, false}}));
  }
  Database db(path);
  EXPECT_EQ(db.schema_version(), Database::kSchemaVersion);
  const RunRow run = *db.get_run(kept);
  EXPECT_EQ(run.label, "before schema 7");
  EXPECT_EQ(run.config_json, R"({"lr": 0.1})");
  EXPECT_EQ(run.notes, "my notes");
  EXPECT_EQ(run.steps_done, 1);
  EXPECT_EQ(db.shown_choices(), (std::map<int64_t, bool>{{hidden, false}}));
  EXPECT_FALSE(db.saved_setups());  // the migration saves no setups: the window decides
}

TEST(DatabaseView, SetupsSavedSurviveAReopenAndTheLatestWins) {
  TempDir dir;
  const std::string path = dir.file("s.db");
  {
    Database db(path);
    EXPECT_FALSE(db.saved_setups());
    db.save_setups(R"({"setups": [1]})");
    db.save_setups(R"({"setups": [1, 2]})");
  }
  Database db(path);
  EXPECT_EQ(db.saved_setups().value_or(""), R"({"setups": [1, 2]})");
  EXPECT_EQ(testing::query_int(db.handle(), "SELECT count(*) FROM window_setups"), 1);
  Database viewer(path, OpenMode::kReadOnly);
  EXPECT_EQ(viewer.saved_setups().value_or(""), R"({"setups": [1, 2]})");
  EXPECT_THROW(viewer.save_setups("{}"), StorageError);
}

}  // namespace
}  // namespace parity::storage
