#pragma once
/// CSV export (RFC 4180: quotes around cells with , " CR LF, quotes doubled, CRLF line ends).
/// A cell starting with = + - @ (or tab/CR) is neutralised with a leading ' so spreadsheets do not
/// run it as a formula — except plain numbers such as -0.5, which stay numbers.

#include <parity/storage/database.h>

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace parity::storage {

/// One cell as written: neutralised if it could run as a formula, then quoted if needed.
std::string csv_cell(const std::string& value);
/// True when the whole text is a plain decimal number (optional sign, digits, point, exponent) or
/// inf/infinity/nan with an optional sign: such cells are never neutralised.
bool is_plain_number(const std::string& value);
/// Writes one row followed by CRLF.
void write_csv_row(std::ostream& out, const std::vector<std::string>& cells);
/// Formats a double so it reads back exactly (%.17g), "nan", "inf", "-inf" as such. Independent of
/// the C locale (a Qt application may have set LC_NUMERIC to one with a decimal comma).
std::string format_number(double value);

/// Curves in long format. Header:
/// run_id,label,step,epoch,samples,rank,loss,lr,time_s
/// Global rows have rank -1. run_ids empty = every run. include_ranks: also the per-rank rows.
/// Rows are ordered by run id, step, rank; a NaN loss is written "nan". The export reads one
/// consistent snapshot. An unknown run id throws StorageError, as does a failed stream.
void write_curves_csv(const Database& db, const std::vector<int64_t>& run_ids, std::ostream& out,
                      bool include_ranks = true);

/// Columns a caller adds to the runs table (the parity verdict, for instance), after the finals.
struct RunsCsvExtra {
  std::vector<std::string> columns;                    ///< header names, in order
  std::map<int64_t, std::vector<std::string>> values;  ///< run id -> one cell per column
};

/// The runs table, one row per run in id order. Header:
/// run_id,label,status,created_at,finished_at,error,notes,total_steps,steps_done,samples_per_s,
/// final_loss,final_eval_loss,final_accuracy, then the extra columns, then one "config.KEY" column
/// per top-level key of config_json, the union over the runs, sorted by key (so the same key is
/// always in the same place whatever runs are exported). Times are ISO 8601 UTC ("" = not yet);
/// config strings are written bare, other values as compact JSON; a missing key or a missing
/// final is an empty cell. run_ids empty = every run; an unknown id throws StorageError.
void write_runs_csv(const Database& db, const std::vector<int64_t>& run_ids, std::ostream& out);
void write_runs_csv(const Database& db, const std::vector<int64_t>& run_ids, std::ostream& out,
                    const RunsCsvExtra& extra);
/// The same table of rows already read (a report's), in the order given.
void write_runs_csv(const std::vector<RunRow>& runs, std::ostream& out, const RunsCsvExtra& extra);

}  // namespace parity::storage
