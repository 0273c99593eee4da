// MLflow's two tracking stores, written here as MLflow lays them out (MLflow itself is not
// installed; shared/research/import-formats.md §3 has the facts with their citations):
// - the file store after mlflow/store/tracking/file_store.py: mlruns/<experiment_id>/meta.yaml,
//   <run_id>/meta.yaml, metrics/<key> lines "timestamp value step" (file_store.py's
//   append_to(path, f"{metric.timestamp} {metric.value} {metric.step}\n"); its reader takes 2 or
//   3 fields), params/<key> and tags/<key> holding their value, a key's '/' a sub-folder,
//   .trash/ for deleted experiments;
// - the SQLite store after mlflow/store/tracking/dbmodels/models.py (SqlExperiment, SqlRun,
//   SqlMetric with is_nan, SqlParam, SqlTag), opened read-only and never written.
#include <gtest/gtest.h>
#include <parity/ingest/find_runs.h>
#include <parity/ingest/ingest_error.h>
#include <parity/ingest/mlflow.h>
#include <parity/test_support/temp_dir.h>
#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace parity::ingest {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << text;
}

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// An experiment's meta.yaml as FileStore._create_experiment_with_id writes it.
void experiment(const fs::path& mlruns, const std::string& id, const std::string& name,
                const std::string& stage = "active") {
  write(mlruns / id / "meta.yaml", "artifact_location: file://" + (mlruns / id).string() +
                                       "\ncreation_time: 1733140000000\nexperiment_id: '" + id +
                                       "'\nlast_update_time: 1733140000000\nlifecycle_stage: " +
                                       stage + "\nname: " + name + "\n");
}

// A run's meta.yaml as FileStore.create_run writes it (status an int: RUNNING=1, FINISHED=3).
fs::path run_folder(const fs::path& mlruns, const std::string& exp, const std::string& id,
                    const std::string& name, const std::string& stage = "active") {
  const fs::path folder = mlruns / exp / id;
  write(folder / "meta.yaml",
        "artifact_uri: file://" + (folder / "artifacts").string() +
            "\nend_time: null\nentry_point_name: ''\nexperiment_id: '" + exp +
            "'\nlifecycle_stage: " + stage + "\nrun_id: " + id + "\nrun_name: " + name +
            "\nrun_uuid: " + id +
            "\nsource_name: ''\nsource_type: 4\nsource_version: ''\nstart_time: 1733140000000"
            "\nstatus: 1\ntags: []\nuser_id: me\n");
  write(folder / "tags" / "mlflow.runName", name);
  return folder;
}

// One Hugging Face Trainer run through MLflowCallback: TrainingArguments as params, loss,
// learning_rate and eval_loss at state.global_step, and the train() summary at the end.
fs::path hf_run(const fs::path& mlruns) {
  const fs::path run = run_folder(mlruns, "1", "a1b2c3d4e5f6", "bert-1x8");
  const std::pair<const char*, const char*> params[] = {{"per_device_train_batch_size", "8"},
                                                        {"gradient_accumulation_steps", "2"},
                                                        {"learning_rate", "5e-05"},
                                                        {"seed", "42"},
                                                        {"fp16", "False"},
                                                        {"bf16", "True"},
                                                        {"logging_steps", "10"},
                                                        {"lr_scheduler_type", "linear"}};
  for (const auto& [key, value] : params) write(run / "params" / key, value);
  write(run / "metrics" / "loss",
        "1733140001000 2.3026 10\n1733140002000 1.9 20\n1733140003000 nan 30\n");
  write(run / "metrics" / "learning_rate",
        "1733140001000 5e-05 10\n1733140002000 3.3e-05 20\n1733140003000 1.6e-05 30\n");
  write(run / "metrics" / "eval_loss", "1733140002500 1.98 20\n");
  write(run / "metrics" / "train_loss", "1733140004000 2.1 30\n");
  write(run / "metrics" / "train_runtime", "1733140004000 4.5 30\n");
  return run;
}

