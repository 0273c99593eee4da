#pragma once
// Private to parity_storage: the schema, as an ordered list of forward migrations. Migration N
// takes a database at user_version N-1 to N. To change the schema, append a migration (ALTER TABLE,
// or create-copy-rename for what ALTER cannot do) and raise Database::kSchemaVersion; never edit a
// migration that has shipped.

namespace parity::storage::detail {

struct Migration {
  int version;      // user_version after this migration
  const char* sql;  // run inside one transaction together with the user_version bump
};

// Version 1. Measurement columns (loss, lr, epoch, time_s, accuracy) are nullable because SQLite
// stores NaN as NULL; readers turn NULL back into NaN. runs.id never reuses a deleted run's id
// (AUTOINCREMENT) so a window still showing a deleted run cannot mistake a new one for it.
inline constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE runs (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  label           TEXT    NOT NULL,
  status          TEXT    NOT NULL,
  created_at      REAL    NOT NULL,
  started_at      REAL,
  finished_at     REAL,
  config_json     TEXT    NOT NULL DEFAULT '{}',
  error           TEXT    NOT NULL DEFAULT '',
  notes           TEXT    NOT NULL DEFAULT '',
  total_steps     INTEGER NOT NULL DEFAULT 0,
  steps_done      INTEGER NOT NULL DEFAULT 0,
  samples_per_s   REAL    NOT NULL DEFAULT 0,
  final_loss      REAL,
  final_eval_loss REAL,
  final_accuracy  REAL
);

CREATE TABLE steps (
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step    INTEGER NOT NULL,
  rank    INTEGER NOT NULL,
  epoch   REAL,
  samples INTEGER NOT NULL,
  loss    REAL,
  lr      REAL,
  time_s  REAL,
  PRIMARY KEY (run_id, step, rank)
) WITHOUT ROWID;

-- One rank's series in step order (the chart, live polling with step > last, the last global
-- step for finals, the distinct ranks of a run) without scanning the other ranks' rows.
CREATE INDEX steps_by_rank ON steps(run_id, rank, step);

CREATE TABLE evals (
  run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  epoch    INTEGER NOT NULL,
  step     INTEGER NOT NULL,
  samples  INTEGER NOT NULL,
  loss     REAL,
  accuracy REAL,
  PRIMARY KEY (run_id, epoch, step)
) WITHOUT ROWID;
)sql";

// Version 2: the training set's size as the run saw it (after train_samples), so the verdict can
// tell padding and drops for every dataset, a CSV's included. 0 = not known (runs of version 1).
inline constexpr const char* kSchemaV2 = R"sql(
ALTER TABLE runs ADD COLUMN train_size INTEGER NOT NULL DEFAULT 0;
)sql";

// Version 3: the run's supervisor (the launcher process recording it) and its heartbeat, so a
// reader can tell a run whose launcher is gone (killed, crashed, machine rebooted) and mark it
// failed instead of leaving it "running" forever. pid 0 = no supervisor recorded (older rows, or a
// queued row the window created and no launcher has claimed yet).
inline constexpr const char* kSchemaV3 = R"sql(
ALTER TABLE runs ADD COLUMN supervisor_pid        INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN supervisor_start_time INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN supervisor_host       TEXT    NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN supervisor_boot_id    TEXT    NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN heartbeat_at          REAL    NOT NULL DEFAULT 0;
)sql";

// Version 4: the model as the run's rank 0 built it (parity_config's ModelSummary JSON: layers,
// dropout and its rate, batch norm), so the verdict can read a TorchScript module's traits; and,
// for a counterfactual run (`explain`, the window's Prove), the run it explains, the reference it
// was judged against and the cause it aligns. Deleting a run clears the links to it (the
// trigger); the counterfactual stays an ordinary run. Plain columns, not REFERENCES, so a later
// migration can still drop or rebuild them.
inline constexpr const char* kSchemaV4 = R"sql(
ALTER TABLE runs ADD COLUMN model_json         TEXT    NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN explains_run       INTEGER;
ALTER TABLE runs ADD COLUMN explains_reference INTEGER;
ALTER TABLE runs ADD COLUMN explains_cause     TEXT    NOT NULL DEFAULT '';
CREATE INDEX runs_by_explained ON runs(explains_run);
CREATE TRIGGER runs_unlink_deleted AFTER DELETE ON runs BEGIN
  UPDATE runs SET explains_run = NULL WHERE explains_run = OLD.id;
  UPDATE runs SET explains_reference = NULL WHERE explains_reference = OLD.id;
END;
)sql";

// Version 5: where a run came from ('engine' trained it, 'command' ran the user's own command,
// 'imported' read it from a log), the file or folder it was read from, the identity a re-import
// finds it by (format and canonical path; unique when set), and its facts (parity_config's
// RunFacts JSON: each fact known, derived or unknown; '' = derive them from config_json).
inline constexpr const char* kSchemaV5 = R"sql(
ALTER TABLE runs ADD COLUMN origin          TEXT NOT NULL DEFAULT 'engine';
ALTER TABLE runs ADD COLUMN source_path     TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN source_identity TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN facts_json      TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX runs_by_source ON runs(source_identity) WHERE source_identity <> '';
)sql";

// Version 6: which runs the user chose to draw or hide on the window's chart, so reopening the
// database shows what they left (a run without a row follows the window's default: the newest
// are drawn). A deleted run's choice goes with it.
inline constexpr const char* kSchemaV6 = R"sql(
CREATE TABLE run_shown (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  shown  INTEGER NOT NULL
);
)sql";

// Version 7: the window's setups and experiment (the Setups and Experiment tabs), so reopening the
// database shows what the user configured instead of the presets. One row, the window's own JSON
// ({"experiment": {...}, "setups": [...]}); no row = nothing saved yet (the window then keeps what
// it shows and writes nothing until the user changes it).
inline constexpr const char* kSchemaV7 = R"sql(
CREATE TABLE window_setups (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  json     TEXT    NOT NULL,
  saved_at REAL    NOT NULL
);
)sql";

// Version 8: the version of Parity that recorded the run (parity::kVersion of the launcher that
// created or claimed it, or of the import that read it), so a run says which build trained it.
// '' = recorded before version 8.
inline constexpr const char* kSchemaV8 = R"sql(
ALTER TABLE runs ADD COLUMN parity_version TEXT NOT NULL DEFAULT '';
)sql";

// Version 9: a run submitted to a batch scheduler (`parity-cli run --launcher slurm --submit`):
// its job id ('' = not a job), the job's state as the scheduler last said it ('PENDING
// (Resources)', 'RUNNING', 'COMPLETED'), and the folder on the shared disk the job writes its
// steps file to, which a follower reads into this database. Such a run has no supervisor
// process: the job is its supervisor, so reconciliation never judges it.
inline constexpr const char* kSchemaV9 = R"sql(
ALTER TABLE runs ADD COLUMN job_id     TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN job_state  TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN job_folder TEXT NOT NULL DEFAULT '';
)sql";

inline constexpr Migration kMigrations[] = {
    {1, kSchemaV1}, {2, kSchemaV2}, {3, kSchemaV3}, {4, kSchemaV4},
    {5, kSchemaV5}, {6, kSchemaV6}, {7, kSchemaV7}, {8, kSchemaV8}, {9, kSchemaV9},
};

}  // namespace parity::storage::detail
