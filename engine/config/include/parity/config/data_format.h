#pragma once
/// A dataset format as one entry: its name, what --data names, the task and models it allows, how
/// its samples are counted, and what the Experiment form shows for it. The config's checks, the
/// sample counts, the memory estimate, the CLI's flags and the window all read these entries;
/// adding a format is one entry in data_format.cpp plus its loader (train's datasets.cpp) and
/// their tests. Torch-free.

#include <parity/config/run_config.h>

#include <optional>
#include <string>
#include <vector>

namespace parity::config {

/// Where Debian's dataset-fashion-mnist package puts the files (the default data_path).
inline constexpr const char* kFashionMnistDir = "/usr/share/datasets/fashion-mnist";

/// What a format's data_path names.
enum class DataLocation {
  kNone,           ///< the data is generated: no path
  kDefaultFolder,  ///< a folder, with a default when empty
  kFolder,         ///< a folder that must be given
  kFile,           ///< a file that must be given
};

/// How a format's samples are counted without loading them (data_sizes.h).
enum class SampleCount {
  kIdxLabels,  ///< the item count in the IDX label files' headers
  kLines,      ///< one sample per line (after a header row when the format has one)
  kGenerated,  ///< as many as synthetic_samples says
};

struct DataFormat {
  DatasetKind kind;
  const char* name;   ///< --dataset and JSON
  const char* title;  ///< a person's name for it (the file dialog's title)
  DataLocation location;
  /// What data_path should name, as the form's placeholder says it.
  std::string path_hint;
  /// What a missing data_path lacks, as check() says it ("a file").
  const char* needs;
  /// The file dialog's filter for kFile formats ("CSV files (*.csv)"); empty for folders.
  const char* file_types;
  std::optional<Task> task;  ///< the one task it trains; nullopt: the user chooses (its columns)
  bool images;               ///< 28x28 grey images: the cnn trains on it
  bool tokens;               ///< token ids: bigram or torchscript, cross-entropy over labels
  bool test_file;            ///< --test-data may name a test file of the same format
  bool columns;              ///< a header row whose columns --target and --features name
  SampleCount count;
  /// The features of one sample when the format fixes them (0: its columns say, or unknown).
  int input_width;
};

/// Every format, in the order the window lists them.
const std::vector<DataFormat>& data_formats();

/// The entry of `kind` (every DatasetKind has one).
const DataFormat& data_format(DatasetKind kind);

/// The names of the formats for which `has` holds, joined with " or " ("fashion-mnist or idx").
std::string data_format_names(bool DataFormat::*has);

}  // namespace parity::config
