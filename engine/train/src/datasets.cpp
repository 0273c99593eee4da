#include "datasets.h"

#include <zlib.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace parity::engine {
namespace {

// Fashion-MNIST's pixel mean and standard deviation over the training set.
constexpr float kFashionMean = 0.2860f;
constexpr float kFashionStd = 0.3530f;

// The synthetic regression y = a*x + b + noise; its data does not depend on the run's seed so
// every setup of an experiment trains on the same samples.
constexpr double kSyntheticA = 2.0;
constexpr double kSyntheticB = 0.5;
constexpr uint64_t kSyntheticDataSeed = 1234;

struct GzFile {
  gzFile f = nullptr;
  ~GzFile() {
    if (f) gzclose(f);
  }
};

void read_exact(gzFile f, void* out, size_t n, const std::string& path) {
  auto* p = static_cast<char*>(out);
  while (n > 0) {
    int got = gzread(f, p, static_cast<unsigned>(std::min<size_t>(n, 1u << 30)));
    if (got <= 0) throw DatasetError(path + ": truncated IDX file (expected more data)");
    p += got;
    n -= static_cast<size_t>(got);
  }
}

std::string first_existing(const std::string& dir, const std::string& stem) {
  for (const char* ext : {".gz", ""}) {
    std::string p = dir + "/" + stem + ext;
    if (std::ifstream(p).good()) return p;
  }
  throw DatasetError("Fashion-MNIST file " + dir + "/" + stem +
                     "(.gz) not found; install dataset-fashion-mnist (scripts/install-deps.sh) "
                     "or pass --data FOLDER");
}

TensorDataset fashion_split(const std::string& dir, const std::string& prefix) {
  auto images = read_idx(first_existing(dir, prefix + "-images-idx3-ubyte"));
  auto labels = read_idx(first_existing(dir, prefix + "-labels-idx1-ubyte"));
  if (images.dim() != 3 || labels.dim() != 1 || images.size(0) != labels.size(0)) {
    throw DatasetError(dir + ": " + prefix + " images and labels do not match");
  }
  TensorDataset d;
  d.inputs = images.to(torch::kFloat32).div_(255.0f).sub_(kFashionMean).div_(kFashionStd);
  d.inputs = d.inputs.unsqueeze(1).contiguous();  // [N, 1, 28, 28]
  d.targets = labels.to(torch::kInt64).contiguous();
  return d;
}

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cell += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.push_back(cell);
      cell.clear();
    } else if (c != '\r') {
      cell += c;
    }
  }
  cells.push_back(cell);
  return cells;
}

DataSplit load_csv(const RunConfig& config) {
  std::ifstream in(config.data_path);
  if (!in) throw DatasetError("cannot open CSV " + config.data_path);
  std::string line;
  if (!std::getline(in, line)) throw DatasetError(config.data_path + ": empty CSV (no header)");
  auto header = split_csv_line(line);
  std::unordered_map<std::string, size_t> column;
  for (size_t i = 0; i < header.size(); ++i) column[header[i]] = i;
  auto index_of = [&](const std::string& name) {
    auto it = column.find(name);
    if (it == column.end()) {
      throw DatasetError(config.data_path + ": no column '" + name + "' in the header");
    }
    return it->second;
  };
  size_t target = index_of(config.target);
  std::vector<size_t> features;
  if (config.features.empty()) {
    for (size_t i = 0; i < header.size(); ++i)
      if (i != target) features.push_back(i);
  } else {
    for (const auto& f : config.features) features.push_back(index_of(f));
  }
  std::vector<float> x;
  std::vector<double> y;
  int64_t row = 1;
  while (std::getline(in, line)) {
    ++row;
    if (line.empty() || line == "\r") continue;
    auto cells = split_csv_line(line);
    if (cells.size() != header.size()) {
      throw DatasetError(config.data_path + ":" + std::to_string(row) + ": " +
                         std::to_string(cells.size()) + " cells, header has " +
                         std::to_string(header.size()));
    }
    auto number = [&](size_t col) {
      char* end = nullptr;
      double v = std::strtod(cells[col].c_str(), &end);
      if (cells[col].empty() || *end != '\0') {
        throw DatasetError(config.data_path + ":" + std::to_string(row) + ": column '" +
                           header[col] + "' is not a number: '" + cells[col] + "'");
      }
      return v;
    };
    for (size_t f : features) x.push_back(static_cast<float>(number(f)));
    y.push_back(number(target));
  }
  const auto n = static_cast<int64_t>(y.size());
  if (n < 2) throw DatasetError(config.data_path + ": needs at least 2 data rows");
  auto inputs =
      torch::from_blob(x.data(), {n, static_cast<int64_t>(features.size())}, torch::kFloat32)
          .clone();
  torch::Tensor targets;
  int64_t outputs = 1;
  if (config.task == Task::kClassification) {
    std::vector<int64_t> labels;
    for (double v : y) {
      if (v < 0 || v != std::floor(v)) {
        throw DatasetError(config.data_path + ": classification target '" + config.target +
                           "' must hold class indices 0, 1, 2, ...; found " + std::to_string(v));
      }
      labels.push_back(static_cast<int64_t>(v));
      outputs = std::max<int64_t>(outputs, labels.back() + 1);
    }
    targets = torch::tensor(labels, torch::kInt64);
  } else {
    targets = torch::tensor(y, torch::kFloat64).to(torch::kFloat32).unsqueeze(1);
  }
  // The last fifth (at least one row) is the test split, in file order.
  int64_t n_test = std::max<int64_t>(1, n / 5);
  int64_t n_train = n - n_test;
  DataSplit split;
  split.train = {inputs.slice(0, 0, n_train).contiguous(),
                 targets.slice(0, 0, n_train).contiguous()};
  split.test = {inputs.slice(0, n_train).contiguous(), targets.slice(0, n_train).contiguous()};
  split.num_outputs = outputs;
  return split;
}

