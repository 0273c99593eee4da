// Refusals that come before anything starts, each in one clear line: more ranks than the machine
// can host, a hang timeout of 0, another program's SQLite file, a label with a line break.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/resource.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "cli_test_util.h"

namespace parity::cli::testing {
namespace {

TEST(CliLimits, MoreRanksThanTheMachineCanHostAreRefusedBeforeAnythingStarts) {
  TempDir home;
  rlimit old{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &old), 0);
  rlimit low = old;
  low.rlim_cur = 80;  // inherited by the child: room for 80 - 64 = 16 ranks
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
  CliResult r = run_cli(fake_run(home.file("runs.db"), "ok", 20, 2), home.path());
  CliResult fits = run_cli(fake_run(home.file("fits.db"), "ok", 3, 2), home.path());
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &old), 0);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "--num-processes 20: this machine can host at most 16 ranks"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "ulimit -n 80")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(home.file("runs.db"))) << "something was written";
  EXPECT_EQ(fits.exit_code, 0) << fits.err;
}

// Numbers that would take the machine down are refused before anything is written, naming the
// flag: threads without end, a float32 lr overflow, a model or a micro-batch past the memory.
TEST(CliLimits, NumbersThatCannotFitAreRefusedNamingTheFlag) {
  TempDir home;
  const std::string db = home.file("runs.db");
  auto refused = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {
        "run", "--db",        db,  "--dataset", "synthetic-regression", "--model",
        "mlp", "--max-steps", "2", "-q"};
    args.insert(args.end(), extra.begin(), extra.end());
    const CliResult r = run_cli(args, home.path());
    EXPECT_EQ(r.exit_code, 2) << r.err;
    return r.err;
  };
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_TRUE(contains(refused({"--threads-per-rank", "1000000"}),
                       "--threads-per-rank 1000000: at most " + std::to_string(4 * cores) +
                           " here (4 x this machine's " + std::to_string(cores) + " cores)"));
  EXPECT_TRUE(contains(refused({"--lr", "1e308"}), "must be at most 3.4028234663852886e+38"));
  EXPECT_TRUE(contains(refused({"--num-processes", "2", "--lr", "2e38", "--lr-scaling", "linear"}),
                       "once scaled with the processes"));
  EXPECT_TRUE(contains(refused({"--hidden", "100000000000"}),
                       "--hidden 100000000000: the model needs about"));
  EXPECT_TRUE(contains(refused({"--hidden", "100000", "--synthetic-samples", "10000000",
                                "--per-device-batch-size", "10000000"}),
                       "--per-device-batch-size 10000000: one micro-batch needs about"));
  // The config's own refusal lists every problem under its header; the machine's is one line.
  const std::string threads = refused({"--threads-per-rank", "1000000"});
  EXPECT_EQ(std::count(threads.begin(), threads.end(), '\n'), 1) << threads;
  EXPECT_FALSE(std::filesystem::exists(db)) << "something was written";
}

TEST(CliLimits, AHangTimeoutOfZeroSaysWhatIsAllowedInWords) {
  TempDir home;
  std::vector<std::string> args = fake_run(home.file("runs.db"), "ok", 1, 2);
  args.insert(args.end(), {"--hang-timeout", "0"});
  CliResult r = run_cli(args, home.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "'0' is not allowed; it must be a number above 0")) << r.err;
  EXPECT_FALSE(std::regex_search(r.err, std::regex("[0-9]{20}"))) << r.err;
  args.back() = "-3";
  args.insert(args.end(), {"--db-busy-wait", "-1"});
  r = run_cli(args, home.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(std::regex_search(r.err, std::regex("[0-9]{20}"))) << r.err;
}

