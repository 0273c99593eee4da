// "Your command" (#19): `parity-cli run --command TEMPLATE` runs the user's own training program
// with the setup's values, records its PARITY lines as the run's steps, and judges and proves it
// like any run. Python scripts play the user's program (the test is the user; Parity itself runs
// no shell and no Python).
#include <gtest/gtest.h>
#include <parity/test_support/ci_skip.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "cli_test_util.h"
#include "fault_util.h"

namespace parity::cli::testing {
namespace {

namespace fs = std::filesystem;

void write(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

// A data-parallel job in miniature: its loss falls with the samples the whole job has seen
// (per-device batch x processes x step), as a real one's does, so 2x16 trains as 1x32.
const char* kJob = R"(import argparse, json, math, sys
p = argparse.ArgumentParser()
p.add_argument("--bs", type=int); p.add_argument("--w", type=int); p.add_argument("--lr", type=float)
p.add_argument("--seed", type=int); p.add_argument("--label", default=""); p.add_argument("--out")
p.add_argument("--say-bs", type=int); p.add_argument("--mode", default="ok")
a = p.parse_args()
if a.out:
    open(a.out + "/label.txt", "w").write(a.label)
print("starting", a.label, file=sys.stderr)
print("PARITY " + json.dumps({"hparams": {"per_device_train_batch_size": a.say_bs or a.bs, "seed": a.seed}}))
for step in range(1, 21):
    samples = step * a.bs * a.w
    loss = 2.0 * math.exp(-a.lr * samples / 32)
    if a.mode == "nan" and step == 5: loss = float("nan")
    if a.mode == "fail" and step == 5: sys.exit(3)
    print("PARITY " + json.dumps({"step": step, "loss": loss, "lr": a.lr}), flush=True)
    if a.mode == "slow": __import__("time").sleep(0.2)
)";

struct CommandTest : public ::testing::Test {
  void SetUp() override {
    write(dir.file("job.py"), kJob);
    db = dir.file("c.db");
  }
  CliResult run(const std::vector<std::string>& extra, const std::string& tail = "") {
    std::vector<std::string> args = {"run",
                                     "--db",
                                     db,
                                     "-q",
                                     "--command",
                                     "python3 " + dir.file("job.py") +
                                         " --bs {per_device_batch_size} --w {num_processes} --lr "
                                         "{learning_rate} --seed {seed} " +
                                         tail};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args, dir.path());
  }
  TempDir dir;
  std::string db;
};

// The steps are the command's PARITY lines, exactly; the run is a command run with the setup's
// values as known facts, its command as it ran, and {run_dir} its private folder.
TEST_F(CommandTest, RecordsTheCommandsLinesAsTheRunsSteps) {
  const CliResult r =
      run({"--num-processes", "2", "--per-device-batch-size", "16", "--label", "mine"},
          "--label {label} --out {run_dir}");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const CliResult show = run_cli({"show", "--db", db, "1"}, dir.path());
  EXPECT_NE(show.out.find("finished"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("origin: command from python3 "), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("--bs 16 --w 2 --lr 0.05 --seed 42"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("per-device batch        16        known (the setup (your command))"),
            std::string::npos)
      << show.out;
  EXPECT_NE(show.out.find("training samples        -         unknown"), std::string::npos)
      << show.out;
  const CliResult csv = run_cli({"export", "--db", db, "--runs", "1", "-o", "-"}, dir.path());
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  // step 20 of 2x16: 640 samples, loss 2 exp(-0.05 * 20) = 0.7357588823428847
  EXPECT_NE(csv.out.find(",20,"), std::string::npos) << csv.out;
  EXPECT_NE(csv.out.find("0.73575888"), std::string::npos) << csv.out;
  // {run_dir} is the run's log folder, private and kept, with the command's other output.
  const std::string run_dir = dir.file("c.db.logs/run-1");
  EXPECT_EQ(fs::status(run_dir).permissions() & fs::perms::all, fs::perms::owner_all);
  std::ifstream label(run_dir + "/label.txt");
  std::string text((std::istreambuf_iterator<char>(label)), {});
  EXPECT_EQ(text, "mine");
  std::ifstream log(run_dir + "/command.log");
  std::string logged((std::istreambuf_iterator<char>(log)), {});
  EXPECT_NE(logged.find("starting mine"), std::string::npos) << logged;
}

// A value is one argument whatever it holds: a label with ';', '$(…)', quotes and spaces runs
// nothing but the program named.
TEST_F(CommandTest, AHostileLabelIsOneArgumentAndExecutesNothing) {
  const std::string evil = "x; touch " + dir.file("PWNED") + " $(touch " + dir.file("PWNED2") +
                           ") 'q' \"d\" `touch " + dir.file("PWNED3") + "`";
  const CliResult r = run({"--label", evil}, "--label {label} --out {run_dir}");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir.file("PWNED")));
  EXPECT_FALSE(fs::exists(dir.file("PWNED2")));
  EXPECT_FALSE(fs::exists(dir.file("PWNED3")));
  std::ifstream label(dir.file("c.db.logs/run-1/label.txt"));
  std::string text((std::istreambuf_iterator<char>(label)), {});
  EXPECT_EQ(text, evil);
}

// Refused before anything is written: an unknown placeholder, an unterminated quote.
TEST_F(CommandTest, ABadTemplateIsRefusedBeforeTheDatabase) {
  CliResult r = run({}, "--x {batch}");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("unknown placeholder {batch}"), std::string::npos) << r.err;
  r = run({}, "--x 'open");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_FALSE(fs::exists(db));
}

