// A real run through parity-cli, the launcher and parity-worker (LibTorch, Gloo over a FileStore):
// two processes on the synthetic regression, a few steps. CPU only; runs in CI.
#include <dirent.h>
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "cli_test_util.h"

namespace parity::cli::testing {
namespace {

TEST(CliWorker, TwoProcessSyntheticRegressionIsRecorded) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  CliResult r = run_cli({"run",
                         "--db",
                         db_path,
                         "--worker",
                         PARITY_WORKER,
                         "--dataset",
                         "synthetic-regression",
                         "--model",
                         "linear",
                         "--init",
                         "zeros",
                         "--num-processes",
                         "2",
                         "--per-device-batch-size",
                         "8",
                         "--max-steps",
                         "6",
                         "--synthetic-samples",
                         "128",
                         "--label",
                         "tiny",
                         "--quiet"},
                        home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  storage::Database db(db_path);
  auto run = db.list_runs().at(0);
  EXPECT_EQ(run.status, storage::RunStatus::kFinished) << run.error;
  EXPECT_EQ(run.steps_done, 6);
  EXPECT_EQ(run.train_size, 128);  // stored with the run, for the verdict's padding and drops
  const auto global = db.steps(run.id, -1);
  ASSERT_EQ(global.size(), 6u);
  EXPECT_EQ(db.ranks(run.id), (std::vector<int>{-1, 0, 1}));
  for (size_t i = 0; i < global.size(); ++i) {
    EXPECT_EQ(global[i].step, static_cast<int64_t>(i + 1));
    EXPECT_EQ(global[i].samples, static_cast<int64_t>(i + 1) * 16);
    EXPECT_TRUE(std::isfinite(global[i].loss));
    // The global loss is the mean of the two ranks' losses.
    const double r0 = db.steps(run.id, 0)[i].loss, r1 = db.steps(run.id, 1)[i].loss;
    EXPECT_NEAR(global[i].loss, (r0 + r1) / 2, 1e-6 * std::abs(global[i].loss) + 1e-12);
  }
  EXPECT_GT(run.samples_per_s, 0);
}

TEST(CliWorker, DefaultWorkerIsFoundBesideTheCli) {
  TempDir home;
  CliResult r =
      run_cli({"run", "--db", home.file("runs.db"), "--dataset", "synthetic-regression", "--model",
               "linear", "--num-processes", "1", "--max-steps", "2", "--quiet"},
              home.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// Children of `parent` with their RANK (from /proc/PID/environ).
std::vector<std::pair<int, int>> rank_children(pid_t parent) {
  std::vector<std::pair<int, int>> out;
  DIR* proc = ::opendir("/proc");
  while (dirent* e = ::readdir(proc)) {
    const int pid = std::atoi(e->d_name);
    if (pid <= 0) continue;
    std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
    size_t paren = stat.rfind(')');
    if (paren == std::string::npos) continue;
    int ppid = 0;
    char state = 0;
    if (std::sscanf(stat.c_str() + paren + 2, "%c %d", &state, &ppid) != 2 || ppid != parent)
      continue;
    std::string env = read_file("/proc/" + std::to_string(pid) + "/environ");
    size_t at = env.find("RANK=");
    while (at != std::string::npos && at > 0 && env[at - 1] != '\0') at = env.find("RANK=", at + 1);
    if (at != std::string::npos) out.emplace_back(std::atoi(env.c_str() + at + 5), pid);
  }
  ::closedir(proc);
  return out;
}

bool gone(int pid) {
  if (::kill(pid, 0) != 0) return true;
  std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  size_t paren = stat.rfind(')');
  return paren == std::string::npos || stat[paren + 2] == 'Z';
}

TEST(CliWorker, KilledRankFailsTheRunAndTheOtherRankIsGone) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  pid_t cli = start_cli({"run", "--db", db_path, "--worker", PARITY_WORKER, "--dataset",
                         "synthetic-regression", "--model", "linear", "--num-processes", "2",
                         "--per-device-batch-size", "8", "--epochs", "100000", "--quiet"},
                        home.path(), home.file("out"), home.file("err"));
  std::vector<std::pair<int, int>> ranks;
  bool stepping = false;
  for (int i = 0; i < 600 && !stepping; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (!std::filesystem::exists(db_path)) continue;
    storage::Database db(db_path);
    auto runs = db.list_runs();
    stepping = !runs.empty() && runs[0].steps_done >= 5;
  }
  ASSERT_TRUE(stepping) << read_file(home.file("err"));
  ranks = rank_children(cli);
  ASSERT_EQ(ranks.size(), 2u);
  int victim = 0, survivor = 0;
  for (auto [rank, pid] : ranks) (rank == 1 ? victim : survivor) = pid;
  ASSERT_GT(victim, 0);
  ::kill(victim, SIGKILL);
  EXPECT_EQ(wait_cli(cli), 1);
  EXPECT_TRUE(gone(survivor)) << "rank 0 outlived the run";
  storage::Database db(db_path);
  auto run = db.list_runs().at(0);
  EXPECT_EQ(run.status, storage::RunStatus::kFailed);
  EXPECT_EQ(run.error, "rank 1 was killed by signal 9 (SIGKILL)");
  EXPECT_GE(db.steps(run.id, -1).size(), 5u);
}

// The TCP sockets of these processes, as "local remote state" from /proc/net/tcp{,6} (hex
// addresses, as the kernel writes them), found through each process's socket descriptors.
std::vector<std::string> tcp_sockets(const std::vector<int>& pids) {
  std::set<std::string> inodes;
  for (int pid : pids) {
    const std::string fd_dir = "/proc/" + std::to_string(pid) + "/fd";
    std::error_code ec;
    for (const auto& fd : std::filesystem::directory_iterator(fd_dir, ec)) {
      const std::string target = std::filesystem::read_symlink(fd.path(), ec).string();
      if (target.rfind("socket:[", 0) == 0) inodes.insert(target.substr(8, target.size() - 9));
    }
  }
  std::vector<std::string> out;
  for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::istringstream lines(read_file(table));
    std::string line;
    std::getline(lines, line);  // the header
    while (std::getline(lines, line)) {
      std::istringstream f(line);
      std::string sl, local, remote, state, queues, timer, retr, uid, timeout, inode;
      f >> sl >> local >> remote >> state >> queues >> timer >> retr >> uid >> timeout >> inode;
      if (inodes.count(inode)) out.push_back(local + " " + remote + " " + state);
    }
  }
  return out;
}

// The README: on one machine the ranks rendezvous through a FileStore and Gloo binds 127.0.0.1,
// so nothing listens on the network. Every TCP socket of the launcher and its ranks, while a real
// 2-rank run trains, is between loopback addresses (Gloo's pairs; its listeners are closed once
// the pairs connect, and one on another address would show here too).
TEST(CliWorker, ASingleMachineRunUsesLoopbackOnly) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  pid_t cli = start_cli({"run", "--db", db_path, "--worker", PARITY_WORKER, "--dataset",
                         "synthetic-regression", "--model", "linear", "--num-processes", "2",
                         "--per-device-batch-size", "8", "--epochs", "100000", "--quiet"},
                        home.path(), home.file("out"), home.file("err"));
  bool stepping = false;
  for (int i = 0; i < 600 && !stepping; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (!std::filesystem::exists(db_path)) continue;
    storage::Database db(db_path);
    auto runs = db.list_runs();
    stepping = !runs.empty() && runs[0].steps_done >= 3;
  }
  std::vector<int> pids{cli};
  for (auto [rank, pid] : rank_children(cli)) pids.push_back(pid);
  const std::vector<std::string> sockets = tcp_sockets(pids);
  ::kill(cli, SIGTERM);
  wait_cli(cli);
  ASSERT_TRUE(stepping) << read_file(home.file("err"));
  ASSERT_EQ(pids.size(), 3u);
  // Gloo's pair between the two ranks: finding none would mean this test looked in the wrong
  // place.
  ASSERT_GE(sockets.size(), 2u) << "no TCP socket found for the ranks";
  const auto loopback = [](const std::string& address_port) {
    const std::string a = address_port.substr(0, address_port.find(':'));
    return a == "0100007F" ||                          // 127.0.0.1
           a == "00000000000000000000000001000000" ||  // ::1
           a == "0000000000000000FFFF00000100007F";    // ::ffff:127.0.0.1
  };
  for (const std::string& s : sockets) {
    std::istringstream f(s);
    std::string local, remote, state;
    f >> local >> remote >> state;
    EXPECT_TRUE(loopback(local)) << "a socket on " << s << " (hex, as /proc/net/tcp writes it)";
    if (state != "0A") EXPECT_TRUE(loopback(remote)) << s;  // 0A: listening, no peer
  }
}

// --device-specific-seed adds the rank to the seed of each rank's own draws (its dropout masks):
// rank 0's seed is unchanged, so its first loss is the same; rank 1 draws other masks from the
// first step; without the flag a rerun is bitwise the same (the seed fixes every mask).
TEST(CliWorker, DeviceSpecificSeedChangesRankOnesMasksOnly) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  auto run = [&](const std::string& label, bool device_seed) {
    std::vector<std::string> args = {"run",
                                     "--db",
                                     db_path,
                                     "--worker",
                                     PARITY_WORKER,
                                     "--dataset",
                                     "synthetic-regression",
                                     "--model",
                                     "mlp",
                                     "--hidden",
                                     "8",
                                     "--dropout",
                                     "0.5",
                                     "--num-processes",
                                     "2",
                                     "--per-device-batch-size",
                                     "8",
                                     "--max-steps",
                                     "4",
                                     "--label",
                                     label,
                                     "--quiet"};
    if (device_seed) args.push_back("--device-specific-seed");
    const CliResult r = run_cli(args, home.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
  };
  run("same", false);
  run("again", false);
  run("own", true);
  storage::Database db(db_path);
  auto losses = [&](int64_t id, int rank) {
    std::vector<double> v;
    for (const auto& s : db.steps(id, rank)) v.push_back(s.loss);
    return v;
  };
  ASSERT_EQ(losses(1, 1).size(), 4u);
  EXPECT_EQ(losses(1, 0), losses(2, 0));
  EXPECT_EQ(losses(1, 1), losses(2, 1));
  EXPECT_EQ(losses(3, 0).at(0), losses(1, 0).at(0));  // rank 0: seed + 0
  EXPECT_NE(losses(3, 1).at(0), losses(1, 1).at(0));  // rank 1: seed + 1, other masks
}

// The seed's equivalent pair trained for real with the default thread split (one process gets
// the machine's threads, two get half each) is never called a possible bug, seed after seed.
TEST(CliWorker, TheSeedsEquivalentPairIsNeverAPossibleBugOnAnySeed) {
  TempDir home;
  const std::string db = home.file("runs.db");
  for (int seed = 1; seed <= 3; ++seed) {
    for (const auto& [w, b] : {std::pair<const char*, const char*>{"1", "32"}, {"2", "16"}}) {
      const CliResult r = run_cli({"run",
                                   "--db",
                                   db,
                                   "--worker",
                                   PARITY_WORKER,
                                   "--dataset",
                                   "synthetic-regression",
                                   "--model",
                                   "mlp",
                                   "--hidden",
                                   "16",
                                   "--synthetic-samples",
                                   "512",
                                   "--epochs",
                                   "2",
                                   "--seed",
                                   std::to_string(seed),
                                   "--num-processes",
                                   w,
                                   "--per-device-batch-size",
                                   b,
                                   "--quiet"},
                                  home.path());
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    const std::string ref = std::to_string(2 * seed - 1), run = std::to_string(2 * seed);
    const CliResult cmp = run_cli({"compare", "--db", db, "--reference", ref, run}, home.path());
    ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
    EXPECT_FALSE(contains(cmp.out, "possible bug")) << "seed " << seed << ": " << cmp.out;
  }
}

// `parity-cli demo` end to end, on 7,680 Fashion-MNIST images (60 global batches of 128): the
// lesson's verdicts as the README tells it: 2x32 equivalent to 1x64, both 2x64 different, with
// the global batch as their cause.
TEST(CliDemo, TheLessonsVerdictsWithTheirCauses) {
  TempDir home;
  const CliResult r = run_cli({"demo", "--db", home.file("demo.db"), "--worker", PARITY_WORKER,
                               "--train-samples", "7680", "--quiet"},
                              home.path());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto row = [&](const std::string& label) {
    const size_t at = r.out.find(label, r.out.find("Parity verdict vs"));
    return at == std::string::npos ? std::string() : r.out.substr(at, r.out.find('\n', at) - at);
  };
  const std::string equivalent = row("2x32 (equivalent)");
  EXPECT_TRUE(contains(equivalent, "equivalent") && !contains(equivalent, "different")) << r.out;
  for (const char* label : {"2x64 lr unscaled", "2x64 lr linear"}) {
    const std::string line = row(label);
    EXPECT_TRUE(contains(line, "different")) << line;
    EXPECT_TRUE(contains(line, "global batch 128 vs 64")) << line;
  }
  EXPECT_TRUE(contains(row("2x64 lr unscaled"), "not scaled")) << row("2x64 lr unscaled");
  EXPECT_TRUE(std::filesystem::exists(home.file("demo-curves.csv")));
}

TEST(CliWorker, RerunOfTheSameSetupIsBitwiseIdentical) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  CliResult first =
      run_cli({"run", "--db", db_path, "--worker", PARITY_WORKER, "--dataset",
               "synthetic-regression", "--model", "mlp", "--hidden", "8", "--num-processes", "2",
               "--per-device-batch-size", "8", "--synthetic-samples", "128", "--quiet"},
              home.path());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  CliResult again =
      run_cli({"rerun", "1", "--db", db_path, "--worker", PARITY_WORKER, "--quiet"}, home.path());
  EXPECT_EQ(again.exit_code, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("bitwise identical (8 steps)"), std::string::npos) << again.out;
  storage::Database db(db_path);
  ASSERT_EQ(db.list_runs().size(), 2u);
  EXPECT_EQ(db.get_run(2)->label.find("(rerun of 1)") != std::string::npos, true);

  CliResult missing =
      run_cli({"rerun", "9", "--db", db_path, "--worker", PARITY_WORKER}, home.path());
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no run 9"), std::string::npos) << missing.err;
}

// The seed's basic case, proved: 1x16 vs 2x8 on 77 samples differ because even_batches repeats
// 3 samples; the counterfactual (no repeats, the short batch weighted by its real size) is
// trained and found equivalent.
TEST(CliExplain, TheSeedsPaddingCaseIsConfirmedByItsCounterfactual) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  {
    std::ofstream csv(home.file("d.csv"));
    csv << "x,y\n";
    for (int i = 0; i < 77; ++i) csv << (i % 19) / 9.0 - 1 << "," << (i * 7 % 13) / 6.0 << "\n";
  }
  for (const auto& [w, b] :
       std::vector<std::pair<std::string, std::string>>{{"1", "16"}, {"2", "8"}}) {
    CliResult r = run_cli({"run",
                           "--db",
                           db_path,
                           "--worker",
                           PARITY_WORKER,
                           "--dataset",
                           "csv",
                           "--data",
                           home.file("d.csv"),
                           "--target",
                           "y",
                           "--task",
                           "regression",
                           "--model",
                           "linear",
                           "--num-processes",
                           w,
                           "--per-device-batch-size",
                           b,
                           "--epochs",
                           "2",
                           "--lr",
                           "0.1",
                           "--quiet"},
                          home.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  CliResult dry =
      run_cli({"explain", "--db", db_path, "--reference", "1", "2", "--dry-run"}, home.path());
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_TRUE(contains(dry.out, "even_batches repeats samples (3 vs 0 per epoch)")) << dry.out;
  EXPECT_TRUE(contains(dry.out, "(not run: --dry-run)")) << dry.out;
  CliResult r =
      run_cli({"explain", "--db", db_path, "--reference", "1", "2", "--worker", PARITY_WORKER},
              home.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "[1/1] padding: even_batches false with global loss normalisation"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "-> run 3: confirmed: equivalent now")) << r.out;
  EXPECT_TRUE(contains(r.out, "1 of 1 counterfactuals confirmed")) << r.out;
  storage::Database db(db_path);
  const auto cf = db.get_run(3);
  ASSERT_TRUE(cf.has_value());
  EXPECT_EQ(cf->label, "cf #2 padding");
  EXPECT_TRUE(contains(cf->notes, "counterfactual of run 2 (reference 1), cause padding"))
      << cf->notes;
  EXPECT_EQ(cf->status, storage::RunStatus::kFinished);
  EXPECT_EQ(cf->explains_run, 2);  // linked, not only labelled
  EXPECT_EQ(cf->explains_reference, 1);
  EXPECT_EQ(cf->explains_cause, "padding");
}

// A TorchScript module's batch norm and dropout are not in the config: rank 0 records the model
// it built, and the verdict reads them from that record.
TEST(CliCompare, ATorchScriptModulesBatchNormAndDropoutAreNamedFromTheRecordedModel) {
  TempDir home;
  const std::string db_path = home.file("runs.db");
  const std::string model = std::string(PARITY_TEST_DATA) + "/bn_dropout.pt";
  for (const auto& [w, b] :
       std::vector<std::pair<std::string, std::string>>{{"1", "16"}, {"2", "8"}}) {
    CliResult r = run_cli({"run",
                           "--db",
                           db_path,
                           "--worker",
                           PARITY_WORKER,
                           "--dataset",
                           "synthetic-regression",
                           "--synthetic-samples",
                           "64",
                           "--model",
                           "torchscript",
                           "--model-file",
                           model,
                           "--init",
                           "default",
                           "--num-processes",
                           w,
                           "--per-device-batch-size",
                           b,
                           "--epochs",
                           "1",
                           "--quiet"},
                          home.path());
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  {
    storage::Database db(db_path);
    EXPECT_TRUE(contains(db.get_run(2)->model_json, "\"BatchNorm1d\""))
        << db.get_run(2)->model_json;
  }
  CliResult r = run_cli({"compare", "--db", db_path, "--reference", "1", "2"}, home.path());
  EXPECT_TRUE(contains(r.out, "batch norm normalises over the per-device batch: 8 vs 16 samples"))
      << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "dropout 0.5: with the same seed on every rank")) << r.out;
}

