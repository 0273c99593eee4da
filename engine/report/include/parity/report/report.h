#pragma once
/// The report: one comparison (a reference and its runs), gathered once from the store, that
/// every rendering reads: the terminal's `compare`, the CSV report (`export --report`), the
/// HTML and the PDF (`parity-cli report`, the window's File > Export report...). A writer only
/// formats what is here; nothing in a writer reads the database or judges anything.
/// Qt-free, torch-free. Thread contract: build_report() is that of storage::Database (one thread
/// at a time per Database); a built Report is a plain value.

#include <parity/analysis/verdict.h>
#include <parity/config/batch_plan.h>
#include <parity/config/run_facts.h>
#include <parity/report/report_error.h>
#include <parity/storage/database.h>
#include <parity/stored_runs/proofs.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace parity::report {

struct ReportOptions {
  analysis::CompareOptions compare;  ///< the verdict's options (axis, tolerances, seed groups)
  /// Pixel columns the drawn curves are decimated to (first/min/max/last per column, as the
  /// window's chart draws them); the whole curves stay in Report::curves[i].whole.
  int pixel_width = 720;
  bool with_proofs = true;  ///< read each different run's recorded counterfactuals
  /// Refuse a reference with no steps (a report about nothing). `compare` and `export --report`
  /// keep their rows of "not comparable" instead.
  bool require_steps = true;
};

/// One run's loss on the verdict's axis: the whole curve and the one drawn.
struct RunCurve {
  int64_t id = 0;
  std::string label;
  analysis::Series whole;  ///< every stored point, x on Report::comparison.axis
  analysis::Series drawn;  ///< decimated to ReportOptions::pixel_width columns
};

/// One fact of a run as `show` prints it: what, the value, and where it came from.
struct FactLine {
  std::string key;    ///< the JSON key ("per_device_batch_size")
  std::string words;  ///< "per-device batch"
  std::string value;  ///< "" when unknown
  config::Provenance provenance = config::Provenance::kUnknown;
  std::string source;  ///< the file and field (known), how (derived); "" when unknown
};

/// A run's facts and where the run came from.
struct RunFactsView {
  int64_t id = 0;
  std::string label;
  std::string origin;          ///< "engine", "command", "imported"
  std::string source_path;     ///< the file or folder an imported run was read from
  std::string parity_version;  ///< the Parity that recorded it ("" = before schema 8)
  std::vector<FactLine> facts;
  std::string facts_error;  ///< stored facts that do not load, said instead of failing
};

/// The seed's equivalent-batch table for the compared setups: the per-device batch that keeps
/// each reference batch's global batch on each shape.
struct EquivalentBatches {
  std::vector<config::EquivalentShape> shapes;
  std::vector<config::EquivalentRow> rows;
  int64_t reference_batch = 0;  ///< the reference run's global batch (0 = unknown)
};

/// A seed group's band as drawn: the mean and min-max envelope on the verdict's axis.
struct DrawnBand {
  std::vector<int64_t> run_ids;
  analysis::Band band;  ///< decimated to about ReportOptions::pixel_width points
};

/// Where and with what the report was made.
struct Environment {
  std::string parity_version;  ///< the Parity writing the report
  std::string torch_version;   ///< the LibTorch this Parity was built with ("" = none)
  std::string host;
  std::string system;  ///< "Linux 6.1.0 x86_64"
  unsigned cpu_cores = 0;
  std::string made_at;  ///< ISO 8601 UTC
  std::string database;
  /// Per run: "2 processes x 4 threads" as each run recorded it (its config or facts).
  std::vector<std::pair<int64_t, std::string>> processes_and_threads;
};

struct Report {
  std::string question;             ///< "Why do 2x32, 2x64 ... differ from 1x64?"
  std::vector<std::string> answer;  ///< one line per compared run: its verdict's summary
  analysis::Comparison comparison;  ///< rows[0] = the reference
  analysis::CompareOptions options;
  std::vector<storage::RunRow> runs;  ///< the compared runs' rows, in id order
  std::map<int64_t, std::vector<stored_runs::StoredProof>> proofs;  ///< by run id
  std::vector<RunCurve> curves;                                     ///< in comparison.rows' order
  std::vector<analysis::Series> deltas;  ///< run - reference, drawn; [0] (the reference) empty
  std::vector<DrawnBand> bands;          ///< one per seed group
  std::vector<RunFactsView> facts;       ///< in comparison.rows' order
  EquivalentBatches equivalent;
  Environment environment;

  const analysis::RunComparison& reference() const { return comparison.rows.front(); }
};

/// The report of `others` (empty = every other run with steps) against `reference` in `db`.
/// Throws ReportError, naming the run, for an unknown run ("no run 9 in PATH") or a reference
/// with no steps (unless !options.require_steps);
/// StoredRunError and StorageError pass through.
Report build_report(const storage::Database& db, int64_t reference,
                    const std::vector<int64_t>& others, const ReportOptions& options = {});

/// The compared runs' ids in build_report()'s sense: `others`, or every other run with steps.
std::vector<int64_t> compared_ids(const storage::Database& db, int64_t reference,
                                  const std::vector<int64_t>& others);

/// "%.*g" of value; "nan", "inf", "-inf" as such (independent of the C locale's decimal point).
std::string format_g(double value, int precision = 6);

}  // namespace parity::report
