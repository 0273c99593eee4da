// The Hugging Face Trainer's trainer_state.json: its log_history as points and evaluations (bare
// NaN and Infinity read), its facts (per-device batch known, one process derived from the speed
// metrics), an output_dir's newest checkpoint by number, a state read again as training goes
// on, and what is refused.
#include <gtest/gtest.h>
#include <parity/ingest/find_runs.h>
#include <parity/ingest/ingest_error.h>
#include <parity/ingest/trainer_state.h>
#include <parity/test_support/temp_dir.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "event_writer.h"

namespace parity::ingest {
namespace {

namespace fs = std::filesystem;

std::string fixture() {
  std::ifstream in(std::string(PARITY_INGEST_DATA) + "/trainer_state.json");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The fixture with its global step and logged steps moved to `step` (a later checkpoint).
std::string at_step(int step) {
  std::string text = fixture();
  const std::string from = "\"global_step\": 30";
  text.replace(text.find(from), from.size(), "\"global_step\": " + std::to_string(step));
  return text;
}

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

TEST(TrainerState, LogHistoryBecomesPointsAndEvaluationsWithNaNKept) {
  const ImportedRun run = read_trainer_state(fixture(), "trainer_state.json");
  EXPECT_EQ(run.format, "trainer_state");
  ASSERT_EQ(run.points.size(), 3u);  // the final summary entry is no point
  EXPECT_EQ(run.loss_tag, "loss");
  EXPECT_EQ(run.points[0].step, 10);
  EXPECT_DOUBLE_EQ(run.points[0].loss, 2.3026);
  EXPECT_DOUBLE_EQ(run.points[0].lr, 3.6666666666666666e-05);
  EXPECT_DOUBLE_EQ(run.points[1].epoch, 2.0);
  EXPECT_TRUE(std::isnan(run.points[2].loss));  // kept, as the engine keeps a NaN loss
  ASSERT_EQ(run.evals.size(), 1u);
  EXPECT_EQ(run.evals[0].step, 10);
  EXPECT_DOUBLE_EQ(run.evals[0].loss, 1.9843);
  ASSERT_TRUE(run.evals[0].accuracy.has_value());
  EXPECT_DOUBLE_EQ(*run.evals[0].accuracy, 0.4375);
  bool said = false;
  for (const auto& n : run.notes)
    said = said || n.find("NaN or infinite loss") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(TrainerState, FactsKnownFromTheFileAndDerivedFromItsSpeedMetrics) {
  const ImportedRun run = read_trainer_state(fixture(), "trainer_state.json");
  const auto& f = run.facts;
  ASSERT_TRUE(f.per_device_batch_size.has_value());
  EXPECT_EQ(*f.per_device_batch_size, 8);
  EXPECT_EQ(f.per_device_batch_size.provenance, config::Provenance::kKnown);
  EXPECT_NE(f.per_device_batch_size.source.find("train_batch_size"), std::string::npos);
  EXPECT_EQ(*f.epochs, 3);
  // 64 samples/s over 8 steps/s: 8 samples a step = train_batch_size, so one process, no
  // accumulation; derived, and said how.
  ASSERT_TRUE(f.num_processes.has_value());
  EXPECT_EQ(*f.num_processes, 1);
  EXPECT_EQ(f.num_processes.provenance, config::Provenance::kDerived);
  EXPECT_NE(f.num_processes.source.find("train_samples_per_second / train_steps_per_second"),
            std::string::npos);
  EXPECT_EQ(*f.gradient_accumulation_steps, 1);
  EXPECT_TRUE(f.setup_known());
  EXPECT_FALSE(f.learning_rate.has_value());  // the log holds the schedule's values, not the base
  // 4 x train_batch_size a step: processes x accumulation is 4, which of them is not said.
  std::string text = fixture();
  text.replace(text.find("\"train_samples_per_second\": 64.0"), 32,
               "\"train_samples_per_second\": 256.0");
  const ImportedRun four = read_trainer_state(text, "trainer_state.json");
  EXPECT_FALSE(four.facts.num_processes.has_value());
  bool said = false;
  for (const auto& n : four.notes)
    said = said || n.find("processes x accumulation = 4") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(TrainerState, WhatIsNoTrainerStateIsRefusedNamingTheFile) {
  EXPECT_THROW(read_trainer_state("not json at all", "x/trainer_state.json"), IngestError);
  try {
    read_trainer_state("{\"global_step\": 3}", "x/trainer_state.json");
    FAIL();
  } catch (const IngestError& e) {
    EXPECT_NE(std::string(e.what()).find("x/trainer_state.json: no log_history"), std::string::npos)
        << e.what();
  }
  // A string that holds the word NaN is a string, not a number.
  const ImportedRun run = read_trainer_state(
      "{\"log_history\": [{\"loss\": 1.5, \"step\": 1, \"note\": \"NaN Infinity\"}]}", "s.json");
  ASSERT_EQ(run.points.size(), 1u);
  EXPECT_DOUBLE_EQ(run.points[0].loss, 1.5);
}

TEST(TrainerState, AnOutputDirIsReadFromItsNewestCheckpointByNumber) {
  test_support::TempDir dir;
  const fs::path out = fs::path(dir.path()) / "my-run";
  write(out / "checkpoint-500" / "trainer_state.json", at_step(500));
  write(out / "checkpoint-1000" / "trainer_state.json", at_step(1000));  // "1000" < "500" as text
  write(out / "runs" / "readme.txt", "no events here");
  std::vector<TrainerStateRun> runs = find_trainer_state_runs(dir.path());
  ASSERT_EQ(runs.size(), 1u);  // checkpoint folders are not runs of their own
  EXPECT_EQ(runs[0].name(), "my-run");
  ASSERT_TRUE(runs[0].poll());
  ImportedRun run = runs[0].run();
  bool newest = false;
  for (const auto& n : run.notes) newest = newest || n.find("checkpoint-1000") != std::string::npos;
  EXPECT_TRUE(newest);
  EXPECT_EQ(run.identity.rfind("trainer_state:", 0), 0u);
  EXPECT_FALSE(runs[0].poll());  // nothing changed
  // trainer.save_state() after the last checkpoint: output_dir's own file has the higher step.
  write(out / "trainer_state.json", at_step(1200));
  EXPECT_TRUE(runs[0].poll());
  newest = false;
  for (const auto& n : runs[0].run().notes)
    newest = newest || n.find((out / "trainer_state.json").string()) != std::string::npos;
  EXPECT_TRUE(newest);
  // A checkpoint being written (half a file) is left for the next read; the last state stays,
  // and a fresh reader starts from the newest whole one.
  write(out / "checkpoint-1500" / "trainer_state.json", at_step(1500).substr(0, 200));
  EXPECT_FALSE(runs[0].poll());
  EXPECT_EQ(runs[0].run().points.size(), 3u);
  TrainerStateRun fresh("my-run", out.string());
  EXPECT_TRUE(fresh.poll());
  EXPECT_EQ(fresh.run().points.size(), 3u);
  write(out / "checkpoint-1500" / "trainer_state.json", at_step(1500));  // now whole
  EXPECT_TRUE(runs[0].poll());
  // find_runs finds it among the formats; a file path is a run too.
  EXPECT_EQ(find_runs(out.string()).size(), 1u);
  EXPECT_EQ(
      find_trainer_state_runs((out / "checkpoint-500" / "trainer_state.json").string()).size(), 1u);
}

TEST(TrainerState, AnOutputDirsOwnTensorBoardLogIsTheSameRunNotASecondOne) {
  // report_to="tensorboard": the Trainer logs the same training under output_dir/runs/<time_host>.
  test_support::TempDir dir;
  const fs::path out = fs::path(dir.path()) / "out";
  write(out / "checkpoint-30" / "trainer_state.json", at_step(30));
  const auto events = [](const fs::path& folder) {
    using namespace test;
    write(
        folder / "events.out.tfevents.1.host",
        record(file_version_event(1.0)) + record(event(2.0, 1, simple_value("train/loss", 2.0f))));
  };
  events(out / "runs" / "Dec04_10-00-00_host");
  events(fs::path(dir.path()) / "elsewhere");  // another training's log: a run of its own
  const auto runs = find_runs(dir.path());
  ASSERT_EQ(runs.size(), 2u);
  std::vector<std::string> names;
  for (const auto& r : runs) names.push_back(r->name());
  EXPECT_EQ(std::count(names.begin(), names.end(), "elsewhere"), 1) << names[0] << ", " << names[1];
  for (const auto& r : runs) {
    if (r->name() == "elsewhere") continue;
    r->poll();
    const ImportedRun run = r->run({});
    EXPECT_EQ(run.format, "trainer_state");
    bool said = false;
    for (const auto& n : run.notes)
      said = said || n.find("log the same training") != std::string::npos;
    EXPECT_TRUE(said) << "the run does not say its TensorBoard log was left out";
  }
}

}  // namespace
}  // namespace parity::ingest