TEST(Mlflow, MetricLinesHoldTwoOrThreeFields) {
  int64_t t = 0, step = -1;
  double v = 0;
  ASSERT_TRUE(parse_mlflow_metric_line("1733140001000 2.5 7", &t, &v, &step));
  EXPECT_EQ(t, 1733140001000);
  EXPECT_DOUBLE_EQ(v, 2.5);
  EXPECT_EQ(step, 7);
  ASSERT_TRUE(parse_mlflow_metric_line("1733140001000 2.5\r", &t, &v, &step));
  EXPECT_EQ(step, 0);  // no step: file_store.py reads step 0
  ASSERT_TRUE(parse_mlflow_metric_line("1 nan 3", &t, &v, &step));
  EXPECT_TRUE(std::isnan(v));
  EXPECT_FALSE(parse_mlflow_metric_line("1 2 3 4", &t, &v, &step));
  EXPECT_FALSE(parse_mlflow_metric_line("1 oops 3", &t, &v, &step));
  EXPECT_FALSE(parse_mlflow_metric_line("1.5 2 3", &t, &v, &step));
  EXPECT_FALSE(parse_mlflow_metric_line("", &t, &v, &step));
}

TEST(Mlflow, FileStoreRunsWithTheirSeriesAndFactsDeletedOnesLeftOut) {
  test_support::TempDir dir;
  const fs::path mlruns = fs::path(dir.path()) / "mlruns";
  experiment(mlruns, "0", "Default");
  experiment(mlruns, "1", "hf-glue");
  const fs::path hf = hf_run(mlruns);
  // A script's own keys: train/loss is the folder train/ (2-field lines in the second run).
  const fs::path nested = run_folder(mlruns, "0", "ffee0011", "nested");
  write(nested / "metrics" / "train" / "loss", "1000 3.0 1\n2000 2.0 2\n3000 1.0 3\n");
  write(nested / "metrics" / "train" / "lr", "1000 0.1 1\n2000 0.1 2\n3000 0.1 3\n");
  write(nested / "params" / "optim" / "lr", "0.1");
  const fs::path two = run_folder(mlruns, "0", "ffee0022", "two-fields");
  write(two / "metrics" / "loss", "1000 3.0\n2000 2.5\n");
  // Deleted: a run, an experiment, and the .trash/ folder that deleted experiments move to.
  write(run_folder(mlruns, "1", "dead0001", "gone", "deleted") / "metrics" / "loss", "1 1 1\n");
  experiment(mlruns, "2", "deleted-exp", "deleted");
  run_folder(mlruns, "2", "dead0002", "gone-too");
  experiment(mlruns / ".trash", "3", "trashed");
  run_folder(mlruns / ".trash", "3", "dead0003", "trashed-run");

  auto runs = find_mlflow_runs(mlruns.string());
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0]->name(), "Default/nested");
  EXPECT_EQ(runs[1]->name(), "Default/two-fields");
  EXPECT_EQ(runs[2]->name(), "hf-glue/bert-1x8");
  for (auto& r : runs) ASSERT_TRUE(r->poll());

  const ImportedRun n = runs[0]->run({});
  EXPECT_EQ(n.format, "mlflow");
  EXPECT_EQ(n.loss_tag, "train/loss");
  ASSERT_EQ(n.points.size(), 3u);
  EXPECT_DOUBLE_EQ(n.points[2].lr, 0.1);
  EXPECT_DOUBLE_EQ(n.points[2].time_s, 2.0);        // timestamps are milliseconds
  EXPECT_FALSE(n.facts.learning_rate.has_value());  // params/optim/lr is the key optim/lr

  const ImportedRun t = runs[1]->run({});
  ASSERT_EQ(t.points.size(), 2u);
  EXPECT_EQ(t.points[1].step, 2);  // every step 0: numbered in the order written
  EXPECT_DOUBLE_EQ(t.points[1].loss, 2.5);

  const ImportedRun h = runs[2]->run({});
  EXPECT_EQ(h.loss_tag, "loss");  // not the summary's train_loss
  ASSERT_EQ(h.points.size(), 3u);
  EXPECT_TRUE(std::isnan(h.points[2].loss));
  EXPECT_DOUBLE_EQ(h.points[1].lr, 3.3e-05);
  ASSERT_EQ(h.evals.size(), 1u);
  EXPECT_EQ(h.evals[0].step, 20);
  const auto& f = h.facts;
  EXPECT_EQ(*f.per_device_batch_size, 8);
  EXPECT_EQ(f.per_device_batch_size.provenance, config::Provenance::kKnown);
  EXPECT_EQ(f.per_device_batch_size.source, "MLflow params: per_device_train_batch_size");
  EXPECT_EQ(*f.gradient_accumulation_steps, 2);
  EXPECT_DOUBLE_EQ(*f.learning_rate, 5e-05);
  EXPECT_EQ(*f.seed, 42);
  EXPECT_EQ(*f.mixed_precision, "bf16");
  EXPECT_EQ(*f.schedule, "linear");
  EXPECT_EQ(f.use_seedable_sampler.provenance, config::Provenance::kDerived);
  EXPECT_EQ(f.lr_scaling.value.value_or(""), "none");  // the first lr logged is learning_rate
  EXPECT_NE(h.identity.find("a1b2c3d4e5f6"), std::string::npos);
  // --loss-tag is honoured, the summary's train_loss included when named.
  ImportOptions o;
  o.loss_tag = "train_loss";
  EXPECT_EQ(runs[2]->run(o).points.size(), 1u);
  o.loss_tag = "nope";
  EXPECT_THROW(runs[2]->run(o), IngestError);

  // The same runs from the folder above, from an experiment folder and from one run folder.
  EXPECT_EQ(find_runs(dir.path()).size(), 3u);
  EXPECT_EQ(find_mlflow_runs((mlruns / "1").string()).size(), 1u);
  auto one = find_mlflow_runs(hf.string());
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0]->name(), "hf-glue/bert-1x8");
  ASSERT_TRUE(one[0]->poll());
  EXPECT_EQ(one[0]->run({}).identity, h.identity);  // a re-import finds the same run
}

