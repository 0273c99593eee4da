#pragma once
/// Runs logged as tables: a CSV or a JSONL file with a step column and one column per series.
/// - TensorBoard's own CSV download of one series (`Wall time,Step,Value`; the file name
///   TensorBoard gives it, `run-<run>-tag-<tag>.csv`, names the series, else it is the loss).
/// - W&B's panel export (`Step,<run> - <metric>,<run> - <metric>__MIN,...__MAX`): one run per
///   `<run>` name; the __MIN/__MAX companions (W&B's sampling band) are left out.
/// - A plain table: a `step` column (any case) and series columns (`loss`, `lr`, `epoch`,
///   `eval_loss`, ... as the other formats name them).
/// - JSONL: one object a line with `step` and numbers (Python's bare NaN read).
/// Empty cells are missing values; a cell that is not a number is skipped and counted in a note.

#include <parity/ingest/imported_run.h>
#include <parity/ingest/run_reader.h>

#include <string>
#include <string_view>
#include <vector>

namespace parity::ingest {

/// The runs one table's text holds (W&B's export may hold several), each named `name` or, for
/// W&B, by its run name. `file` names the source in notes. Empty when the text is no table of
/// steps (no step column). Throws IngestError for a file that is not UTF-8 text.
std::vector<ImportedRun> read_table_log(std::string_view text, const std::string& file,
                                        const ImportOptions& options = {});

/// The table logs under `path` (a .csv/.jsonl file, or the ones in a folder tree), each file
/// read again on poll() when it changed.
class TableLogRun : public RunReader {
 public:
  TableLogRun(std::string name, std::string file, std::string run_in_file);
  std::string name() const override { return name_; }
  bool poll() override;
  ImportedRun run(const ImportOptions& options = {}) const override;

 private:
  std::string name_, file_, run_in_file_;
  std::string text_;
  long long stamp_ = -1, size_ = -1;
};

/// Every run in the table logs under `path` whose header has a step column.
std::vector<TableLogRun> find_table_log_runs(const std::string& path);

}  // namespace parity::ingest
