// The user's own command run for real: shell scripts play the training command (the test is the
// user here; Parity itself never starts a shell), emitting PARITY lines, failing, hanging,
// diverging, ignoring SIGTERM, leaving children behind.

#include <gtest/gtest.h>
#include <parity/launch/command_supervisor.h>
#include <parity/launch/command_template.h>
#include <parity/test_support/temp_dir.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace parity::launch {
namespace {

using test_support::TempDir;

class Recorder : public StepSink {
 public:
  void on_start(const RunStart&) override { ++starts; }
  void on_step(const StepRecord& r) override { steps.push_back(r); }
  void on_eval(const EvalRecord& r) override { evals.push_back(r); }
  void on_end(const RunEnd& e) override {
    ++ends;
    end = e;
  }
  std::vector<StepRecord> steps;
  std::vector<EvalRecord> evals;
  RunEnd end;
  int starts = 0, ends = 0;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Whether any process of the command's group is left.
bool group_alive(int pid) { return pid > 0 && ::kill(-pid, 0) == 0; }

struct ScriptRun {
  CommandResult result;
  Recorder sink;
  std::string log;
  double seconds = 0;
};

ScriptRun run_script(const TempDir& dir, const std::string& script, CommandOptions options = {}) {
  options.log_path = dir.file("command.log");
  if (options.hang_timeout_s == 600) options.hang_timeout_s = 60;
  ScriptRun r;
  const auto t = std::chrono::steady_clock::now();
  CommandSupervisor sup({"/bin/sh", "-c", script}, options);
  r.result = sup.run(r.sink);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  r.log = read_file(options.log_path);
  return r;
}

TEST(CommandSupervisor, ProtocolLinesBecomeStepsAndTheRestGoesToTheLog) {
  TempDir dir;
  CommandOptions o;
  o.samples_per_step = 64;
  o.env = {{"PARITY_TEST_VALUE", "from the setup"}};
  const ScriptRun r =
      run_script(dir,
                 "echo loading; echo \"$PARITY_TEST_VALUE\"; echo oops >&2;"
                 "echo 'PARITY {\"hparams\": {\"per_device_train_batch_size\": 32}}';"
                 "for s in 1 2 3; do echo \"PARITY {\\\"step\\\": $s, \\\"loss\\\": "
                 "0.$s, \\\"lr\\\": 0.05}\"; done;"
                 "echo 'PARITY {\"step\": 3, \"eval_loss\": 0.25}'; echo 'PARITY {bad'",
                 o);
  EXPECT_EQ(r.result.outcome, RunOutcome::kFinished) << r.result.message;
  ASSERT_EQ(r.sink.steps.size(), 3u);
  EXPECT_EQ(r.sink.steps[1].step, 2);
  EXPECT_DOUBLE_EQ(r.sink.steps[1].loss, 0.2);
  EXPECT_EQ(r.sink.steps[2].samples, 3 * 64);  // derived from the setup's global batch
  ASSERT_EQ(r.sink.evals.size(), 1u);
  EXPECT_DOUBLE_EQ(r.sink.evals[0].loss, 0.25);
  EXPECT_EQ(r.result.hparams.at("per_device_train_batch_size"), "32");
  EXPECT_EQ(r.result.protocol_errors, 1);
  EXPECT_EQ(r.sink.starts, 1);
  EXPECT_EQ(r.sink.ends, 1);
  EXPECT_NE(r.log.find("loading\n"), std::string::npos);
  EXPECT_NE(r.log.find("from the setup\n"), std::string::npos);
  EXPECT_NE(r.log.find("oops\n"), std::string::npos);
  EXPECT_NE(r.log.find("PARITY line is not JSON"), std::string::npos);
  EXPECT_EQ(r.log.find("\"step\": 1"), std::string::npos);  // recorded, not logged
  EXPECT_EQ(
      std::filesystem::status(dir.file("command.log")).permissions() & std::filesystem::perms::all,
      std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
}

TEST(CommandSupervisor, ANonZeroExitFailsWithItsStatusAndTheLogsLastLine) {
  TempDir dir;
  const ScriptRun r = run_script(
      dir, "echo 'PARITY {\"step\": 1, \"loss\": 1}'; echo 'CUDA out of memory' >&2; exit 3");
  EXPECT_EQ(r.result.outcome, RunOutcome::kFailed);
  EXPECT_EQ(r.result.exit_code, 3);
  EXPECT_EQ(r.result.message, "the command exited with status 3; its log ends: CUDA out of memory");
  EXPECT_EQ(r.sink.steps.size(), 1u);  // what was captured is kept
  EXPECT_EQ(r.sink.end.outcome, RunOutcome::kFailed);
}

TEST(CommandSupervisor, ExitZeroWithoutStepsIsAFailureThatSaysWhatToAdd) {
  TempDir dir;
  const ScriptRun r = run_script(dir, "echo trained");
  EXPECT_EQ(r.result.outcome, RunOutcome::kFailed);
  EXPECT_NE(r.result.message.find("without printing a PARITY step line"), std::string::npos);
}

TEST(CommandSupervisor, ASignalFailsTheRun) {
  TempDir dir;
  const ScriptRun r = run_script(dir, "echo 'PARITY {\"step\": 1, \"loss\": 1}'; kill -9 $$");
  EXPECT_EQ(r.result.outcome, RunOutcome::kFailed);
  EXPECT_EQ(r.result.signal, SIGKILL);
  EXPECT_NE(r.result.message.find("killed by signal 9 (SIGKILL)"), std::string::npos);
}

TEST(CommandSupervisor, ANanLossDivergesAndStopsTheGroup) {
  TempDir dir;
  const ScriptRun r = run_script(dir,
                                 "echo 'PARITY {\"step\": 1, \"loss\": 2.5}';"
                                 "echo 'PARITY {\"step\": 2, \"loss\": NaN}'; sleep 60");
  EXPECT_EQ(r.result.outcome, RunOutcome::kDiverged);
  EXPECT_EQ(r.result.message, "the loss is NaN at step 2");
  EXPECT_EQ(r.sink.steps.size(), 2u);
  EXPECT_LT(r.seconds, 30);
  EXPECT_FALSE(group_alive(r.result.pid));
}

TEST(CommandSupervisor, NoNewStepForTheHangTimeoutFailsAndStopsTheGroup) {
  TempDir dir;
  CommandOptions o;
  o.hang_timeout_s = 1;
  const ScriptRun r = run_script(dir, "echo 'PARITY {\"step\": 1, \"loss\": 1}'; sleep 60", o);
  EXPECT_EQ(r.result.outcome, RunOutcome::kFailed);
  EXPECT_NE(r.result.message.find("hung: no new step for 1 s"), std::string::npos)
      << r.result.message;
  EXPECT_LT(r.seconds, 30);
  EXPECT_FALSE(group_alive(r.result.pid));
}

TEST(CommandSupervisor, StopTermsTheGroupThenKillsWhatIgnoresIt) {
  TempDir dir;
  std::atomic<bool> stop{false};
  CommandOptions o;
  o.stop = &stop;
  o.term_grace_s = 1;
  std::thread stopper([&] {
    for (int i = 0; i < 1000 && !std::filesystem::exists(dir.file("started")); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    stop = true;
  });
  // The script and its child both ignore SIGTERM: only the SIGKILL after the grace ends them.
  const ScriptRun r = run_script(dir,
                                 "trap '' TERM; (trap '' TERM; sleep 60) & "
                                 "echo 'PARITY {\"step\": 1, \"loss\": 1}'; touch " +
                                     dir.file("started") +
                                     "; "
                                     "while :; do sleep 1; done",
                                 o);
  stopper.join();
  EXPECT_EQ(r.result.outcome, RunOutcome::kStopped);
  EXPECT_EQ(r.sink.end.outcome, RunOutcome::kStopped);
  EXPECT_EQ(r.result.signal, SIGKILL);
  EXPECT_LT(r.seconds, 30);
  EXPECT_FALSE(group_alive(r.result.pid));
}

TEST(CommandSupervisor, AChildHoldingStdoutAfterTheCommandExitsIsStoppedToo) {
  TempDir dir;
  const ScriptRun r =
      run_script(dir, "sleep 60 & echo 'PARITY {\"step\": 1, \"loss\": 1}'; exit 0");
  EXPECT_EQ(r.result.outcome, RunOutcome::kFinished) << r.result.message;
  EXPECT_LT(r.seconds, 30);
  EXPECT_FALSE(group_alive(r.result.pid));
}

TEST(CommandSupervisor, AValueFullOfShellSyntaxReachesTheProgramAsOneArgument) {
  TempDir dir;
  const std::string label = "x; touch " + dir.file("pwned") + " $(touch " + dir.file("pwned2") +
                            ") `touch " + dir.file("pwned3") + "` 'q' \"d\" a b";
  const auto words = expand_command(split_command("printf '%s|\\n' {label} {run_dir}"),
                                    {{"label", label}, {"run_dir", dir.path() + "/with space"}});
  CommandOptions o;
  o.log_path = dir.file("command.log");
  Recorder sink;
  CommandSupervisor(words, o).run(sink);
  EXPECT_EQ(read_file(o.log_path), label + "|\n" + dir.path() + "/with space|\n");
  for (const char* f : {"pwned", "pwned2", "pwned3"})
    EXPECT_FALSE(std::filesystem::exists(dir.file(f))) << f;
}

TEST(CommandSupervisor, AProgramThatCannotStartIsAnErrorBeforeAnyRun) {
  TempDir dir;
  CommandOptions o;
  o.log_path = dir.file("command.log");
  Recorder sink;
  try {
    CommandSupervisor({"no-such-training-program-xyz", "train.py"}, o).run(sink);
    FAIL() << "started";
  } catch (const LaunchError& e) {
    EXPECT_STREQ(e.what(), "cannot run 'no-such-training-program-xyz': No such file or directory");
  }
  o.workdir = dir.file("missing");
  try {
    CommandSupervisor({"true"}, o).run(sink);
    FAIL() << "started";
  } catch (const LaunchError& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot enter the working directory " + o.workdir + ": No such file or directory");
  }
  EXPECT_EQ(sink.ends, 0);
}

}  // namespace
}  // namespace parity::launch