// The window reads a model's summary from the worker (it does not load LibTorch).
TEST(CliWorker, InspectModelPrintsTheSummaryOrOneErrorLine) {
  TempDir home;
  std::ofstream(home.file("m.json"))
      << R"({"dataset": "synthetic-regression", "task": "regression", "model": "torchscript",
            "model_file": ")"
      << PARITY_TEST_DATA << R"(/bn_dropout.pt"})";
  const std::string out = home.file("out.txt"), err = home.file("err.txt");
  const std::string cmd = std::string(PARITY_WORKER) + " --inspect-model " + home.file("m.json");
  ASSERT_EQ(std::system((cmd + " >" + out + " 2>" + err).c_str()), 0) << read_file(err);
  EXPECT_EQ(read_file(out),
            "{\"batch_norm\":true,\"dropout\":true,\"dropout_p\":0.5,\"layer_kinds\":["
            "\"BatchNorm1d\",\"Dropout\","
            "\"Linear\",\"ReLU\",\"Sequential\"],\"parameters\":81}\n");
  std::ofstream(home.file("bad.json"))
      << R"({"dataset": "synthetic-regression", "task": "regression", "model": "torchscript",
            "model_file": ")"
      << home.file("m.json") << R"("})";
  const std::string bad = std::string(PARITY_WORKER) + " --inspect-model " + home.file("bad.json");
  EXPECT_NE(std::system((bad + " >" + out + " 2>" + err).c_str()), 0);
  EXPECT_TRUE(contains(read_file(err), "not a TorchScript module")) << read_file(err);
}

}  // namespace
}  // namespace parity::cli::testing
