#pragma once
/// From an imported run to the store: a run parity_ingest read (its points, evaluations, facts
/// and notes) as the rows storage keeps, written once and appended to when it is read again.
/// The one place where the ingest's fields meet storage's columns; parity-cli's `import` and
/// `set` write through it (the window imports through `parity-cli import`).
/// Thread contract: that of storage::Database (one thread at a time per Database).

#include <parity/config/run_facts.h>
#include <parity/ingest/imported_run.h>
#include <parity/storage/database.h>

#include <functional>
#include <string>

namespace parity::imported_runs {

/// The config an imported run is stored with: the engine's defaults with what the facts say,
/// labelled `label` (as JSON, the config column).
std::string config_json_of(const config::RunFacts& facts, const std::string& label);

/// The run as storage keeps it, without its step rows (step_rows() draws them): its source and
/// identity, facts and config, notes joined with "; ", the train size when a fact, and its
/// evaluations numbered as epochs 1, 2, ... with the samples seen at their step.
storage::ImportedRunRecord to_record(const ingest::ImportedRun& run, const std::string& label);

/// The run's points as step rows, one a call (false after the last), so a run of millions of
/// steps is not held twice: samples = step x the global batch when the facts know it (else 0),
/// the epoch as logged, else samples / train samples when both are known (else 0). `run` must
/// outlive the function.
std::function<bool(storage::StepRow&)> step_rows(const ingest::ImportedRun& run);

/// Writes `run` as `label` into `db`: a new imported run, or the steps and evaluations that are
/// new to the run imported before from the same source (its identity).
storage::ImportOutcome store(storage::Database& db, const ingest::ImportedRun& run,
                             const std::string& label);

/// Replaces an imported run's facts (and the config they give) with `facts`.
void store_facts(storage::Database& db, int64_t run_id, const config::RunFacts& facts,
                 const std::string& label);

}  // namespace parity::imported_runs