TEST(Mlflow, FileStoreFollowReadsOnlyWhatIsNewAndLeavesAHalfLine) {
  test_support::TempDir dir;
  const fs::path mlruns = fs::path(dir.path()) / "mlruns";
  experiment(mlruns, "0", "Default");
  const fs::path run = run_folder(mlruns, "0", "live0001", "live");
  write(run / "metrics" / "loss", "1000 2.0 1\n2000 1.5 2\n3000 1.2");  // a line being written
  auto runs = find_mlflow_runs(mlruns.string());
  ASSERT_EQ(runs.size(), 1u);
  ASSERT_TRUE(runs[0]->poll());
  EXPECT_EQ(runs[0]->run({}).points.size(), 2u);
  EXPECT_FALSE(runs[0]->poll());  // nothing whole is new
  {
    std::ofstream out(run / "metrics" / "loss", std::ios::app);
    out << "5 3\n4000 nan 4\nnot a point\n";
  }
  write(run / "params" / "seed", "7");  // a param logged late
  ASSERT_TRUE(runs[0]->poll());
  const ImportedRun r = runs[0]->run({});
  ASSERT_EQ(r.points.size(), 4u);
  EXPECT_EQ(r.points[2].step, 3);
  EXPECT_DOUBLE_EQ(r.points[2].loss, 1.25);
  EXPECT_TRUE(std::isnan(r.points[3].loss));  // NaN kept
  EXPECT_EQ(*r.facts.seed, 7);
  bool counted = false;
  for (const auto& n : r.notes) counted = counted || n.find("1 metric line(s)") == 0;
  EXPECT_TRUE(counted);
  EXPECT_FALSE(runs[0]->poll());
}

// The tables MLflow's SQLAlchemy models create in SQLite (models.py; the migrations' result).
const char* const kSchema = R"(
BEGIN;
CREATE TABLE experiments (experiment_id INTEGER NOT NULL, name VARCHAR(256) NOT NULL,
  artifact_location VARCHAR(256), lifecycle_stage VARCHAR(32), creation_time BIGINT,
  last_update_time BIGINT, CONSTRAINT experiment_pk PRIMARY KEY (experiment_id), UNIQUE (name));