// plan --command prints what each setup will run, values in place and quoted as a shell reads them.
TEST_F(CommandTest, PlanPrintsTheExpandedCommand) {
  const CliResult r = run_cli(
      {"plan", "--num-processes", "2", "--per-device-batch-size", "16", "--label", "two words",
       "--command", "python3 t.py --bs {per_device_batch_size} --label {label}"},
      dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("two words: python3 t.py --bs 16 --label 'two words'"), std::string::npos)
      << r.out;
  // The command reads its own data: no Fashion-MNIST sizes or steps are claimed for it.
  EXPECT_EQ(r.out.find("fashion-mnist"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("your command reads its own data: steps per epoch need --train-size N"),
            std::string::npos)
      << r.out;
  const CliResult sized = run_cli({"plan", "--num-processes", "2", "--per-device-batch-size", "16",
                                   "--train-size", "6400", "--command", "python3 t.py"},
                                  dir.path());
  ASSERT_EQ(sized.exit_code, 0) << sized.err;
  EXPECT_NE(sized.out.find("6400 train, from --train-size"), std::string::npos) << sized.out;
  EXPECT_NE(sized.out.find(" 200 "), std::string::npos) << sized.out;  // 6400 / (2 x 16) a epoch
}

// torchrun --tee passes every rank's stdout on behind "[default<local rank>]:", and a plain DDP
// script prints its PARITY lines on every rank (tests/data/torchrun_every_rank_job.py: each its
// own local loss). Run under Debian's torch 1.13 launcher, the run records rank 0's lines, each
// step once: its losses are, bit for bit, the ones torchrun kept in rank 0's own stdout.log, and
// rank 1's lines are in the command's log, not in the run.
TEST_F(CommandTest, TorchrunsPrefixedLinesAreReadFromRankZeroOnce) {
  if (::system("/usr/bin/python3 -c 'import torch' 2>/dev/null") != 0)
    PARITY_SKIP_OR_FAIL() << "python3-torch is not installed (scripts/install-deps.sh installs it)";
  const std::string job = std::string(PARITY_TEST_DATA) + "/torchrun_every_rank_job.py";
  const CliResult r = run_cli(
      {"run", "--db", db, "-q", "--label", "torchrun 2x4", "--num-processes", "2",
       "--per-device-batch-size", "4", "--lr", "0.1", "--seed", "3", "--command",
       "/usr/bin/python3 -m torch.distributed.run --nproc_per_node {num_processes} --master_port "
       "{main_process_port} --redirects 2 --tee 1 --log_dir {run_dir}/tr " +
           job + " --bs {per_device_batch_size} --lr {learning_rate} --seed {seed} --steps 6"},
      dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Rank 0's and rank 1's own stdout, as torchrun kept them: step -> loss as printed.
  std::map<int, std::map<int64_t, double>> printed;
  for (const auto& e : fs::recursive_directory_iterator(dir.file("c.db.logs/run-1/tr"))) {
    if (e.path().filename() != "stdout.log") continue;
    const int rank = std::stoi(e.path().parent_path().filename().string());
    std::ifstream in(e.path());
    for (std::string line; std::getline(in, line);) {
      const auto at = line.find("\"loss\": ");
      if (line.rfind("PARITY {\"step\": ", 0) != 0 || at == std::string::npos) continue;
      printed[rank][std::stoll(line.substr(16))] = std::stod(line.substr(at + 8));
    }
  }
  ASSERT_EQ(printed[0].size(), 6u);
  ASSERT_EQ(printed[1].size(), 6u);
  const CliResult csv =
      run_cli({"export", "--db", db, "--runs", "1", "--no-ranks", "-o", "-"}, dir.path());
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  std::istringstream lines(csv.out);
  std::string line;
  std::getline(lines, line);  // run_id,label,step,epoch,samples,rank,loss,...
  std::map<int64_t, int> times;
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::stringstream cs(line);
    for (std::string c; std::getline(cs, c, ',');) cells.push_back(c);
    ASSERT_GE(cells.size(), 7u) << line;
    const int64_t step = std::stoll(cells[2]);
    ++times[step];
    EXPECT_EQ(std::stod(cells[6]), printed[0][step]) << "step " << step;
    EXPECT_NE(std::stod(cells[6]), printed[1][step]) << "step " << step;
    EXPECT_EQ(std::stoll(cells[4]), step * 8) << "samples at step " << step;
  }
  ASSERT_EQ(times.size(), 6u) << csv.out;
  for (const auto& [step, n] : times) EXPECT_EQ(n, 1) << "step " << step;
  const std::string log = read_file(dir.file("c.db.logs/run-1/command.log"));
  EXPECT_NE(log.find("[default1]:PARITY {\"step\": 6"), std::string::npos) << log;
  EXPECT_EQ(log.find("[default0]:PARITY {\"step\": 6"), std::string::npos) << log;
  const CliResult show = run_cli({"show", "--db", db, "1"}, dir.path());
  EXPECT_NE(show.out.find("finished"), std::string::npos) << show.out;
}

// A Hugging Face Trainer-like script prints no PARITY line but saves checkpoint-N/
// trainer_state.json under {run_dir}: with capture auto its steps are followed while it runs (they
// arrive in groups, one per checkpoint, before it ends); with capture stdout it has none.
TEST_F(CommandTest, TrainerStateFilesAreFollowedWhileTheCommandRuns) {
  write(dir.file("hf.py"), R"(import json, os, sys, time
out, bs = sys.argv[1], int(sys.argv[2])
hist = []
for step in range(1, 13):
    hist.append({"loss": round(2.0 / step, 4), "learning_rate": 0.05, "epoch": step / 12, "step": step})
    if step % 4 == 0:
        d = os.path.join(out, "checkpoint-%d" % step)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "trainer_state.json.tmp"), "w") as f:
            json.dump({"global_step": step, "train_batch_size": bs, "log_history": hist}, f)
        os.replace(os.path.join(d, "trainer_state.json.tmp"), os.path.join(d, "trainer_state.json"))
        time.sleep(0.8)
)");
  const std::string command = "python3 " + dir.file("hf.py") + " {run_dir} {per_device_batch_size}";
  CliResult r = run_cli(
      {"run", "--db", db, "-q", "--per-device-batch-size", "8", "--command", command}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const CliResult csv =
      run_cli({"export", "--db", db, "--runs", "1", "--no-ranks", "-o", "-"}, dir.path());
  std::istringstream lines(csv.out);
  std::string line;
  std::getline(lines, line);
  std::set<std::string> arrivals;  // time_s, the last cell: one value per read of the files
  int steps = 0;
  while (std::getline(lines, line)) {
    ++steps;
    arrivals.insert(line.substr(line.rfind(',') + 1));
  }
  EXPECT_EQ(steps, 12) << csv.out;
  EXPECT_GE(arrivals.size(), 2u) << "all steps arrived at once, not while it ran: " << csv.out;
  EXPECT_NE(csv.out.find(",12,1,96,-1,0.1666"), std::string::npos) << csv.out;

  r = run_cli({"run", "--db", db, "-q", "--capture", "stdout", "--command", command}, dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("without printing a PARITY step line"), std::string::npos) << r.err;

  // What the files say it ran with is checked too: its trainer_state says batch 4.
  r = run_cli({"run", "--db", db, "-q", "--per-device-batch-size", "8", "--command",
               "python3 " + dir.file("hf.py") + " {run_dir} 4"},
              dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("the command logged per_device_train_batch_size 4, the setup says 8"),
            std::string::npos)
      << r.err;
}

