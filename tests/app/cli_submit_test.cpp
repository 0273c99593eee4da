// `run --launcher slurm --submit`, `follow` and `stop` against stand-ins for Slurm's tools (shell
// scripts on PATH: sbatch records its arguments and prints a job id, squeue prints the state the
// test sets, scancel records its call), the test playing the job by writing the run's steps
// file itself: a line cut short, a follower killed and started again, a controller that does
// not answer, a job gone without its end record, sbatch refusing. slurm_submit.sh runs the same
// against a real one-node Slurm.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "cli_test_util.h"

namespace parity::cli::testing {
namespace {

namespace fs = std::filesystem;

void write(const std::string& path, const std::string& text, bool append = false) {
  std::ofstream out(path, append ? std::ios::app : std::ios::trunc);
  out << text;
}

void executable(const std::string& path, const std::string& script) {
  write(path, "#!/bin/sh\n" + script);
  ::chmod(path.c_str(), 0755);
}

// A step line of the steps file (the progress protocol): step, epoch, samples, loss, lr, time,
// then two ranks' losses.
std::string step_line(int step) {
  const double loss = 1.0 / step;
  std::ostringstream s;
  s.precision(17);
  s << "S " << step << " " << step / 10.0 << " " << 16 * step << " " << loss << " 0.05 "
    << step / 100.0 << " 2 " << loss * 0.5 << " " << loss * 1.5 << "\n";
  return s.str();
}

struct SubmitTest : public ::testing::Test {
  void SetUp() override {
    db = dir.file("s.db");
    bin = dir.file("bin");
    fs::create_directories(bin);
    executable(bin + "/sbatch",
               "echo \"$@\" > " + dir.file("sbatch.args") +
                   "\ncase \"$*\" in *--account=nope*) echo 'sbatch: error: Batch job submission "
                   "failed: Invalid account or account/partition combination specified' >&2; "
                   "exit 1;; esac\necho '4242;cluster'\n");
    executable(bin + "/squeue", "if [ -f " + dir.file("down") +
                                    " ]; then echo 'slurm_load_jobs error: Unable to contact "
                                    "slurm controller (connect failure)' >&2; exit 1; fi\ncat " +
                                    dir.file("state") + "\n");
    executable(bin + "/sacct", "echo 'Slurm accounting storage is disabled' >&2; exit 1\n");
    executable(bin + "/scancel", "echo \"$@\" >> " + dir.file("scancel.args") + "\n");
    env = {"PATH=" + bin + ":" + std::getenv("PATH")};
    state("PENDING/Resources");
  }
  void state(const std::string& text) { write(dir.file("state"), text + "\n"); }
  CliResult cli(std::vector<std::string> args) {
    args.insert(args.begin() + 1, {"--db", db});
    return run_cli(args, dir.path(), env);
  }
  CliResult submit(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"run",
                                     "-q",
                                     "--launcher",
                                     "slurm",
                                     "--submit",
                                     "--worker",
                                     PARITY_FAKE_WORKER,
                                     "--num-processes",
                                     "2",
                                     "--max-steps",
                                     "5",
                                     "--threads-per-rank",
                                     "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  }
  std::string row(int64_t id) {
    const auto cells = row_starting_with(cli({"list"}).out, std::to_string(id));
    std::string text;
    for (const auto& c : cells) text += c + " ";
    return text;
  }
  // Waits up to `seconds` for run id's list row to contain `part`.
  bool wait_row(int64_t id, const std::string& part, double seconds = 20) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
      if (contains(row(id), part)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  pid_t follow_in_background(int64_t id) {
    return start_cli({"follow", "--db", db, "-q", std::to_string(id)}, dir.path(),
                     dir.file("follow.out"), dir.file("follow.err"), env);
  }
  TempDir dir;
  std::string db, bin;
  std::vector<std::string> env;
};

// Submitted: the job script and sbatch's flags; queued with Slurm's reason; a follower ended
// with Ctrl+C leaves the job alone; another follows through a line cut short and is killed with
// kill -9 while the job goes on and ends; started again, it reads on: every step stored once,
// the evaluation once, the end the job's own.
TEST_F(SubmitTest, AFollowerKilledAndStartedAgainLosesAndDoublesNothing) {
  const CliResult r = submit(
      {"--partition", "p", "--time", "10", "--account", "a", "--gres", "gpu:1", "--label", "sub"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "run 1 queued: Slurm job 4242\n");
  const std::string args = read_file(dir.file("sbatch.args"));
  for (const char* flag :
       {"--parsable", "--no-requeue", "--ntasks=2", "--cpus-per-task=1", "--partition=p",
        "--time=10", "--account=a", "--gres=gpu:1", "--job-name=parity-run-1"})
    EXPECT_TRUE(contains(args, flag)) << flag << " not in " << args;
  const std::string folder = dir.file("s.db.logs/run-1");
  const std::string script = read_file(folder + "/job.sh");
  EXPECT_TRUE(contains(script, " job-step " + folder + " --run-id 1 --hang-timeout 120 --worker "))
      << script;
  EXPECT_TRUE(fs::exists(folder + "/config.json"));
  EXPECT_TRUE(contains(row(1), "queued, job 4242 PENDING")) << row(1);

  // Ending a follower (Ctrl+C, the window closed) ends following, not the job.
  pid_t follower = follow_in_background(1);
  ASSERT_TRUE(wait_row(1, "PENDING (Resources)")) << row(1);
  ::kill(follower, SIGINT);
  EXPECT_EQ(wait_cli(follower), 1);
  EXPECT_TRUE(contains(read_file(dir.file("follow.err")),
                       "stopped following run 1; Slurm job 4242 goes on"))
      << read_file(dir.file("follow.err"));
  EXPECT_FALSE(fs::exists(dir.file("scancel.args")));
  EXPECT_TRUE(contains(row(1), "queued, job 4242 PENDING (Resources)")) << row(1);

  follower = follow_in_background(1);
  const std::string steps = folder + "/steps";
  state("RUNNING/None");
  write(steps,
        "B 5 10 160 0 0.05 {\"batch_norm\":false,\"dropout\":false,\"dropout_p\":0.0,"
        "\"layer_kinds\":[\"Linear\"],\"parameters\":2} \n" +
            step_line(1) + step_line(2) + step_line(3) + step_line(4).substr(0, 9));
  ASSERT_TRUE(wait_row(1, "3/5")) << row(1);
  ASSERT_TRUE(wait_row(1, "running, job 4242 RUNNING")) << row(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  EXPECT_TRUE(contains(row(1), "3/5")) << "a line cut short was read: " << row(1);
  ::kill(follower, SIGKILL);
  wait_cli(follower);
  // The job goes on while nobody follows, and ends.
  write(steps, step_line(4).substr(9) + step_line(5) + "E 1 5 80 0.125 -1\nX finished 321.5 \n",
        true);
  state("COMPLETED/None");
  const CliResult f = cli({"follow", "-q", "1"});
  EXPECT_EQ(f.exit_code, 0) << f.err;
  EXPECT_EQ(f.out, "run 1 finished\n");
  EXPECT_TRUE(contains(row(1), "finished 5/5")) << row(1);
  const CliResult csv = cli({"export", "--runs", "1", "-o", "-"});
  std::map<std::pair<int, int>, int> seen;  // (step, rank) -> rows
  std::istringstream lines(csv.out);
  std::string line;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    std::vector<std::string> c;
    std::stringstream cs(line);
    for (std::string cell; std::getline(cs, cell, ',');) c.push_back(cell);
    ++seen[{std::stoi(c[2]), std::stoi(c[5])}];
    if (c[5] == "-1") {
      EXPECT_EQ(std::stod(c[6]), 1.0 / std::stoi(c[2])) << line;
    }
  }
  EXPECT_EQ(seen.size(), 15u) << csv.out;  // 5 steps x (global, rank 0, rank 1)
  for (const auto& [key, n] : seen) EXPECT_EQ(n, 1) << "step " << key.first;
  const CliResult show = cli({"show", "1"});
  EXPECT_TRUE(contains(show.out, "321.5 samples/s")) << show.out;
  EXPECT_TRUE(contains(show.out, "Slurm job 4242: COMPLETED")) << show.out;
  EXPECT_TRUE(contains(show.out, "eval loss 0.125")) << show.out;
  // Following an ended run says so and changes nothing.
  const CliResult again = cli({"follow", "1"});
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_TRUE(contains(again.err, "has already ended: finished")) << again.err;
}

// A controller that does not answer is not the job's end; a job gone from the queue without its
// end record fails the run with what its output says last.
TEST_F(SubmitTest, AJobGoneWithoutItsEndRecordFailsAndAnUnansweringControllerDoesNot) {
  ASSERT_EQ(submit().exit_code, 0);
  write(dir.file("down"), "");
  pid_t follower = follow_in_background(1);
  std::this_thread::sleep_for(std::chrono::seconds(3));
  EXPECT_TRUE(contains(row(1), "queued")) << row(1);
  fs::remove(dir.file("down"));
  state("");  // gone from the queue
  write(dir.file("s.db.logs/run-1/job.out"),
        "slurmstepd: error: *** JOB 4242 ON n1 CANCELLED\n"
        "srun: error: n1: task 0: Killed\n");
  EXPECT_EQ(wait_cli(follower), 1);
  const std::string err = read_file(dir.file("follow.err"));
  EXPECT_TRUE(contains(err, "Unable to contact slurm controller")) << err;
  const CliResult show = cli({"show", "1"});
  EXPECT_TRUE(contains(show.out, "failed")) << show.out;
  EXPECT_TRUE(contains(show.out, "Slurm job 4242 left the queue without the run's end record"))
      << show.out;
  EXPECT_TRUE(contains(show.out, "its output (job.out) ends: srun: error: n1: task 0: Killed"))
      << show.out;
}

TEST_F(SubmitTest, StopCancelsTheJobAndAWaitingJobIsRecordedStopped) {
  ASSERT_EQ(submit().exit_code, 0);
  state("CANCELLED/None");
  const CliResult s = cli({"stop", "1"});
  EXPECT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(read_file(dir.file("scancel.args")), "4242\n");
  EXPECT_TRUE(contains(s.out, "run 1 stopped: Slurm job 4242 was cancelled (parity-cli stop)"))
      << s.out;
  EXPECT_TRUE(contains(row(1), "stopped 0/")) << row(1);
}

TEST_F(SubmitTest, RefusedBeforeAnythingOrFailedWithSbatchsWords) {
  CliResult r = cli({"run", "--submit", "--worker", PARITY_FAKE_WORKER});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(
      contains(r.err, "--submit hands the run to Slurm's sbatch: it needs --launcher slurm"))
      << r.err;
  r = cli({"run", "--account", "a", "--launcher", "slurm", "--worker", PARITY_FAKE_WORKER});
  EXPECT_EQ(r.exit_code, 2);
  r = submit({"--partition", "a b"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(r.err, "--partition 'a b' is not one word")) << r.err;
  r = submit({"--account", "nope"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(contains(cli({"show", "2"}).out,
                       "sbatch refused the job: sbatch: error: Batch job "
                       "submission failed: Invalid account"))
      << cli({"show", "2"}).out;
  ASSERT_EQ(run_cli(fake_run(db, "ok", 2, 3), dir.path(), env).exit_code, 0);  // a local run
  r = cli({"follow", "3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(contains(r.err, "was not submitted as a Slurm job")) << r.err;
  r = cli({"stop", "3"});
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace parity::cli::testing