TEST(CliLimits, AnotherProgramsSqliteFileGetsOneLine) {
  TempDir home;
  const std::string path = home.file("other.db");
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(
      sqlite3_exec(raw, "CREATE TABLE runs (id INTEGER PRIMARY KEY,\n  job TEXT,\n  started TEXT)",
                   nullptr, nullptr, nullptr),
      SQLITE_OK);
  sqlite3_close(raw);
  const std::string before = read_file(path);
  ASSERT_EQ(before.at(18), 1) << "a rollback-journal file to begin with";
  for (const char* verb : {"list", "show", "export", "run"}) {
    std::vector<std::string> args{verb, "--db", path};
    if (std::string(verb) == "show") args.insert(args.begin() + 1, "1");
    if (std::string(verb) == "export") args.insert(args.end(), {"--out", home.file("o.csv")});
    if (std::string(verb) == "run") args = fake_run(path, "ok", 1, 2);
    CliResult r = run_cli(args, home.path());
    EXPECT_EQ(r.exit_code, 1) << verb;
    EXPECT_TRUE(contains(r.err, "not a Parity database")) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(contains(r.err, "CREATE")) << r.err;
    // Not written at all: before, its header's bytes 18-19 went from 1 (rollback) to 2 (WAL).
    EXPECT_EQ(read_file(path), before) << verb << " changed another program's file";
    EXPECT_FALSE(std::filesystem::exists(path + "-wal")) << verb;
  }
}

TEST(CliLimits, ALabelWithALineBreakIsRefused) {
  TempDir home;
  std::vector<std::string> args = fake_run(home.file("runs.db"), "ok", 1, 2);
  args.insert(args.end(), {"--label", "two\nlines"});
  CliResult r = run_cli(args, home.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "a label is one line")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(home.file("runs.db")));

  const std::string set = home.file("set.json");
  std::ofstream(set) << R"([{"label": "a\r\nb", "dataset": "synthetic-regression",
    "task": "regression", "model": "linear", "max_steps": 2}])";
  r = run_cli({"run-set", set, "--db", home.file("set.db"), "--worker", PARITY_FAKE_WORKER},
              home.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "a label is one line")) << r.err;
}

TEST(CliLimits, ALabelWithATerminalEscapeIsShownNotObeyed) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  {
    storage::Database db(db_path);
    // OSC 0 (set the terminal's title) and CSI 2J (clear the screen), as 8-bit C1 too.
    add_finished_run(db,
                     tiny_config("evil\x1b]0;pwned\x07\x1b[2J\xc2\x9b"
                                 "2J",
                                 1, 8),
                     3);
  }
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"list", "--db", db_path},
        std::vector<std::string>{"show", "1", "--db", db_path}}) {
    CliResult r = run_cli(args, home.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << args[0] << " printed ESC raw";
    EXPECT_EQ(r.out.find('\x07'), std::string::npos) << args[0];
    EXPECT_EQ(r.out.find("\xc2\x9b"), std::string::npos) << args[0];
    EXPECT_TRUE(contains(r.out, "evil\\x1b]0;pwned\\x07\\x1b[2J\\x9b2J")) << r.out;
  }
}

TEST(CliLimits, AMachineCountOrIndexOutOfRangeIsRefusedBeforeTheDatabase) {
  TempDir home;
  std::vector<std::string> args = fake_run(home.file("runs.db"), "ok", 2, 2);
  args.insert(args.end(),
              {"--num-machines", "2", "--machine-rank", "5", "--main-process-ip", "127.0.0.1"});
  CliResult r = run_cli(args, home.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "--machine-rank 5 is not allowed with 2 machines; it must be 0 to 1"))
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(home.file("runs.db"))) << "a row was written";

  const std::string yaml = home.file("accelerate.yaml");
  std::ofstream(yaml) << "num_machines: 0\nnum_processes: 2\n";
  args = fake_run(home.file("runs.db"), "ok", 2, 2);
  args.insert(args.end(), {"--accelerate-config", yaml});
  r = run_cli(args, home.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "num_machines (--accelerate-config) 0 is not allowed")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(home.file("runs.db")));
}

}  // namespace
}  // namespace parity::cli::testing
