// `run`, `run-set` and `run --run-id` with the launcher tests' fake worker, whose behaviour the
// run's label picks (ok, exit1, sigkill, forever, ...): recording, failure and stop paths without
// LibTorch in the ranks.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cli_test_util.h"

namespace parity::cli::testing {
namespace {

TEST(CliRun, RecordsStepsPerRankEvalsAndFinals) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  CliResult r = run_cli(fake_run(db_path, "ok", 2, 6), home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  storage::Database db(db_path);
  auto runs = db.list_runs();
  ASSERT_EQ(runs.size(), 1u);
  const auto& run = runs[0];
  EXPECT_EQ(run.status, storage::RunStatus::kFinished);
  EXPECT_EQ(run.label, "ok");
  EXPECT_EQ(run.total_steps, 6);
  EXPECT_EQ(run.train_size, 1000);  // as the (fake) rank 0 reported it
  EXPECT_EQ(run.steps_done, 6);
  EXPECT_DOUBLE_EQ(run.samples_per_s, 1234.5);
  ASSERT_TRUE(run.final_loss.has_value());
  EXPECT_DOUBLE_EQ(*run.final_loss, 1.0 / 6);
  EXPECT_EQ(db.steps(run.id, -1).size(), 6u);
  EXPECT_EQ(db.ranks(run.id), (std::vector<int>{-1, 0, 1}));
  EXPECT_DOUBLE_EQ(db.steps(run.id, 1)[0].loss, 1.0 + 0.01);
  ASSERT_EQ(db.evals(run.id).size(), 1u);
  EXPECT_TRUE(config::from_json(run.config_json).num_processes == 2);
}

TEST(CliRun, KilledRankFailsTheRunNamingIt) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  CliResult r = run_cli(fake_run(db_path, "sigkill"), home.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "rank 1 was killed by signal 9 (SIGKILL)")) << r.err;
  storage::Database db(db_path);
  auto run = db.list_runs().at(0);
  EXPECT_EQ(run.status, storage::RunStatus::kFailed);
  EXPECT_EQ(run.error, "rank 1 was killed by signal 9 (SIGKILL)");
  EXPECT_FALSE(db.steps(run.id, -1).empty());  // what was recorded stays readable
  // Rank logs are kept beside the database.
  EXPECT_TRUE(contains(
      read_file(home.file("runs.db.logs/run-" + std::to_string(run.id) + "/rank1.log")), "RANK=1"));
}

TEST(CliRun, TwoDatabasesInOneFolderKeepTheirRankLogsApart) {
  TempDir home;
  // Both runs are run 1 of their own database: with one log folder per folder, the second run
  // would overwrite the first one's logs.
  ASSERT_EQ(run_cli(fake_run(home.file("a.db"), "ok", 2), home.path()).exit_code, 0);
  ASSERT_EQ(run_cli(fake_run(home.file("b.db"), "ok", 3), home.path()).exit_code, 0);
  EXPECT_EQ(storage::Database(home.file("a.db")).list_runs().at(0).id, 1);
  EXPECT_EQ(storage::Database(home.file("b.db")).list_runs().at(0).id, 1);
  EXPECT_TRUE(contains(read_file(home.file("a.db.logs/run-1/rank0.log")), "WORLD_SIZE=2 "));
  EXPECT_TRUE(contains(read_file(home.file("b.db.logs/run-1/rank0.log")), "WORLD_SIZE=3 "));
  EXPECT_FALSE(std::filesystem::exists(home.file("a.db.logs/run-1/rank2.log")));
  EXPECT_TRUE(std::filesystem::exists(home.file("b.db.logs/run-1/rank2.log")));
  EXPECT_FALSE(std::filesystem::exists(home.file("logs")));
}

TEST(CliRun, FailingRankMessageComesFromItsStderr) {
  TempDir home;
  CliResult r = run_cli(fake_run(home.file("runs.db"), "exit1", 3), home.path());
  EXPECT_EQ(r.exit_code, 1);
  storage::Database db(home.file("runs.db"));
  EXPECT_EQ(db.list_runs().at(0).error,
            "rank 1 exited with code 1: fake-worker: rank 1 failed on purpose");
}

