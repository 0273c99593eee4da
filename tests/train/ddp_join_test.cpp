// An uneven last step (even_batches=false) against PyTorch's own DistributedDataParallel under
// Join, which Accelerate's join_uneven_inputs uses: recorded by scripts/fixtures/ddp_join_uneven.py
// with Debian's python3-torch 1.13 (two processes over Gloo). A rank that has run out of batches
// joins and adds zeros, and DDP divides by the initial world size: the step rank 0 takes alone
// moves the model by half its gradient, not all of it.

#include <gtest/gtest.h>
#include <parity/test_support/temp_dir.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dist_test_util.h"

namespace parity::train {
namespace {

nlohmann::json read_fixture() {
  std::ifstream in(std::string(PARITY_TEST_DATA) + "/ddp_join_uneven.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return nlohmann::json::parse(ss.str());
}

config::RunConfig fixture_config(const nlohmann::json& f, const std::string& csv) {
  const nlohmann::json& s = f.at("setup");
  config::RunConfig c;
  c.dataset = config::DatasetKind::kCsv;
  c.data_path = csv;
  c.target = "y";
  c.task = config::Task::kRegression;
  c.model = config::ModelKind::kLinear;
  c.init = config::Init::kZeros;
  c.optimizer = config::OptimizerKind::kSgd;
  c.loss = config::LossKind::kMse;
  c.lr = s.at("lr").get<double>();
  c.seed = s.at("seed").get<int64_t>();
  c.epochs = s.at("epochs").get<int>();
  c.num_processes = s.at("num_processes").get<int>();
  c.per_device_batch_size = s.at("per_device_batch_size").get<int64_t>();
  c.even_batches = s.at("even_batches").get<bool>();
  return c;
}

std::string write_rows(const test_support::TempDir& dir, const nlohmann::json& rows) {
  const std::string path = dir.path() + "/rows.csv";
  std::ofstream out(path);
  out.precision(17);
  out << "x,y\n";
  const auto& x = rows.at("x");
  const auto& y = rows.at("y");
  for (size_t i = 0; i < x.size(); ++i)
    out << x[i].get<double>() << "," << y[i].get<double>() << "\n";
  return path;
}

TEST(DdpJoin, AStepOnlySomeRanksTakeIsDividedByTheWorldSizeAsDdpUnderJoin) {
  const nlohmann::json f = read_fixture();
  test_support::TempDir dir;
  const config::RunConfig c = fixture_config(f, write_rows(dir, f.at("rows")));
  const testing::ThreadedRun run = testing::train_threaded(c);
  const nlohmann::json& steps = f.at("steps");
  ASSERT_EQ(run.sink.steps.size(), steps.size());
  int alone = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    const auto& mine = run.sink.steps[i].rank_losses;
    ASSERT_EQ(mine.size(), 2u);
    for (size_t r = 0; r < 2; ++r) {
      const nlohmann::json& torch_loss = steps[i][r];
      if (torch_loss.is_null()) {
        EXPECT_TRUE(std::isnan(mine[r])) << "step " << i + 1 << " rank " << r << " had joined";
        ++alone;
        continue;
      }
      const double expected = torch_loss.get<double>();
      EXPECT_NEAR(mine[r], expected, 1e-5 * std::abs(expected))
          << "step " << i + 1 << " rank " << r;
    }
  }
  EXPECT_EQ(alone, 2);  // the fifth step of each epoch, rank 0 alone
  const double w = f.at("final").at("weight").get<double>();
  const double b = f.at("final").at("bias").get<double>();
  ASSERT_EQ(run.parameters[0].size(), 2u);
  EXPECT_NEAR(run.parameters[0][0], w, 1e-5 * std::abs(w));
  EXPECT_NEAR(run.parameters[0][1], b, 1e-5 * std::abs(b));
}

}  // namespace
}  // namespace parity::train
