// Crash consistency as a soak: parity-cli run killed with SIGKILL at random moments (start-up,
// rendezvous, training, the final write), one run after another into one database. Afterwards
// the file passes SQLite's integrity check, every run's steps are a contiguous prefix without a
// duplicate, every row is reconciled (none left queued or running), no rank process is left and
// the next run clears the private folders the killed launchers left. 20 kills here;
// PARITY_SOAK_KILLS=200 (scripts/soak.sh) for the long version, whose figures are in
// bench/results.md.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <random>
#include <thread>

#include "cli_test_util.h"
#include "fault_util.h"

namespace parity::cli::testing {
namespace {

int kills_wanted() {
  const char* env = std::getenv("PARITY_SOAK_KILLS");
  const int n = env ? std::atoi(env) : 0;
  return n > 0 ? n : 20;
}

std::string integrity(const std::string& db_path) {
  sqlite3* db = nullptr;
  std::string result = "cannot open";
  if (sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
      result = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return result;
}

TEST(CliSoak, RandomKillNinesLeaveAConsistentDatabase) {
  TempDir home, tmp;
  const std::string db_path = home.file("runs.db");
  const int kills = kills_wanted();
  std::mt19937 gen(20261203);
  std::uniform_int_distribution<int> delay_ms(0, 600);
  const auto start = std::chrono::steady_clock::now();
  std::vector<pid_t> rank_pids_seen;
  for (int k = 0; k < kills; ++k) {
    const pid_t pid = start_cli(fake_run(db_path, "ok", 2, 40), home.path(), home.file("out"),
                                home.file("err"), {"TMPDIR=" + tmp.path()});
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(gen)));
    ::kill(pid, SIGKILL);
    wait_cli(pid);
    for (pid_t r : rank_pids(home.file("runs.db.logs/run-" + std::to_string(k + 1))))
      rank_pids_seen.push_back(r);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // The ranks die with their launcher (PR_SET_PDEATHSIG): none is left.
  EXPECT_TRUE(wait_for(
      [&] {
        for (pid_t r : rank_pids_seen)
          if (process_alive(r)) return false;
        return true;
      },
      std::chrono::milliseconds(10000)))
      << "rank processes outlived their killed launchers";
  // The next command reconciles every row a killed launcher left active.
  const CliResult list = run_cli({"list", "--db", db_path}, home.path());
  ASSERT_EQ(list.exit_code, 0) << list.err;
  EXPECT_EQ(integrity(db_path), "ok");
  storage::Database db(db_path);
  std::map<std::string, int> ends;
  int64_t rows_total = 0;
  for (const storage::RunRow& run : db.list_runs()) {
    EXPECT_NE(run.status, storage::RunStatus::kRunning) << "run " << run.id;
    EXPECT_NE(run.status, storage::RunStatus::kQueued) << "run " << run.id;
    const auto steps = db.steps(run.id, -1);
    for (size_t i = 0; i < steps.size(); ++i)
      ASSERT_EQ(steps[i].step, static_cast<int64_t>(i + 1)) << "run " << run.id << ": a hole";
    EXPECT_EQ(run.steps_done, static_cast<int64_t>(steps.size())) << "run " << run.id;
    rows_total += static_cast<int64_t>(steps.size());
    const std::string end = run.status == storage::RunStatus::kFinished
                                ? "finished"
                                : (steps.empty() ? "failed before a step" : "failed mid-run");
    ++ends[end];
    if (run.status == storage::RunStatus::kFailed) {
      EXPECT_EQ(run.error.rfind("the launcher exited unexpectedly", 0), 0u) << run.error;
    }
  }
  EXPECT_LE(static_cast<int>(db.list_runs().size()), kills);
  // The private folders the killed launchers left are removed by the next run on this host.
  const CliResult next =
      run_cli(fake_run(db_path, "ok", 1, 2), home.path(), {"TMPDIR=" + tmp.path()});
  EXPECT_EQ(next.exit_code, 0) << next.err;
  EXPECT_TRUE(run_folders_in(tmp.path()).empty());
  std::cout << "[ info ] soak: " << kills << " kill -9s in " << seconds
            << " s; rows: " << db.list_runs().size() - 1 << " runs";
  for (const auto& [end, n] : ends) std::cout << ", " << n << " " << end;
  std::cout << "; " << rows_total << " steps stored, integrity ok\n";
}

}  // namespace
}  // namespace parity::cli::testing