DataSplit synthetic_regression(const RunConfig& config) {
  auto gen = at::detail::createCPUGenerator(kSyntheticDataSeed);
  const int64_t n_train = config.synthetic_samples;
  const int64_t n_test = std::max<int64_t>(1, n_train / 4);
  const int64_t n = n_train + n_test;
  auto x = torch::rand({n, 1}, gen, torch::kFloat32).mul_(2).sub_(1);
  auto noise = torch::randn({n, 1}, gen, torch::kFloat32).mul_(config.synthetic_noise);
  auto y = x * kSyntheticA + kSyntheticB + noise;
  DataSplit split;
  split.train = {x.slice(0, 0, n_train).contiguous(), y.slice(0, 0, n_train).contiguous()};
  split.test = {x.slice(0, n_train).contiguous(), y.slice(0, n_train).contiguous()};
  split.num_outputs = 1;
  return split;
}

}  // namespace

torch::Tensor read_idx(const std::string& path) {
  GzFile g;
  g.f = gzopen(path.c_str(), "rb");  // reads plain files too
  if (!g.f) throw DatasetError("cannot open " + path);
  unsigned char magic[4];
  read_exact(g.f, magic, 4, path);
  if (magic[0] != 0 || magic[1] != 0 || magic[2] != 0x08) {
    throw DatasetError(path + ": not an IDX file of unsigned bytes (bad magic number)");
  }
  const int dims = magic[3];
  if (dims < 1 || dims > 4)
    throw DatasetError(path + ": IDX with " + std::to_string(dims) + " dims");
  std::vector<int64_t> shape;
  int64_t count = 1;
  for (int i = 0; i < dims; ++i) {
    unsigned char b[4];
    read_exact(g.f, b, 4, path);
    int64_t d = (int64_t{b[0]} << 24) | (int64_t{b[1]} << 16) | (int64_t{b[2]} << 8) | b[3];
    shape.push_back(d);
    count *= d;
  }
  auto out = torch::empty(shape, torch::kUInt8);
  read_exact(g.f, out.data_ptr<uint8_t>(), static_cast<size_t>(count), path);
  return out;
}

DataSplit load_dataset(const RunConfig& config) {
  DataSplit split;
  switch (config.dataset) {
    case DatasetKind::kFashionMnist: {
      const std::string dir = config.data_path.empty() ? kFashionMnistDir : config.data_path;
      split.train = fashion_split(dir, "train");
      split.test = fashion_split(dir, "t10k");
      split.num_outputs = 10;
      break;
    }
    case DatasetKind::kCsv:
      split = load_csv(config);
      break;
    case DatasetKind::kSyntheticRegression:
      split = synthetic_regression(config);
      break;
  }
  if (config.train_samples > 0 && config.train_samples < split.train.size()) {
    split.train.inputs = split.train.inputs.slice(0, 0, config.train_samples).contiguous();
    split.train.targets = split.train.targets.slice(0, 0, config.train_samples).contiguous();
  }
  return split;
}

std::pair<torch::Tensor, torch::Tensor> gather_batch(const TensorDataset& dataset,
                                                     const std::vector<int64_t>& indices) {
  auto idx = torch::from_blob(const_cast<int64_t*>(indices.data()),
                              {static_cast<int64_t>(indices.size())}, torch::kInt64);
  // index_select on CUDA wants its indices on the same device (a no-op copy on the CPU).
  idx = idx.to(dataset.inputs.device());
  return {dataset.inputs.index_select(0, idx), dataset.targets.index_select(0, idx)};
}

}  // namespace parity::engine
