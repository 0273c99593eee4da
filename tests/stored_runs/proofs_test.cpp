// Proving a verdict on stored runs: a noise cause (dropout masks cut differently) is proved
// against the band of the reference under two more seeds, recorded as linked runs and judged
// together once both have finished.
#include <gtest/gtest.h>
#include <parity/analysis/cause.h>
#include <parity/stored_runs/proofs.h>
#include <parity/test_support/temp_dir.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace parity::stored_runs {
namespace {

config::RunConfig dropout_mlp(int processes, int64_t per_device) {
  config::RunConfig c;
  c.dataset = config::DatasetKind::kSyntheticRegression;
  c.task = config::Task::kRegression;
  c.model = config::ModelKind::kMlp;
  c.hidden = {8};
  c.dropout = 0.5;
  c.synthetic_samples = 320;
  c.seed = 42;
  c.num_processes = processes;
  c.per_device_batch_size = per_device;
  return c;
}

double base_loss(int step) { return 2.0 / (1.0 + step); }

class Proofs : public ::testing::Test {
 protected:
  // Writes `steps` global rows of loss f(step) (16 samples a step) into run `id`, finished.
  void finish(int64_t id, const std::function<double(int)>& f, int steps = 20) {
    std::vector<storage::StepRow> rows;
    for (int s = 1; s <= steps; ++s) rows.push_back({id, s, -1, s / 20.0, s * 16, f(s), 0.05, s});
    db_.append_steps(rows);
    db_.finish_run(id, storage::RunStatus::kFinished, "", 100.0);
  }
  int64_t add(const config::RunConfig& c, const std::function<double(int)>& f) {
    const int64_t id = db_.create_run(c.label, config::to_json(c), storage::RunStatus::kRunning);
    finish(id, f);
    return id;
  }

