// An imported run as storage keeps it: its step rows' samples and epochs from its facts, its
// evaluations numbered as epochs, its notes, its config from its facts; read again, only what is
// new is appended; its facts replaced later with the config they give.
#include <gtest/gtest.h>
#include <parity/config/run_config.h>
#include <parity/imported_runs/store_imported_run.h>
#include <parity/test_support/temp_dir.h>

#include <cmath>
#include <limits>

namespace parity::imported_runs {
namespace {

using config::Fact;

ingest::ImportedRun run_of(int64_t steps, bool setup_known) {
  ingest::ImportedRun run;
  run.name = "logs/a";
  run.format = "tensorboard";
  run.source_path = "/logs/a";
  run.identity = "tensorboard:/logs/a";
  if (setup_known) {
    run.facts.num_processes = Fact<int64_t>::known(2, "hparams");
    run.facts.per_device_batch_size = Fact<int64_t>::known(16, "hparams");
    run.facts.gradient_accumulation_steps = Fact<int64_t>::known(1, "hparams");
    run.facts.train_samples = Fact<int64_t>::known(320, "hparams");
  }
  for (int64_t s = 1; s <= steps; ++s) {
    ingest::ImportedPoint p;
    p.step = s;
    p.loss = 2.0 / static_cast<double>(s);
    p.lr = 0.01;
    p.time_s = static_cast<double>(s);
    if (s == 1) p.epoch = 0.125;  // logged; the others derived when the facts allow
    run.points.push_back(p);
  }
  run.evals.push_back({5, 0.9, 0.7});
  run.evals.push_back({10, 0.8, std::nullopt});
  run.notes = {"one file damaged", "lr not logged"};
  return run;
}

TEST(StoreImportedRun, StepsEvaluationsNotesAndConfigFollowTheFacts) {
  test_support::TempDir dir;
  storage::Database db(dir.file("p.db"));
  const ingest::ImportedRun run = run_of(10, true);
  const storage::ImportOutcome out = store(db, run, "mine");
  EXPECT_TRUE(out.created);
  EXPECT_EQ(out.steps_added, 10);
  EXPECT_EQ(out.evals_added, 2);
  const auto row = db.get_run(out.run_id);
  ASSERT_TRUE(row);
  EXPECT_EQ(row->origin, storage::RunOrigin::kImported);
  EXPECT_EQ(row->label, "mine");
  EXPECT_EQ(row->notes, "one file damaged; lr not logged");
  const config::RunConfig c = config::from_json(row->config_json);
  EXPECT_EQ(c.label, "mine");
  EXPECT_EQ(c.num_processes, 2);
  EXPECT_EQ(c.per_device_batch_size, 16);
  EXPECT_EQ(*config::run_facts_from_json(row->facts_json).num_processes, 2);

  const auto steps = db.steps(out.run_id);
  ASSERT_EQ(steps.size(), 10u);
  EXPECT_EQ(steps[3].samples, 4 * 32);            // step x global batch (2 x 16)
  EXPECT_DOUBLE_EQ(steps[0].epoch, 0.125);        // as logged
  EXPECT_DOUBLE_EQ(steps[3].epoch, 128.0 / 320);  // samples / train samples
  EXPECT_DOUBLE_EQ(steps[3].loss, 0.5);
  const auto evals = db.evals(out.run_id);
  ASSERT_EQ(evals.size(), 2u);
  EXPECT_EQ(evals[0].epoch, 1);
  EXPECT_EQ(evals[1].epoch, 2);
  EXPECT_EQ(evals[1].samples, 10 * 32);
  EXPECT_FALSE(evals[1].accuracy.has_value());
}

TEST(StoreImportedRun, AnUnknownSetupStoresNoSamplesAndAReadAgainAppendsOnlyNewSteps) {
  test_support::TempDir dir;
  storage::Database db(dir.file("p.db"));
  const ingest::ImportedRun first = run_of(4, false);
  const storage::ImportOutcome a = store(db, first, first.name);
  for (const storage::StepRow& s : db.steps(a.run_id)) {
    EXPECT_EQ(s.samples, 0);
    EXPECT_EQ(s.epoch, s.step == 1 ? 0.125 : 0.0);
  }
  const ingest::ImportedRun more = run_of(7, false);
  const storage::ImportOutcome b = store(db, more, more.name);
  EXPECT_FALSE(b.created);
  EXPECT_EQ(b.run_id, a.run_id);
  EXPECT_EQ(b.steps_added, 3);
  EXPECT_EQ(db.steps(a.run_id).size(), 7u);
}

TEST(StoreImportedRun, FactsGivenLaterReplaceTheFactsAndTheConfig) {
  test_support::TempDir dir;
  storage::Database db(dir.file("p.db"));
  const ingest::ImportedRun run = run_of(3, false);
  const int64_t id = store(db, run, "r").run_id;
  config::RunFacts facts = run.facts;
  facts.num_processes = Fact<int64_t>::known(4, "given");
  facts.per_device_batch_size = Fact<int64_t>::known(8, "given");
  store_facts(db, id, facts, "r");
  const auto row = db.get_run(id);
  ASSERT_TRUE(row);
  EXPECT_EQ(*config::run_facts_from_json(row->facts_json).num_processes, 4);
  const config::RunConfig c = config::from_json(row->config_json);
  EXPECT_EQ(c.num_processes, 4);
  EXPECT_EQ(c.per_device_batch_size, 8);
  EXPECT_EQ(config_json_of(facts, "r"), row->config_json);
}

}  // namespace
}  // namespace parity::imported_runs