// A command that fails, diverges or is stopped ends its run so, with the reason.
TEST_F(CommandTest, FailureNanAndStopEndTheRunWithTheReason) {
  CliResult r = run({"--label", "fails"}, "--mode fail");
  EXPECT_EQ(r.exit_code, 1);
  r = run({"--label", "nan"}, "--mode nan");
  EXPECT_EQ(r.exit_code, 1);
  const CliResult list = run_cli({"list", "--db", db}, dir.path());
  EXPECT_NE(list.out.find("fails  failed"), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("nan  diverged"), std::string::npos) << list.out;
  const CliResult show = run_cli({"show", "--db", db, "1"}, dir.path());
  EXPECT_NE(show.out.find("exit"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("steps 4/"), std::string::npos) << show.out;

  // Stop: SIGTERM to parity-cli stops the command's group; the run is stopped.
  const pid_t pid =
      start_cli({"run", "--db", db, "-q", "--label", "stopped", "--command",
                 "python3 " + dir.file("job.py") + " --bs 8 --w 1 --lr 0.1 --seed 1 --mode slow"},
                dir.path(), dir.file("o.txt"), dir.file("e.txt"));
  // Stopped while it trains (run 3, after "fails" and "nan"), not before its command started.
  ASSERT_TRUE(wait_for([&] { return steps_done_of(db, 3) >= 2; }, std::chrono::seconds(60)))
      << read_file(dir.file("e.txt"));
  ::kill(pid, SIGTERM);
  EXPECT_EQ(wait_cli(pid), 1);
  const CliResult after = run_cli({"list", "--db", db}, dir.path());
  EXPECT_NE(after.out.find("stopped  stopped"), std::string::npos) << after.out;
  // ("[j]ob" so that the shell running pgrep, whose command line holds the pattern, is no match)
  EXPECT_NE(::system(("pgrep -f '" + dir.path() + "/[j]ob.py' >/dev/null").c_str()), 0)
      << "the command's processes are gone";
}

// What the command says it ran with is checked against the setup, and a mismatch is said and
// kept in the run's notes.
TEST_F(CommandTest, AnHparamsMismatchIsSaidAndNoted) {
  const CliResult r = run({"--per-device-batch-size", "32"}, "--say-bs 16");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("the command logged per_device_train_batch_size 16, the setup says 32"),
            std::string::npos)
      << r.err;
  const CliResult show = run_cli({"show", "--db", db, "1"}, dir.path());
  EXPECT_NE(show.out.find("the command logged per_device_train_batch_size 16"), std::string::npos)
      << show.out;
}