CREATE TABLE runs (run_uuid VARCHAR(32) NOT NULL, name VARCHAR(250), source_type VARCHAR(20),
  source_name VARCHAR(500), entry_point_name VARCHAR(50), user_id VARCHAR(256),
  status VARCHAR(9), start_time BIGINT, end_time BIGINT, deleted_time BIGINT,
  source_version VARCHAR(50), lifecycle_stage VARCHAR(20), artifact_uri VARCHAR(200),
  experiment_id INTEGER, CONSTRAINT run_pk PRIMARY KEY (run_uuid),
  FOREIGN KEY(experiment_id) REFERENCES experiments (experiment_id));
CREATE TABLE metrics (key VARCHAR(250) NOT NULL, value FLOAT NOT NULL, timestamp BIGINT NOT NULL,
  run_uuid VARCHAR(32) NOT NULL, step BIGINT DEFAULT '0' NOT NULL,
  is_nan BOOLEAN DEFAULT '0' NOT NULL,
  CONSTRAINT metric_pk PRIMARY KEY (key, timestamp, step, run_uuid, value, is_nan),
  FOREIGN KEY(run_uuid) REFERENCES runs (run_uuid));
CREATE INDEX index_metrics_run_uuid ON metrics (run_uuid);
CREATE TABLE latest_metrics (key VARCHAR(250) NOT NULL, value FLOAT NOT NULL, timestamp BIGINT,
  step BIGINT NOT NULL, is_nan BOOLEAN NOT NULL, run_uuid VARCHAR(32) NOT NULL,
  CONSTRAINT latest_metric_pk PRIMARY KEY (key, run_uuid));
CREATE TABLE params (key VARCHAR(250) NOT NULL, value VARCHAR(8000) NOT NULL,
  run_uuid VARCHAR(32) NOT NULL, CONSTRAINT param_pk PRIMARY KEY (key, run_uuid));
CREATE INDEX index_params_run_uuid ON params (run_uuid);
CREATE TABLE tags (key VARCHAR(250) NOT NULL, value VARCHAR(5000), run_uuid VARCHAR(32) NOT NULL,
  CONSTRAINT tag_pk PRIMARY KEY (key, run_uuid));
CREATE TABLE experiment_tags (key VARCHAR(250) NOT NULL, value VARCHAR(5000),
  experiment_id INTEGER NOT NULL, CONSTRAINT experiment_tag_pk PRIMARY KEY (key, experiment_id));
INSERT INTO experiments VALUES (0, 'Default', 'mlflow-artifacts:/0', 'active', 1, 1);
INSERT INTO experiments VALUES (1, 'accelerate', 'mlflow-artifacts:/1', 'active', 1, 1);
INSERT INTO experiments VALUES (2, 'old', 'mlflow-artifacts:/2', 'deleted', 1, 1);
INSERT INTO runs VALUES ('aaaa1111', 'base', 'LOCAL', '', '', 'me', 'FINISHED', 1000, 9000,
  NULL, '', 'active', '', 0);
INSERT INTO runs VALUES ('bbbb2222', NULL, 'LOCAL', '', '', 'me', 'RUNNING', 2000, NULL,
  NULL, '', 'active', '', 1);
INSERT INTO runs VALUES ('cccc3333', 'gone', 'LOCAL', '', '', 'me', 'FINISHED', 3000, NULL,
  4000, '', 'deleted', '', 1);
INSERT INTO runs VALUES ('dddd4444', 'old-run', 'LOCAL', '', '', 'me', 'FINISHED', 3000, NULL,
  NULL, '', 'active', '', 2);
