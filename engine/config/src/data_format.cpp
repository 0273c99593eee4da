#include <parity/config/data_format.h>

#include <stdexcept>

namespace parity::config {

const std::vector<DataFormat>& data_formats() {
  // kind, name, title, location, path_hint, needs, file_types, task, images, tokens, test_file,
  // columns, count, input_width
  static const std::vector<DataFormat> formats = {
      {DatasetKind::kFashionMnist, "fashion-mnist", "Fashion-MNIST folder",
       DataLocation::kDefaultFolder, "default: " + std::string(kFashionMnistDir), "", "",
       Task::kClassification, true, false, false, false, SampleCount::kIdxLabels, 28 * 28},
      {DatasetKind::kIdx, "idx", "IDX folder", DataLocation::kFolder,
       "folder with train-images-idx3-ubyte and the others",
       "a folder holding train-images-idx3-ubyte and the others", "", Task::kClassification, true,
       false, false, false, SampleCount::kIdxLabels, 0},
      {DatasetKind::kCsv, "csv", "CSV dataset", DataLocation::kFile, "path to a .csv file",
       "a file", "CSV files (*.csv)", std::nullopt, false, false, true, true, SampleCount::kLines,
       0},
      {DatasetKind::kJsonl, "jsonl", "JSON Lines dataset", DataLocation::kFile,
       "path to a .jsonl file of token ids", "a file", "JSON Lines (*.jsonl *.json)",
       Task::kClassification, false, true, true, false, SampleCount::kLines, 0},
      {DatasetKind::kSyntheticRegression, "synthetic-regression", "", DataLocation::kNone, "", "",
       "", Task::kRegression, false, false, false, false, SampleCount::kGenerated, 1},
  };
  return formats;
}

const DataFormat& data_format(DatasetKind kind) {
  for (const DataFormat& f : data_formats())
    if (f.kind == kind) return f;
  throw std::logic_error("data_format: a dataset kind without an entry");
}

std::string data_format_names(bool DataFormat::*has) {
  std::string names;
  for (const DataFormat& f : data_formats()) {
    if (!(f.*has)) continue;
    names += (names.empty() ? "" : " or ") + std::string(f.name);
  }
  return names;
}

}  // namespace parity::config
