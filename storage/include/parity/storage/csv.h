#pragma once
/// CSV export (RFC 4180: quotes around cells with , " CR LF, quotes doubled, CRLF line ends).
/// A cell starting with = + - @ (or tab/CR) is neutralised with a leading ' so spreadsheets do not
/// run it as a formula — except plain numbers such as -0.5, which stay numbers.

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <parity/storage/database.h>

namespace parity::storage {

std::string csv_cell(const std::string& value);
/// Writes one row followed by CRLF.
void write_csv_row(std::ostream& out, const std::vector<std::string>& cells);
/// Formats a double so it reads back exactly (%.17g), "nan"/"inf" as such.
std::string format_number(double value);

/// Curves in long format. Header:
/// run_id,label,step,epoch,samples,rank,loss,lr,time_s
/// Global rows have rank -1. run_ids empty = every run. include_ranks: also the per-rank rows.
void write_curves_csv(const Database& db, const std::vector<int64_t>& run_ids, std::ostream& out,
                      bool include_ranks = true);

/// The runs table: id, label, status, created/finished, error, notes, steps, samples/s, finals,
/// then one column per config key (flattened from config_json), union over the runs.
void write_runs_csv(const Database& db, const std::vector<int64_t>& run_ids, std::ostream& out);

}  // namespace parity::storage