INSERT INTO tags VALUES ('mlflow.runName', 'base', 'aaaa1111');
INSERT INTO tags VALUES ('mlflow.runName', '2x16', 'bbbb2222');
INSERT INTO params VALUES ('learning_rate', '0.001', 'aaaa1111');
INSERT INTO params VALUES ('per_device_train_batch_size', '32', 'aaaa1111');
INSERT INTO params VALUES ('num_processes', '2', 'bbbb2222');
INSERT INTO params VALUES ('mixed_precision', 'bf16', 'bbbb2222');
INSERT INTO metrics VALUES ('train_loss', 2.0, 1000, 'aaaa1111', 1, 0);
INSERT INTO metrics VALUES ('train_loss', 1.5, 2000, 'aaaa1111', 2, 0);
INSERT INTO metrics VALUES ('train_loss', 0.0, 3000, 'aaaa1111', 3, 1);
INSERT INTO metrics VALUES ('lr', 0.001, 1000, 'aaaa1111', 1, 0);
INSERT INTO metrics VALUES ('eval_loss', 1.7, 2000, 'aaaa1111', 2, 0);
INSERT INTO metrics VALUES ('train/loss', 3.0, 2000, 'bbbb2222', 1, 0);
INSERT INTO metrics VALUES ('train/loss', 1.0, 2000, 'cccc3333', 1, 0);
COMMIT;
)";

void exec(const std::string& file, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
  const std::string why = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << why;
}

TEST(Mlflow, SqliteStoreRunsOfTwoExperimentsReadWithoutWritingAndFollowed) {
  test_support::TempDir dir;
  const std::string db = (fs::path(dir.path()) / "mlflow.db").string();
  exec(db, kSchema);
  const std::string bytes = read(db);
  const auto mtime = fs::last_write_time(db);
  EXPECT_TRUE(is_mlflow_sqlite(db));

  auto runs = find_runs(db);
  ASSERT_EQ(runs.size(), 2u);  // the deleted run and the deleted experiment's run left out
  EXPECT_EQ(runs[0]->name(), "Default/base");
  EXPECT_EQ(runs[1]->name(), "accelerate/2x16");  // runs.name empty: the tag mlflow.runName
  for (auto& r : runs) ASSERT_TRUE(r->poll());
  const ImportedRun a = runs[0]->run({});
  EXPECT_EQ(a.format, "mlflow");
  EXPECT_EQ(a.loss_tag, "train_loss");
  ASSERT_EQ(a.points.size(), 3u);
  EXPECT_TRUE(std::isnan(a.points[2].loss));  // is_nan
  EXPECT_DOUBLE_EQ(a.points[0].lr, 0.001);
  ASSERT_EQ(a.evals.size(), 1u);
  EXPECT_EQ(*a.facts.per_device_batch_size, 32);
  EXPECT_DOUBLE_EQ(*a.facts.learning_rate, 0.001);
  const ImportedRun b = runs[1]->run({});
  EXPECT_EQ(b.loss_tag, "train/loss");
  EXPECT_EQ(b.points.size(), 1u);
  EXPECT_EQ(*b.facts.num_processes, 2);
  EXPECT_EQ(*b.facts.mixed_precision, "bf16");
  EXPECT_NE(a.identity, b.identity);
  EXPECT_FALSE(runs[0]->poll());
  // Read-only: not a byte or a timestamp of the file changed, and no journal was left.
  EXPECT_EQ(read(db), bytes);
  EXPECT_EQ(fs::last_write_time(db), mtime);
  EXPECT_FALSE(fs::exists(db + "-journal"));
  EXPECT_FALSE(fs::exists(db + "-wal"));

  // MLflow logs more of the second run: only that run has news, read past the last rowid.
  exec(db,
       "INSERT INTO metrics VALUES ('train/loss', 2.0, 3000, 'bbbb2222', 2, 0);"
       "INSERT INTO metrics VALUES ('train/loss', 0.0, 4000, 'bbbb2222', 3, 1);"
       "INSERT INTO params VALUES ('per_device_batch_size', '16', 'bbbb2222');");
  EXPECT_FALSE(runs[0]->poll());
  ASSERT_TRUE(runs[1]->poll());
  const ImportedRun b2 = runs[1]->run({});
  ASSERT_EQ(b2.points.size(), 3u);
  EXPECT_TRUE(std::isnan(b2.points[2].loss));
  EXPECT_EQ(*b2.facts.per_device_batch_size, 16);
  EXPECT_EQ(runs[0]->run({}).points.size(), 3u);  // nothing doubled
}

