#include <parity/config/data_sizes.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <fstream>

namespace parity::config {
namespace {

constexpr int64_t kFashionTrain = 60000;
constexpr int64_t kFashionTest = 10000;

// The synthetic set's test share, as the loader makes it.
int64_t synthetic_test_size(int64_t train) { return std::max<int64_t>(1, train / 4); }

std::string percent(double fraction) {
  const double p = fraction * 100;
  const double rounded = std::round(p * 10) / 10;
  std::string s = std::to_string(rounded);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s + " %";
}

// Non-empty lines of a text file (a csv's data rows after its header, a jsonl's records).
int64_t count_lines(const std::string& path, bool header) {
  std::ifstream in(path);
  if (!in) throw DatasetError("cannot open " + path);
  std::string line;
  int64_t n = 0;
  bool first = header;
  while (std::getline(in, line)) {
    if (first) {
      first = false;
      continue;
    }
    if (!line.empty() && line != "\r") ++n;
  }
  return n;
}

// The first dimension of an IDX file (gzip-compressed or not), from its header alone.
int64_t idx_count(const std::string& dir, const std::string& stem) {
  for (const char* ext : {".gz", ""}) {
    const std::string path = dir + "/" + stem + ext;
    if (!std::ifstream(path).good()) continue;
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) throw DatasetError("cannot open " + path);
    unsigned char b[8];
    const int got = gzread(f, b, sizeof b);
    gzclose(f);
    if (got != 8 || b[0] != 0 || b[1] != 0 || b[2] != 0x08) {
      throw DatasetError(path + ": not an IDX file of unsigned bytes (bad magic number)");
    }
    return (int64_t{b[4]} << 24) | (int64_t{b[5]} << 16) | (int64_t{b[6]} << 8) | b[7];
  }
  throw DatasetError("IDX file " + dir + "/" + stem + "(.gz) not found in " + dir);
}

std::string file_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Splits `whole` samples of the training data by validation_split and cuts by train_samples.
DataSizes finish(const RunConfig& c, int64_t whole, int64_t test, std::string source) {
  DataSizes s;
  s.train = whole;
  s.test = test;
  s.source = std::move(source);
  if (c.validation_split > 0) {
    s.test = validation_rows(whole, c.validation_split);
    s.train = whole - s.test;
    s.source = "the last " + percent(c.validation_split) + " of " +
               (c.data_path.empty() ? std::string("the training data") : file_name(c.data_path));
  }
  if (c.train_samples > 0 && c.train_samples > s.train) s.asked = c.train_samples;
  if (c.train_samples > 0) s.train = std::min(s.train, c.train_samples);
  return s;
}

}  // namespace

// One csv line's cells: commas outside double quotes separate, "" inside quotes is a quote.
std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      cells.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else if (c != '\r') {
      cells.back() += c;
    }
  }
  return cells;
}

std::vector<std::string> csv_columns(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw DatasetError("cannot open " + path);
  std::string line;
  if (!std::getline(in, line)) throw DatasetError(path + ": empty CSV (no header)");
  return split_csv_line(line);
}

void require_unique_columns(const std::vector<std::string>& columns, const std::string& path) {
  for (size_t i = 0; i < columns.size(); ++i) {
    for (size_t j = i + 1; j < columns.size(); ++j) {
      if (columns[i] != columns[j]) continue;
      throw DatasetError(file_name(path) + ": the header names column '" + columns[i] +
                         "' twice (columns " + std::to_string(i + 1) + " and " +
                         std::to_string(j + 1) + ")");
    }
  }
}

void check_csv_columns(const RunConfig& c, const std::string& path) {
  const std::vector<std::string> columns = csv_columns(path);
  require_unique_columns(columns, path);
  std::vector<std::string> wanted = c.features;
  wanted.insert(wanted.begin(), c.target);
  for (const auto& name : wanted) {
    // An empty target is the config check's to name (it is required), not a column.
    if (name.empty() || std::find(columns.begin(), columns.end(), name) != columns.end()) continue;
    std::string list;
    for (const auto& col : columns) list += (list.empty() ? "" : ", ") + col;
    throw DatasetError(file_name(path) + ": no column '" + name +
                       "' in the header (columns: " + list + ")");
  }
}

int64_t validation_rows(int64_t rows, double fraction) {
  if (fraction <= 0 || rows < 2) return 0;
  const auto held = static_cast<int64_t>(std::ceil(static_cast<double>(rows) * fraction));
  return std::clamp<int64_t>(held, 1, rows - 1);
}

std::optional<DataSizes> known_data_sizes(const RunConfig& c) {
  switch (c.dataset) {
    case DatasetKind::kFashionMnist:
      if (!c.data_path.empty() && c.data_path != kFashionMnistDir) return std::nullopt;
      return finish(c, kFashionTrain, kFashionTest, "the t10k files");
    case DatasetKind::kSyntheticRegression:
      return finish(c, c.synthetic_samples, synthetic_test_size(c.synthetic_samples),
                    "its own test samples");
    default:
      return std::nullopt;
  }
}

DataSizes read_data_sizes(const RunConfig& c) {
  if (auto known = known_data_sizes(c)) return *known;
  const DataFormat& format = data_format(c.dataset);
  switch (format.count) {
    case SampleCount::kIdxLabels:
      return finish(c, idx_count(c.data_path, "train-labels-idx1-ubyte"),
                    idx_count(c.data_path, "t10k-labels-idx1-ubyte"), "the t10k files");
    case SampleCount::kLines: {
      const bool header = format.columns;
      if (header) {
        check_csv_columns(c, c.data_path);
        if (!c.test_data.empty()) check_csv_columns(c, c.test_data);
      }
      const int64_t whole = count_lines(c.data_path, header);
      if (!c.test_data.empty()) {
        return finish(c, whole, count_lines(c.test_data, header), file_name(c.test_data));
      }
      return finish(c, whole, 0, "no test data");
    }
    case SampleCount::kGenerated:
      break;
  }
  return finish(c, 0, 0, "no test data");
}

std::string describe_data_sizes(const DataSizes& s) {
  std::string text = std::to_string(s.train) + " train, ";
  if (s.asked > 0)
    text = std::to_string(s.train) + " train (all there are, fewer than the " +
           std::to_string(s.asked) + " asked), ";
  if (s.test == 0) return text + "none evaluate (no test data: no evaluation)";
  return text + std::to_string(s.test) + " evaluate (" + s.source + ")";
}

}  // namespace parity::config