TEST(CliRun, DivergedRunExitsOne) {
  TempDir home;
  CliResult r = run_cli(fake_run(home.file("runs.db"), "diverge", 2, 10), home.path());
  EXPECT_EQ(r.exit_code, 1);
  storage::Database db(home.file("runs.db"));
  EXPECT_EQ(db.list_runs().at(0).status, storage::RunStatus::kDiverged);
}

TEST(CliRun, SigtermStopsTheRun) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  pid_t pid = start_cli(fake_run(db_path, "forever", 2, 100000), home.path(), home.file("out"),
                        home.file("err"));
  // Wait until steps are being recorded, then ask it to stop as a window or a shell would.
  bool recording = false;
  for (int i = 0; i < 300 && !recording; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (!std::filesystem::exists(db_path)) continue;
    storage::Database db(db_path);
    auto runs = db.list_runs();
    recording = !runs.empty() && runs[0].steps_done >= 3;
  }
  ASSERT_TRUE(recording) << read_file(home.file("err"));
  ::kill(pid, SIGTERM);
  EXPECT_EQ(wait_cli(pid), 1);
  storage::Database db(db_path);
  auto run = db.list_runs().at(0);
  EXPECT_EQ(run.status, storage::RunStatus::kStopped);
  EXPECT_EQ(run.error, "stopped by the user");
}

bool wait_recording(const std::string& db_path) {
  for (int i = 0; i < 300; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (!std::filesystem::exists(db_path)) continue;
    storage::Database db(db_path);
    auto runs = db.list_runs();
    if (!runs.empty() && runs[0].steps_done >= 3) return true;
  }
  return false;
}

// Ctrl+C in the terminal: the run stops cleanly, as with SIGTERM.
TEST(CliRun, SigintStopsTheRun) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  const pid_t pid = start_cli(fake_run(db_path, "forever", 2, 100000), home.path(),
                              home.file("out"), home.file("err"));
  ASSERT_TRUE(wait_recording(db_path)) << read_file(home.file("err"));
  ::kill(pid, SIGINT);
  EXPECT_EQ(wait_cli(pid), 1);
  storage::Database db(db_path);
  const auto run = db.list_runs().at(0);
  EXPECT_EQ(run.status, storage::RunStatus::kStopped);
  EXPECT_EQ(run.error, "stopped by the user");
}

// A second signal, of any kind, ends the CLI at once: here while a rank that ignores SIGTERM
// keeps the clean stop waiting out its grace. The CLI dies of the signal (before, a SIGTERM after
// a Ctrl+C was handled again and the CLI waited and exited 1); the next list reconciles the row.
TEST(CliRun, ASecondSignalEndsTheCliAtOnce) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  const pid_t pid = start_cli(fake_run(db_path, "stubborn", 2, 100000), home.path(),
                              home.file("out"), home.file("err"));
  ASSERT_TRUE(wait_recording(db_path)) << read_file(home.file("err"));
  ::kill(pid, SIGINT);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ::kill(pid, SIGTERM);
  EXPECT_EQ(wait_cli(pid), -1) << "the second signal was handled: " << read_file(home.file("err"));
  const CliResult list = run_cli({"list", "--db", db_path}, home.path());
  EXPECT_EQ(row_starting_with(list.out, "1 ").at(2), "failed") << list.out;
}

