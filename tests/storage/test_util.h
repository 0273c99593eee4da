#pragma once
// Helpers shared by the storage tests: a temporary folder, raw SQL, and a strict CSV reader.

#include <parity/storage/database.h>
#include <parity/test_support/temp_dir.h>
#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <vector>

namespace parity::storage::testing {

/// A fresh folder under $TMPDIR (or /tmp), removed with everything in it on destruction.
using test_support::TempDir;

/// A step row of run `run` with round, step-derived epoch, samples, lr and time.
inline StepRow step_row(int64_t run, int64_t step, int rank, double loss) {
  StepRow r;
  r.run_id = run;
  r.step = step;
  r.rank = rank;
  r.epoch = static_cast<double>(step) / 10.0;
  r.samples = step * 64;
  r.loss = loss;
  r.lr = 0.01 * static_cast<double>(step);
  r.time_s = 0.5 * static_cast<double>(step);
  return r;
}

/// The first column of the first row of `sql` as an integer (fails the test on error).
int64_t query_int(sqlite3* db, const std::string& sql);
/// The first column of the first row of `sql` as text.
std::string query_text(sqlite3* db, const std::string& sql);
/// Runs SQL, failing the test with SQLite's message on error.
void exec_sql(sqlite3* db, const std::string& sql);

/// SQL taking a current database's runs table back to older versions, for the migration tests
/// that rebuild older files. Back to schema 8 (what version 9 added, dropped):
inline constexpr const char* kDropSchemaV9 =
    "ALTER TABLE runs DROP COLUMN job_id; ALTER TABLE runs DROP COLUMN job_state; "
    "ALTER TABLE runs DROP COLUMN job_folder; ";
/// Back to schema 7 (what versions 9 and 8 added, dropped):
inline constexpr const char* kDropSchemaV8 =
    "ALTER TABLE runs DROP COLUMN job_id; ALTER TABLE runs DROP COLUMN job_state; "
    "ALTER TABLE runs DROP COLUMN job_folder; "
    "ALTER TABLE runs DROP COLUMN parity_version; ";
/// Back to schema 6 (what versions 9 to 7 added, dropped):
inline constexpr const char* kDropSchemaV7 =
    "ALTER TABLE runs DROP COLUMN job_id; ALTER TABLE runs DROP COLUMN job_state; "
    "ALTER TABLE runs DROP COLUMN job_folder; "
    "ALTER TABLE runs DROP COLUMN parity_version; DROP TABLE window_setups; ";
/// Back to schema 5 (what versions 9 to 6 added, dropped):
inline constexpr const char* kDropSchemaV6 =
    "ALTER TABLE runs DROP COLUMN job_id; ALTER TABLE runs DROP COLUMN job_state; "
    "ALTER TABLE runs DROP COLUMN job_folder; "
    "ALTER TABLE runs DROP COLUMN parity_version; DROP TABLE window_setups; DROP TABLE run_shown; ";
/// Back to schema 4 (what versions 9 to 5 added, dropped):
inline constexpr const char* kDropSchemaV5 =
    "ALTER TABLE runs DROP COLUMN job_id; ALTER TABLE runs DROP COLUMN job_state; "
    "ALTER TABLE runs DROP COLUMN job_folder; "
    "ALTER TABLE runs DROP COLUMN parity_version; DROP TABLE window_setups; DROP TABLE run_shown; "
    "DROP INDEX runs_by_source; ALTER TABLE runs DROP COLUMN origin; ALTER TABLE runs DROP "
    "COLUMN source_path; ALTER TABLE runs DROP COLUMN source_identity; ALTER TABLE runs DROP "
    "COLUMN facts_json; ";
/// Back to schema 3 (what versions 9 to 4 added, dropped):
inline constexpr const char* kDropSchemaV4 =
    "ALTER TABLE runs DROP COLUMN job_id; ALTER TABLE runs DROP COLUMN job_state; "
    "ALTER TABLE runs DROP COLUMN job_folder; "
    "ALTER TABLE runs DROP COLUMN parity_version; DROP TABLE window_setups; DROP TABLE run_shown; "
    "DROP INDEX runs_by_source; ALTER TABLE runs DROP COLUMN origin; ALTER TABLE runs DROP "
    "COLUMN source_path; ALTER TABLE runs DROP COLUMN source_identity; ALTER TABLE runs DROP "
    "COLUMN facts_json; "
    "DROP TRIGGER runs_unlink_deleted; DROP INDEX runs_by_explained; "
    "ALTER TABLE runs DROP COLUMN model_json; ALTER TABLE runs DROP COLUMN explains_run; "
    "ALTER TABLE runs DROP COLUMN explains_reference; ALTER TABLE runs DROP COLUMN "
    "explains_cause; ";

/// Parses RFC 4180 text (CRLF row ends, quoted cells); throws std::runtime_error on anything else,
/// such as a bare LF line end or a stray quote.
std::vector<std::vector<std::string>> parse_csv(const std::string& text);

}  // namespace parity::storage::testing