// compare judges command runs on their facts, and explain proves the verdict by running the
// same command with the cause aligned: 2x32 vs 1x32 differs by its global batch; the command at
// 2x16 is equivalent to 1x32.
TEST_F(CommandTest, ProveRunsTheSameCommandWithTheCauseAligned) {
  ASSERT_EQ(run({"--num-processes", "1", "--per-device-batch-size", "32"}).exit_code, 0);
  ASSERT_EQ(run({"--num-processes", "2", "--per-device-batch-size", "32"}).exit_code, 0);
  const CliResult cmp = run_cli({"compare", "--db", db, "-r", "1", "2"}, dir.path());
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  EXPECT_NE(cmp.out.find("global batch 64 vs 32"), std::string::npos) << cmp.out;
  EXPECT_EQ(cmp.out.find("dataset size"), std::string::npos) << "no dataset is known: " << cmp.out;
  const CliResult ex = run_cli({"explain", "--db", db, "--reference", "1", "2"}, dir.path());
  ASSERT_EQ(ex.exit_code, 0) << ex.err;
  EXPECT_NE(ex.err.find("runs python3 "), std::string::npos) << ex.err;
  EXPECT_NE(ex.err.find("--bs 16 --w 2"), std::string::npos) << ex.err;
  EXPECT_NE(ex.out.find("global_batch"), std::string::npos) << ex.out;
  EXPECT_NE(ex.out.find("confirmed: equivalent now"), std::string::npos) << ex.out;
}