TEST(CliRun, RunIdStartsAQueuedRowWithItsStoredConfig) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  int64_t id;
  {
    storage::Database db(db_path);
    config::RunConfig c = tiny_config("ok", 2, 4);
    c.max_steps = 3;
    id = db.create_run("from the window", config::to_json(c), storage::RunStatus::kQueued);
  }
  CliResult r = run_cli({"run", "--db", db_path, "--run-id", std::to_string(id), "--worker",
                         PARITY_FAKE_WORKER, "--quiet"},
                        home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  storage::Database db(db_path);
  auto run = db.get_run(id);
  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(run->status, storage::RunStatus::kFinished);
  EXPECT_EQ(run->steps_done, 3);
  EXPECT_EQ(db.list_runs().size(), 1u);

  // A run that is no longer queued is not started again; config flags are refused.
  r = run_cli(
      {"run", "--db", db_path, "--run-id", std::to_string(id), "--worker", PARITY_FAKE_WORKER},
      home.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "finished")) << r.err;
  r = run_cli({"run", "--db", db_path, "--run-id", "77", "--worker", PARITY_FAKE_WORKER},
              home.path());
  EXPECT_EQ(r.exit_code, 2);
  r = run_cli({"run", "--db", db_path, "--run-id", std::to_string(id), "--lr", "0.1"}, home.path());
  EXPECT_EQ(r.exit_code, 2);
}

TEST(CliRun, RunIdWithAnInvalidStoredConfigMarksTheRowFailed) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  int64_t id;
  {
    storage::Database db(db_path);
    config::RunConfig c = tiny_config("bad", 1, 4);
    c.num_processes = 0;
    id = db.create_run("bad", config::to_json(c), storage::RunStatus::kQueued);
  }
  CliResult r = run_cli(
      {"run", "--db", db_path, "--run-id", std::to_string(id), "--worker", PARITY_FAKE_WORKER},
      home.path());
  EXPECT_EQ(r.exit_code, 2);
  storage::Database db(db_path);
  EXPECT_EQ(db.get_run(id)->status, storage::RunStatus::kFailed);
  EXPECT_TRUE(contains(db.get_run(id)->error, "num_processes")) << db.get_run(id)->error;
}

TEST(CliRun, RunIdWithAMissingWorkerMarksTheRowFailed) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  int64_t id;
  {
    storage::Database db(db_path);
    id = db.create_run("ok", config::to_json(tiny_config("ok", 1, 4)), storage::RunStatus::kQueued);
  }
  CliResult r = run_cli(
      {"run", "--db", db_path, "--run-id", std::to_string(id), "--worker", home.file("nothing")},
      home.path());
  EXPECT_EQ(r.exit_code, 2);
  storage::Database db(db_path);
  EXPECT_EQ(db.get_run(id)->status, storage::RunStatus::kFailed);
  EXPECT_TRUE(contains(db.get_run(id)->error, "parity-worker not found")) << db.get_run(id)->error;
}

TEST(CliRunSet, RunsEverySetupAndPrintsASummary) {
  TempDir home;
  const std::string set = home.file("set.json");
  std::ofstream(set) << R"({"experiment": {"dataset": "synthetic-regression", "task": "regression",
    "model": "linear", "max_steps": 3, "per_device_batch_size": 4},
    "setups": [{"label": "ok", "num_processes": 1}, {"label": "exit1", "num_processes": 2},
               {"label": "ok", "num_processes": 2}]})";
  CliResult r = run_cli(
      {"run-set", set, "--db", home.file("runs.db"), "--worker", PARITY_FAKE_WORKER, "--quiet"},
      home.path());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(row_starting_with(r.out, "1 ").at(2), "finished") << r.out;
  EXPECT_EQ(row_starting_with(r.out, "2 ").at(2), "failed") << r.out;
  EXPECT_EQ(row_starting_with(r.out, "3 ").at(2), "finished") << r.out;
  storage::Database db(home.file("runs.db"));
  EXPECT_EQ(db.list_runs().size(), 3u);

  // One bad setup: nothing runs, nothing is written.
  std::ofstream(set) << R"([{"num_processes": 1}, {"num_processes": -1}])";
  r = run_cli({"run-set", set, "--db", home.file("other.db"), "--worker", PARITY_FAKE_WORKER},
              home.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "num_processes")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(home.file("other.db")));
}

}  // namespace
}  // namespace parity::cli::testing
