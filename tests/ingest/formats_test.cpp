// The ingest registry (parity/ingest/formats.h): each format listed once, each finder finding
// its own fixture and no other format's, and find_runs() asking them all in the registry's
// order. A format added to the registry without a fixture here fails the first test.
#include <gtest/gtest.h>
#include <parity/ingest/find_runs.h>
#include <parity/ingest/formats.h>
#include <parity/test_support/temp_dir.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "fixture_dir.h"

namespace parity::ingest {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

// One folder a format under `root`, each holding one run of it: a run of the Accelerate
// TensorBoard fixtures, the Trainer's trainer_state.json of tests/ingest/data, a CSV table, an
// MLflow file store (laid out as mlflow_test.cpp cites file_store.py).
std::map<std::string, fs::path> one_run_of_each_format(const fs::path& root) {
  std::map<std::string, fs::path> at;
  at["tensorboard"] = root / "tensorboard";
  fs::create_directories(at["tensorboard"]);
  fs::copy(test::accelerate_fixtures() + "/1x32", at["tensorboard"] / "1x32",
           fs::copy_options::recursive);
  at["trainer_state"] = root / "hf";
  fs::create_directories(at["trainer_state"]);
  fs::copy_file(std::string(PARITY_INGEST_DATA) + "/trainer_state.json",
                at["trainer_state"] / "trainer_state.json");
  at["csv"] = root / "table";
  write(at["csv"] / "train.csv", "step,loss,lr\n1,2.0,0.1\n2,1.5,0.1\n");
  at["mlflow"] = root / "mlruns";
  write(at["mlflow"] / "0" / "meta.yaml",
        "experiment_id: '0'\nlifecycle_stage: active\nname: Default\n");
  const fs::path run = at["mlflow"] / "0" / "0123abcd";
  write(run / "meta.yaml",
        "experiment_id: '0'\nlifecycle_stage: active\nrun_id: 0123abcd\nrun_name: one\n"
        "run_uuid: 0123abcd\nstatus: 3\n");
  write(run / "metrics" / "loss", "1000 2.0 1\n2000 1.5 2\n");
  return at;
}

TEST(IngestFormats, TheRegistryListsEachFormatOnceEachWithAFixture) {
  PARITY_REQUIRE_FIXTURES();
  test_support::TempDir dir;
  const auto fixtures = one_run_of_each_format(dir.path());
  std::set<std::string> keys;
  for (const Format& f : formats()) {
    EXPECT_TRUE(keys.insert(f.key).second) << f.key << " is listed twice";
    EXPECT_FALSE(f.what.empty()) << f.key;
    EXPECT_NE(f.find, nullptr) << f.key;
    EXPECT_EQ(fixtures.count(f.key), 1u) << f.key << " has no fixture in this test";
    EXPECT_NE(formats_in_words().find(f.what), std::string::npos) << f.key;
  }
  EXPECT_EQ(keys.size(), fixtures.size());
}

TEST(IngestFormats, EachFinderFindsItsFixtureAndNoOtherFormatsRun) {
  PARITY_REQUIRE_FIXTURES();
  test_support::TempDir dir;
  const auto fixtures = one_run_of_each_format(dir.path());
  for (const Format& f : formats()) {
    for (const auto& [key, path] : fixtures) {
      RunReaders runs = f.find(path.string());
      if (key != f.key) {
        EXPECT_TRUE(runs.empty()) << f.key << " found a run in the " << key << " fixture";
        continue;
      }
      ASSERT_EQ(runs.size(), 1u) << f.key;
      runs[0]->poll();
      const ImportedRun run = runs[0]->run({});
      EXPECT_EQ(run.format, f.key);
      EXPECT_FALSE(run.points.empty()) << f.key;
    }
  }
}

TEST(IngestFormats, FindRunsAsksEveryFormatInTheRegistrysOrder) {
  PARITY_REQUIRE_FIXTURES();
  test_support::TempDir dir;
  one_run_of_each_format(dir.path());
  const RunReaders runs = find_runs(dir.path());
  ASSERT_EQ(runs.size(), formats().size());
  for (size_t i = 0; i < runs.size(); ++i) {
    runs[i]->poll();
    EXPECT_EQ(runs[i]->run({}).format, formats()[i].key) << runs[i]->name();
  }
}

}  // namespace
}  // namespace parity::ingest