// MLflow killed mid-commit leaves a hot journal, which a mode=ro connection may not roll back
// ("attempt to write a readonly database"): the store is read with immutable=1 instead, the
// journal left where it is and the file unchanged.
TEST(Mlflow, AStoreLeftMidCommitIsReadImmutableWithoutRollingBack) {
  test_support::TempDir dir;
  const fs::path root(dir.path());
  const std::string live = (root / "live.db").string(), left = (root / "left.db").string();
  exec(live,
       std::string("PRAGMA journal_mode=DELETE;") + kSchema + "CREATE TABLE filler (x BLOB);");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(live.c_str(), &db), SQLITE_OK);
  // A tiny cache spills the transaction's pages into the file before the commit.
  ASSERT_EQ(sqlite3_exec(db,
                         "PRAGMA cache_size=1; BEGIN; WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
                         "SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO filler SELECT "
                         "randomblob(500) FROM n;",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  fs::copy_file(live, left);
  fs::copy_file(live + "-journal", left + "-journal");
  sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  const std::string bytes = read(left), journal = read(left + "-journal");

  auto runs = find_runs(left);
  ASSERT_EQ(runs.size(), 2u);
  ASSERT_TRUE(runs[0]->poll());
  const ImportedRun a = runs[0]->run({});
  EXPECT_EQ(a.points.size(), 3u);
  bool said = false;
  for (const auto& n : a.notes) said = said || n.find("immutable") != std::string::npos;
  EXPECT_TRUE(said);
  EXPECT_EQ(read(left), bytes);
  EXPECT_EQ(read(left + "-journal"), journal);  // not rolled back: MLflow's own to do
}

TEST(Mlflow, ADatabaseThatIsNotMlflowIsLeftAlone) {
  test_support::TempDir dir;
  const fs::path root(dir.path());
  const std::string other = (root / "parity.db").string();
  exec(other,
       "CREATE TABLE runs (id INTEGER PRIMARY KEY, label TEXT);"
       "CREATE TABLE metrics (run_id INTEGER, step INTEGER, loss REAL);");
  write(root / "notes.db", "not SQLite at all, just text\n");
  const std::string bytes = read(other);
  EXPECT_FALSE(is_mlflow_sqlite(other));
  EXPECT_FALSE(is_mlflow_sqlite((root / "notes.db").string()));
  EXPECT_TRUE(find_mlflow_runs(other).empty());
  EXPECT_TRUE(find_mlflow_runs(dir.path()).empty());
  EXPECT_TRUE(find_runs(dir.path()).empty());
  EXPECT_EQ(read(other), bytes);
  EXPECT_EQ(read(root / "notes.db"), "not SQLite at all, just text\n");
}

TEST(Mlflow, RunNamesAsGivenAndRunsOfOneNameToldApartByTheirId) {
  test_support::TempDir dir;
  const fs::path mlruns = fs::path(dir.path()) / "mlruns";
  experiment(mlruns, "0", "Default");
  // The Trainer names every run after its output_dir: two runs of one script share the name.
  write(run_folder(mlruns, "0", "1111aaaa2222", "out") / "metrics" / "loss", "1 1 1\n");
  write(run_folder(mlruns, "0", "3333bbbb4444", "out") / "metrics" / "loss", "1 1 1\n");
  // A name YAML would type as a number is read from the tag as given.
  run_folder(mlruns, "0", "5555cccc6666", "1e3");
  auto runs = find_mlflow_runs(mlruns.string());
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0]->name(), "Default/out (1111aaaa)");
  EXPECT_EQ(runs[1]->name(), "Default/out (3333bbbb)");
  EXPECT_EQ(runs[2]->name(), "Default/1e3");
}

}  // namespace
}  // namespace parity::ingest
