#pragma once
/// How many samples a config's data holds for training and for evaluation, and where the
/// evaluation samples come from: read from the files' headers and lines without decoding them, so
/// `plan` and the window know a csv's size. Torch-free; the trainer's loader splits the same way.

#include <parity/config/data_format.h>
#include <parity/config/dataset_error.h>
#include <parity/config/run_config.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace parity::config {

struct DataSizes {
  int64_t train = 0;   ///< samples (rows, sequences) that train, after the split and train_samples
  int64_t test = 0;    ///< samples that evaluate (0: no evaluation)
  std::string source;  ///< where the evaluation samples come from, in words ("no test data" ...)
  /// train_samples when it asks for more than the data has (all train then); 0 otherwise.
  int64_t asked = 0;
};

/// Rows held out by a validation split of `fraction` over `rows`: ceil(rows x fraction), as
/// scikit-learn's and Hugging Face datasets' train_test_split round, and at most rows - 1.
int64_t validation_rows(int64_t rows, double fraction);

/// The sizes without reading any file, where they are known (fashion-mnist: 60000/10000,
/// synthetic-regression: from its settings); nullopt for file data.
std::optional<DataSizes> known_data_sizes(const RunConfig& config);

/// The sizes, reading the files where needed: a csv's or jsonl's non-empty lines, an IDX file's
/// header. Throws DatasetError naming the file when one cannot be read, or when a csv's header
/// lacks the target or a feature column (check_csv_columns), as the trainer would at its start.
DataSizes read_data_sizes(const RunConfig& config);

/// One csv line's cells: commas outside double quotes separate, "" inside quotes is a quote, a
/// trailing \r is dropped (the one splitter of the trainer, plan and the table-log reader).
std::vector<std::string> split_csv_line(const std::string& line);

/// The column names of a csv's header (its first line; quoted cells as the trainer reads them).
std::vector<std::string> csv_columns(const std::string& path);

/// Throws DatasetError when the csv at `path` has no column named config.target or one of
/// config.features: "d.csv: no column 'lable' in the header (columns: x, label)", or two
/// columns of one name (which of them a name means would be a guess).
void check_csv_columns(const RunConfig& config, const std::string& path);

/// Throws DatasetError when two of a csv's header cells share a name: "d.csv: the header names
/// column 'x' twice (columns 1 and 3)".
void require_unique_columns(const std::vector<std::string>& columns, const std::string& path);

/// "48 rows train, 16 evaluate (the last 25 % of data.csv)" — for plan and run.
std::string describe_data_sizes(const DataSizes& sizes);

}  // namespace parity::config