// The user's command is a real PyTorch DDP job (tests/data/ddp_job.py: Debian's python3-torch,
// two processes over Gloo) on a CSV, reporting PARITY lines, written with PyTorch's own default
// initialisation and RandomSampler (nothing of the engine's). 2x8 equals the engine's own 1x16
// to float32 rounding at every step and
// compare calls it equivalent; 2x16 differs by its global batch, and explain proves it by running
// the same job at 2x8.
TEST_F(CommandTest, ARealDdpJobMatchesTheEngineAndIsProved) {
  if (::system("/usr/bin/python3 -c 'import torch' 2>/dev/null") != 0)
    PARITY_SKIP_OR_FAIL() << "python3-torch is not installed (scripts/install-deps.sh installs it)";
  std::string csv = "x,y\n";
  for (int i = 0; i < 64; ++i) {
    const double x = (i - 32) / 16.0;
    csv +=
        std::to_string(x) + "," + std::to_string(0.75 * x + 0.25 + ((i * 7) % 5 - 2) / 8.0) + "\n";
  }
  write(dir.file("rows.csv"), csv);
  const std::vector<std::string> common = {"--lr", "0.1", "--epochs", "2", "--seed", "3"};
  std::vector<std::string> engine = {"run",
                                     "--db",
                                     db,
                                     "-q",
                                     "--label",
                                     "engine 1x16",
                                     "--dataset",
                                     "csv",
                                     "--data",
                                     dir.file("rows.csv"),
                                     "--target",
                                     "y",
                                     "--task",
                                     "regression",
                                     "--model",
                                     "mlp",
                                     "--hidden",
                                     "8",
                                     "--num-processes",
                                     "1",
                                     "--per-device-batch-size",
                                     "16"};
  engine.insert(engine.end(), common.begin(), common.end());
  ASSERT_EQ(run_cli(engine, dir.path()).exit_code, 0);
  const std::string job = std::string(PARITY_TEST_DATA) + "/ddp_job.py";
  auto ddp = [&](const char* label, const char* processes, const char* batch) {
    std::vector<std::string> args = {
        "run",
        "--db",
        db,
        "-q",
        "--label",
        label,
        "--num-processes",
        processes,
        "--per-device-batch-size",
        batch,
        "--command",
        "/usr/bin/python3 " + job + " --nproc {num_processes} --port {main_process_port} --data " +
            dir.file("rows.csv") +
            " --bs {per_device_batch_size} --lr {learning_rate} --seed "
            "{seed} --epochs 2"};
    args.insert(args.end(), common.begin(), common.end());
    return run_cli(args, dir.path());
  };
  CliResult r = ddp("ddp 2x8", "2", "8");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = ddp("ddp 2x16", "2", "16");
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // Every step of 2x8 against the engine's 1x16.
  const CliResult csvout =
      run_cli({"export", "--db", db, "--runs", "1,2", "--no-ranks", "-o", "-"}, dir.path());
  ASSERT_EQ(csvout.exit_code, 0) << csvout.err;
  std::map<int, std::map<int64_t, double>> loss;  // run -> step -> loss
  std::istringstream lines(csvout.out);
  std::string line;
  std::getline(lines, line);  // header: run_id,label,step,epoch,samples,rank,loss,...
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::stringstream cs(line);
    for (std::string c; std::getline(cs, c, ',');) cells.push_back(c);
    ASSERT_GE(cells.size(), 7u) << line;
    loss[std::stoi(cells[0])][std::stoll(cells[2])] = std::stod(cells[6]);
  }
  ASSERT_EQ(loss[1].size(), 8u);
  ASSERT_EQ(loss[2].size(), 8u);
  for (const auto& [step, l] : loss[1])
    EXPECT_NEAR(loss[2][step], l, 1e-5 * std::abs(l)) << "step " << step;

  const CliResult cmp = run_cli({"compare", "--db", db, "-r", "1", "2", "3"}, dir.path());
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  EXPECT_NE(cmp.out.find("run 2 (ddp 2x8): equivalent"), std::string::npos) << cmp.out;
  EXPECT_NE(cmp.out.find("run 3 (ddp 2x16): different"), std::string::npos) << cmp.out;
  EXPECT_NE(cmp.out.find("global batch 32 vs 16"), std::string::npos) << cmp.out;
  const CliResult ex = run_cli({"explain", "--db", db, "--reference", "1", "3"}, dir.path());
  ASSERT_EQ(ex.exit_code, 0) << ex.err;
  EXPECT_NE(ex.err.find("--nproc 2 --port"), std::string::npos) << ex.err;
  EXPECT_NE(ex.err.find("--bs 8 --lr 0.1"), std::string::npos) << ex.err;
  EXPECT_NE(ex.out.find("global_batch"), std::string::npos) << ex.out;
  EXPECT_NE(ex.out.find("confirmed: equivalent now"), std::string::npos) << ex.out;
}

}  // namespace
}  // namespace parity::cli::testing
