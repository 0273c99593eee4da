// Accelerate's default data order, proved on the user's path (#36 §3): `parity-cli run
// --use-seedable-sampler false` trains the fixtures' experiment (tests/fixtures/
// accelerate-tensorboard/README.md) at 1x32 and 2x16, and every step's loss equals the one
// Accelerate 1.2.1 itself logged, imported from its TensorBoard files, to 1e-6 (float32 sums in
// another order; the first steps are equal to the printed digit).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_util.h"

namespace parity::cli::testing {
namespace {

namespace fs = std::filesystem;

// run id -> step -> global loss, from `export`'s long CSV.
std::map<int, std::map<int64_t, double>> losses(const std::string& csv) {
  std::map<int, std::map<int64_t, double>> out;
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);  // run_id,label,step,epoch,samples,rank,loss,...
  while (std::getline(lines, line)) {
    std::vector<std::string> cells;
    std::stringstream cs(line);
    for (std::string c; std::getline(cs, c, ',');) cells.push_back(c);
    if (cells.size() >= 7) out[std::stoi(cells[0])][std::stoll(cells[2])] = std::stod(cells[6]);
  }
  return out;
}

TEST(CliAccelerateOrder, EveryStepAccelerateLoggedIsTrainedAgainWithItsDefaultSampler) {
  const std::string fixtures = std::string(PARITY_FIXTURES) + "/accelerate-tensorboard";
  ASSERT_TRUE(fs::is_directory(fixtures)) << "no fixtures at " << fixtures;
  TempDir dir;
  const std::string db = dir.file("a.db");
  ASSERT_EQ(run_cli({"import", "--db", db, fixtures + "/1x32", fixtures + "/2x16"}, dir.path())
                .exit_code,
            0);
  // The fixtures' experiment: Fashion-MNIST's first 6,400 images, MLP 784-256-128-10, SGD lr
  // 0.05, seed 42, 2 epochs, Accelerate's default sampler.
  auto engine = [&](const char* label, const char* processes, const char* batch) {
    return run_cli({"run", "--db", db, "-q", "--label", label, "--num-processes", processes,
                    "--per-device-batch-size", batch, "--train-samples", "6400", "--hidden",
                    "256,128", "--lr", "0.05", "--seed", "42", "--epochs", "2",
                    "--use-seedable-sampler", "false"},
                   dir.path());
  };
  CliResult r = engine("engine 1x32", "1", "32");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = engine("engine 2x16", "2", "16");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const CliResult csv =
      run_cli({"export", "--db", db, "--runs", "1,2,3,4", "--no-ranks", "-o", "-"}, dir.path());
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  auto loss = losses(csv.out);
  // 1 = Accelerate's 1x32, 2 = its 2x16; 3 and 4 the engine's.
  for (const auto& [logged, trained] : {std::pair{1, 3}, std::pair{2, 4}}) {
    ASSERT_EQ(loss[logged].size(), 400u) << "run " << logged;
    ASSERT_EQ(loss[trained].size(), 400u) << "run " << trained;
    double worst = 0;
    for (const auto& [step, l] : loss[logged]) {
      const double gap = std::abs(loss[trained][step] - l);
      worst = std::max(worst, gap);
      EXPECT_LE(gap, 1e-6) << "run " << trained << " step " << step << ": "
                           << loss[trained][step] << " vs Accelerate's " << l;
    }
    std::cout << "run " << trained << " against Accelerate's own log: worst |Δloss| " << worst
              << " over 400 steps\n";
  }
  // The seeded sampler, the engine's default, is another order: the first step already differs.
  r = run_cli({"run", "--db", db, "-q", "--label", "engine 1x32 seeded", "--per-device-batch-size",
               "32", "--train-samples", "6400", "--hidden", "256,128", "--lr", "0.05", "--seed",
               "42", "--epochs", "1", "--max-steps", "1"},
              dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  loss = losses(run_cli({"export", "--db", db, "--runs", "1,5", "--no-ranks", "-o", "-"},
                        dir.path())
                    .out);
  EXPECT_GT(std::abs(loss[5][1] - loss[1][1]), 1e-4);
}

}  // namespace
}  // namespace parity::cli::testing