  test_support::TempDir dir_;
  storage::Database db_{dir_.path() + "/runs.db"};
};

TEST_F(Proofs, DropoutIsProvedAgainstTwoMoreSeedsOfTheReference) {
  const int64_t ref = add(dropout_mlp(1, 16), base_loss);
  const int64_t run = add(dropout_mlp(2, 8), [](int s) { return base_loss(s) + 0.01; });
  const ProofPlan plan = plan_proof(db_, ref, run);
  ASSERT_EQ(plan.original.verdict, analysis::Verdict::kDifferent);
  const analysis::Counterfactual* dropout = nullptr;
  for (const auto& cf : plan.counterfactuals)
    if (cf.cause == "dropout") dropout = &cf;
  ASSERT_TRUE(dropout);
  EXPECT_TRUE(analysis::cause_info("dropout").seed_band);
  EXPECT_FALSE(dropout->config);
  ASSERT_EQ(dropout->seeds.size(), 2u);
  EXPECT_EQ(dropout->seeds[0].seed, 43);
  EXPECT_EQ(dropout->seeds[1].seed, 44);
  EXPECT_EQ(dropout->seeds[0].num_processes, 1);  // the reference's setup
  EXPECT_EQ(dropout->change,
            "the reference under seeds 43 and 44: the run judged against the band of 3 seeds");

  const std::vector<int64_t> ids = record_counterfactual(db_, *dropout, run, ref);
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(db_.get_run(ids[0])->label, "cf #2 dropout seed 43");
  EXPECT_EQ(db_.get_run(ids[1])->label, "cf #2 dropout seed 44");
  // Queued: no result yet; one finished: still none (the band needs both).
  for (const StoredProof& p : stored_proofs(db_, ref, run)) EXPECT_FALSE(p.result);
  finish(ids[0], [](int s) { return base_loss(s) + 0.02; });
  std::vector<StoredProof> proofs = stored_proofs(db_, ref, run);
  ASSERT_EQ(proofs.size(), 2u);
  EXPECT_FALSE(proofs[0].result);
  EXPECT_EQ(proofs[1].status, storage::RunStatus::kQueued);
  finish(ids[1], [](int s) { return base_loss(s) - 0.02; });
  proofs = stored_proofs(db_, ref, run);
  ASSERT_EQ(proofs.size(), 2u);
  for (const StoredProof& p : proofs) {
    ASSERT_TRUE(p.result);
    EXPECT_EQ(p.cause, "dropout");
    EXPECT_EQ(p.result->proof, analysis::Proof::kConfirmed) << p.result->text;
    EXPECT_EQ(p.result->text,
              "confirmed: no further from the reference than its own seeds (mean |Δloss| 0.01; "
              "the reference's other seeds 0.02, 0.02; 0 % of the points outside their band)");
  }
}

TEST_F(Proofs, ARunOutsideTheSeedsBandIsNotConfirmed) {
  const int64_t ref = add(dropout_mlp(1, 16), base_loss);
  const int64_t run = add(dropout_mlp(2, 8), [](int s) { return base_loss(s) + 0.05; });
  const ProofPlan plan = plan_proof(db_, ref, run);
  for (const auto& cf : plan.counterfactuals) {
    if (cf.cause != "dropout") continue;
    const std::vector<int64_t> ids = record_counterfactual(db_, cf, run, ref);
    ASSERT_EQ(ids.size(), 2u);
    finish(ids[0], [](int s) { return base_loss(s) + 0.02; });
    finish(ids[1], [](int s) { return base_loss(s) - 0.02; });
  }
  const std::vector<StoredProof> proofs = stored_proofs(db_, ref, run);
  ASSERT_EQ(proofs.size(), 2u);
  ASSERT_TRUE(proofs[0].result);
  EXPECT_EQ(proofs[0].result->proof, analysis::Proof::kNotConfirmed);
  EXPECT_EQ(proofs[0].result->text,
            "not confirmed: further from the reference than its own seeds (mean |Δloss| 0.05; "
            "the reference's other seeds 0.02, 0.02; 100 % of the points outside their band)");
}

// Another global batch and dropout: the remedy (2x8) is trained with the reference's two more
// seeds, and judged against them once all three have finished; dropout is not trained twice.
TEST_F(Proofs, TheRemedyWithNoiseLeftIsJudgedAgainstTheReferencesSeeds) {
  const int64_t ref = add(dropout_mlp(1, 16), base_loss);
  const int64_t run = add(dropout_mlp(2, 16), [](int s) { return base_loss(s) + 0.3; });
  const ProofPlan plan = plan_proof(db_, ref, run);
  ASSERT_TRUE(plan.remedy);
  EXPECT_EQ(plan.remedy->config.per_device_batch_size, 8);
  const analysis::Counterfactual* all = nullptr;
  for (const auto& cf : plan.counterfactuals) {
    if (cf.cause == "all") all = &cf;
    if (cf.cause == "dropout") EXPECT_TRUE(cf.seeds.empty() && !cf.config) << "folded";
  }
  ASSERT_TRUE(all && all->config);
  ASSERT_EQ(all->seeds.size(), 2u);
  const std::vector<int64_t> ids = record_counterfactual(db_, *all, run, ref);
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_EQ(db_.get_run(ids[0])->label, "cf #2 all");
  finish(ids[0], [](int s) { return base_loss(s) + 0.01; });
  finish(ids[1], [](int s) { return base_loss(s) + 0.02; });
  for (const StoredProof& p : stored_proofs(db_, ref, run)) EXPECT_FALSE(p.result);
  finish(ids[2], [](int s) { return base_loss(s) - 0.02; });
  const std::vector<StoredProof> proofs = stored_proofs(db_, ref, run);
  ASSERT_EQ(proofs.size(), 3u);
  for (const StoredProof& p : proofs) {
    ASSERT_TRUE(p.result);
    EXPECT_EQ(p.result->proof, analysis::Proof::kConfirmed) << p.result->text;
  }
}

}  // namespace
}  // namespace parity::stored_runs
