#include <parity/launch/startup_trace.h>
#include <parity/train/datasets.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unordered_map>

namespace parity::train {
namespace {

// Fashion-MNIST's pixel mean and standard deviation over the training set.
constexpr float kFashionMean = 0.2860f;
constexpr float kFashionStd = 0.3530f;

// The synthetic regression y = a*x + b + noise; its data does not depend on the run's seed so
// every setup of an experiment trains on the same samples.
constexpr double kSyntheticA = 2.0;
constexpr double kSyntheticB = 0.5;
constexpr uint64_t kSyntheticDataSeed = 1234;

std::string first_existing(const std::string& dir, const std::string& stem, bool fashion) {
  for (const char* ext : {".gz", ""}) {
    std::string p = dir + "/" + stem + ext;
    if (std::ifstream(p).good()) return p;
  }
  if (fashion) {
    throw config::DatasetError(
        "Fashion-MNIST file " + dir + "/" + stem +
        "(.gz) not found; install dataset-fashion-mnist (scripts/install-deps.sh) "
        "or pass --data FOLDER");
  }
  throw config::DatasetError(
      "IDX file " + dir + "/" + stem +
      "(.gz) not found; --data must be a folder in MNIST's layout "
      "(train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-... ; .gz or not)");
}

// An IDX split's images as [N, 1, H, W] uint8 pixels (converted per batch) and its labels.
TensorDataset idx_split(const std::string& dir, const std::string& prefix, bool fashion,
                        const IdxCacheOptions& cache) {
  auto images = read_idx_cached(first_existing(dir, prefix + "-images-idx3-ubyte", fashion), cache);
  auto labels = read_idx_cached(first_existing(dir, prefix + "-labels-idx1-ubyte", fashion), cache);
  launch::startup_mark(prefix == "train" ? "decoded_train" : "decoded_test");
  if (images.dim() != 3 || labels.dim() != 1 || images.size(0) != labels.size(0)) {
    throw config::DatasetError(dir + ": " + prefix + " images and labels do not match");
  }
  TensorDataset d;
  d.inputs = images.unsqueeze(1);  // a view: the mapping is read-only
  d.targets = labels.to(torch::kInt64).contiguous();
  d.pixels = PixelNormalization{};
  launch::startup_mark(prefix == "train" ? "converted_train" : "converted_test");
  return d;
}

// Fashion-MNIST as torchvision's tutorials normalise it; any other IDX set by its training
// images' own mean and standard deviation (over the whole set in float32, as before batches were
// converted one at a time, so the statistics stay the same bits).
DataSplit load_idx(const config::RunConfig& config, const IdxCacheOptions& cache) {
  const bool fashion = config.dataset == config::DatasetKind::kFashionMnist;
  const std::string dir = config.data_path.empty() ? config::kFashionMnistDir : config.data_path;
  DataSplit split;
  split.train = idx_split(dir, "train", fashion, cache);
  split.test = idx_split(dir, "t10k", fashion, cache);
  PixelNormalization n{kFashionMean, kFashionStd};
  if (!fashion) {
    const torch::Tensor scaled = split.train.inputs.to(torch::kFloat32).div_(255.0f);
    n = {scaled.mean().item<float>(), scaled.std().item<float>()};
  }
  for (TensorDataset* d : {&split.train, &split.test}) d->pixels = n;
  split.num_outputs = std::max(split.train.targets.max().item<int64_t>(),
                               split.test.targets.max().item<int64_t>()) +
                      1;
  if (fashion) split.num_outputs = 10;
  return split;
}

// One csv file's features and targets, columns found by name in its own header.
struct CsvTable {
  torch::Tensor inputs;
  std::vector<double> y;
};

CsvTable read_csv(const std::string& path, const config::RunConfig& config) {
  std::ifstream in(path);
  if (!in) throw config::DatasetError("cannot open CSV " + path);
  std::string line;
  if (!std::getline(in, line)) throw config::DatasetError(path + ": empty CSV (no header)");
  auto header = config::split_csv_line(line);
  config::require_unique_columns(header, path);
  std::unordered_map<std::string, size_t> column;
  for (size_t i = 0; i < header.size(); ++i) column[header[i]] = i;
  auto index_of = [&](const std::string& name) {
    auto it = column.find(name);
    if (it == column.end())
      throw config::DatasetError(path + ": no column '" + name + "' in the header");
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
  CsvTable table;
  int64_t row = 1;
  while (std::getline(in, line)) {
    ++row;
    if (line.empty() || line == "\r") continue;
    auto cells = config::split_csv_line(line);
    if (cells.size() != header.size()) {
      throw config::DatasetError(path + ":" + std::to_string(row) + ": " +
                                 std::to_string(cells.size()) + " cells, header has " +
                                 std::to_string(header.size()));
    }
    auto number = [&](size_t col) {
      char* end = nullptr;
      double v = std::strtod(cells[col].c_str(), &end);
      if (cells[col].empty() || *end != '\0') {
        throw config::DatasetError(path + ":" + std::to_string(row) + ": column '" + header[col] +
                                   "' is not a number: '" + cells[col] + "'");
      }
      // nan and inf parse as numbers; as data they would only surface later as a diverged
      // loss blamed on the lr. A value past float32's range is read as inf too.
      if (!std::isfinite(static_cast<float>(v))) {
        throw config::DatasetError(path + ":" + std::to_string(row) + ": column '" + header[col] +
                                   "' holds '" + cells[col] + "', not a finite float32 number");
      }
      return v;
    };
    for (size_t f : features) x.push_back(static_cast<float>(number(f)));
    table.y.push_back(number(target));
  }
  const auto n = static_cast<int64_t>(table.y.size());
  table.inputs =
      torch::from_blob(x.data(), {n, static_cast<int64_t>(features.size())}, torch::kFloat32)
          .clone();
  return table;
}

TensorDataset csv_dataset(const CsvTable& t, const config::RunConfig& config,
                          const std::string& path, int64_t& outputs) {
  TensorDataset d;
  d.inputs = t.inputs;
  if (config.task == config::Task::kClassification) {
    std::vector<int64_t> labels;
    for (double v : t.y) {
      if (v < 0 || v != std::floor(v)) {
        throw config::DatasetError(path + ": classification target '" + config.target +
                                   "' must hold class indices 0, 1, 2, ...; found " +
                                   std::to_string(v));
      }
      labels.push_back(static_cast<int64_t>(v));
      outputs = std::max<int64_t>(outputs, labels.back() + 1);
    }
    d.targets = torch::tensor(labels, torch::kInt64);
  } else {
    d.targets = torch::tensor(t.y, torch::kFloat64).to(torch::kFloat32).unsqueeze(1);
  }
  return d;
}

// Every row trains; the test rows come from --test-data (or a validation split, later).
DataSplit load_csv(const config::RunConfig& config) {
  DataSplit split;
  split.num_outputs = 1;
  const CsvTable train = read_csv(config.data_path, config);
  if (train.y.size() < 2)
    throw config::DatasetError(config.data_path + ": needs at least 2 data rows");
  split.train = csv_dataset(train, config, config.data_path, split.num_outputs);
  if (!config.test_data.empty()) {
    const CsvTable test = read_csv(config.test_data, config);
    if (test.y.empty())
      throw config::DatasetError(config.test_data + ": the test file has no data rows");
    split.test = csv_dataset(test, config, config.test_data, split.num_outputs);
  }
  return split;
}

// One jsonl file of tokenised sequences: {"input_ids": [...], "labels": [...]} per line.
struct TokenRows {
  std::vector<std::vector<int64_t>> ids, labels;
};

std::vector<int64_t> int_array(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.contains(key)) throw config::DatasetError(where + ": no \"" + std::string(key) + "\" key");
  const auto& a = j.at(key);
  if (!a.is_array() || a.empty()) {
    throw config::DatasetError(where + ": \"" + std::string(key) +
                               "\" must be a non-empty array of integers");
  }
  std::vector<int64_t> out;
  for (const auto& v : a) {
    if (!v.is_number_integer()) {
      throw config::DatasetError(where + ": \"" + std::string(key) + "\" holds " + v.dump() +
                                 ", not an integer");
    }
    out.push_back(v.get<int64_t>());
  }
  return out;
}

TokenRows read_jsonl(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw config::DatasetError("cannot open JSONL " + path);
  TokenRows rows;
  std::string line;
  int64_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line == "\r") continue;
    const std::string where = path + ":" + std::to_string(number);
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception& e) {  // a number past double's range too
      throw config::DatasetError(where + ": not a JSON object (" + std::string(e.what()) + ")");
    }
    if (!j.is_object()) throw config::DatasetError(where + ": not a JSON object");
    auto ids = int_array(j, "input_ids", where);
    auto labels = int_array(j, "labels", where);
    if (ids.size() != labels.size()) {
      throw config::DatasetError(where + ": " + std::to_string(labels.size()) + " labels for " +
                                 std::to_string(ids.size()) +
                                 " input_ids (they must be the same length)");
    }
    for (int64_t id : ids)
      if (id < 0)
        throw config::DatasetError(where + ": input id " + std::to_string(id) + " is negative");
    for (int64_t l : labels) {
      if (l < 0 && l != kIgnoreIndex) {
        throw config::DatasetError(where + ": label " + std::to_string(l) +
                                   " is negative (only -100, ignored, may be)");
      }
    }
    rows.ids.push_back(std::move(ids));
    rows.labels.push_back(std::move(labels));
  }
  return rows;
}

// Sequences padded to the file's longest (a batch is cut to its own longest when gathered).
TensorDataset token_dataset(const TokenRows& rows, int64_t pad_id, int64_t& vocab) {
  const auto n = static_cast<int64_t>(rows.ids.size());
  int64_t longest = 0;
  for (const auto& s : rows.ids)
    longest = std::max<int64_t>(longest, static_cast<int64_t>(s.size()));
  TensorDataset d;
  d.inputs = torch::full({n, longest}, pad_id, torch::kInt64);
  d.targets = torch::full({n, longest}, kIgnoreIndex, torch::kInt64);
  d.lengths = torch::empty({n}, torch::kInt64);
  auto in = d.inputs.accessor<int64_t, 2>();
  auto out = d.targets.accessor<int64_t, 2>();
  auto len = d.lengths.accessor<int64_t, 1>();
  vocab = std::max(vocab, pad_id + 1);
  for (int64_t i = 0; i < n; ++i) {
    const auto& ids = rows.ids[static_cast<size_t>(i)];
    const auto& labels = rows.labels[static_cast<size_t>(i)];
    len[i] = static_cast<int64_t>(ids.size());
    for (size_t t = 0; t < ids.size(); ++t) {
      in[i][static_cast<int64_t>(t)] = ids[t];
      out[i][static_cast<int64_t>(t)] = labels[t];
      vocab = std::max({vocab, ids[t] + 1, labels[t] + 1});
    }
  }
  return d;
}

DataSplit load_jsonl(const config::RunConfig& config) {
  DataSplit split;
  split.num_outputs = 1;
  const TokenRows train = read_jsonl(config.data_path);
  if (train.ids.size() < 2)
    throw config::DatasetError(config.data_path + ": needs at least 2 sequences");
  split.train = token_dataset(train, config.pad_id, split.num_outputs);
  if (!config.test_data.empty()) {
    const TokenRows test = read_jsonl(config.test_data);
    if (test.ids.empty())
      throw config::DatasetError(config.test_data + ": the test file has no sequences");
    split.test = token_dataset(test, config.pad_id, split.num_outputs);
  }
  return split;
}

TensorDataset rows(const TensorDataset& d, int64_t begin, int64_t end) {
  TensorDataset out;
  out.inputs = d.inputs.slice(0, begin, end).contiguous();
  out.targets = d.targets.slice(0, begin, end).contiguous();
  if (d.tokens()) out.lengths = d.lengths.slice(0, begin, end).contiguous();
  out.pixels = d.pixels;
  return out;
}

DataSplit synthetic_regression(const config::RunConfig& config) {
  auto gen = at::detail::createCPUGenerator(kSyntheticDataSeed);
  const int64_t n_train = config.synthetic_samples;
  const int64_t n_test = std::max<int64_t>(1, n_train / 4);
  const int64_t n = n_train + n_test;
  auto x = torch::rand({n, 1}, gen, torch::kFloat32).mul_(2).sub_(1);
  auto noise = torch::randn({n, 1}, gen, torch::kFloat32).mul_(config.synthetic_noise);
  auto y = x * kSyntheticA + kSyntheticB + noise;
  DataSplit split;
  split.train = {x.slice(0, 0, n_train).contiguous(), y.slice(0, 0, n_train).contiguous(), {}, {}};
  split.test = {x.slice(0, n_train).contiguous(), y.slice(0, n_train).contiguous(), {}, {}};
  split.num_outputs = 1;
  return split;
}

}  // namespace

DataSplit load_dataset(const config::RunConfig& config, const IdxCacheOptions& cache) {
  DataSplit split;
  switch (config.dataset) {
    case config::DatasetKind::kFashionMnist:
    case config::DatasetKind::kIdx:
      split = load_idx(config, cache);
      break;
    case config::DatasetKind::kCsv:
      split = load_csv(config);
      break;
    case config::DatasetKind::kJsonl:
      split = load_jsonl(config);
      break;
    case config::DatasetKind::kSyntheticRegression:
      split = synthetic_regression(config);
      break;
  }
  // The last fraction evaluates instead, in file order (as read_data_sizes() counts it).
  if (config.validation_split > 0) {
    const int64_t n = split.train.size();
    const int64_t held = config::validation_rows(n, config.validation_split);
    split.test = rows(split.train, n - held, n);
    split.train = rows(split.train, 0, n - held);
  }
  if (config.train_samples > 0 && config.train_samples < split.train.size()) {
    split.train = rows(split.train, 0, config.train_samples);
  }
  return split;
}

std::pair<torch::Tensor, torch::Tensor> gather_batch(const TensorDataset& dataset,
                                                     const std::vector<int64_t>& indices) {
  auto idx = torch::from_blob(const_cast<int64_t*>(indices.data()),
                              {static_cast<int64_t>(indices.size())}, torch::kInt64);
  // index_select on CUDA wants its indices on the same device (a no-op copy on the CPU).
  idx = idx.to(dataset.inputs.device());
  auto x = dataset.inputs.index_select(0, idx);
  if (dataset.pixels) x = normalize_pixels(x, *dataset.pixels);
  auto y = dataset.targets.index_select(0, idx);
  if (dataset.tokens()) {  // padded to the batch's own longest sequence
    const int64_t longest = dataset.lengths.index_select(0, idx.cpu()).max().item<int64_t>();
    x = x.narrow(1, 0, longest).contiguous();
    y = y.narrow(1, 0, longest).contiguous();
  }
  return {x, y};
}

torch::Tensor normalize_pixels(const torch::Tensor& pixels, const PixelNormalization& n) {
  // The ops, scalars and dtype the whole set was converted with before: each element goes through
  // the same float32 steps, so a batch holds the same bits.
  return pixels.to(torch::kFloat32).div_(255.0f).sub_(n.mean).div_(n.stddev);
}

torch::Tensor float_inputs(const TensorDataset& dataset) {
  return dataset.pixels ? normalize_pixels(dataset.inputs, *dataset.pixels) : dataset.inputs;
}

int64_t count_items(const torch::Tensor& targets, bool tokens) {
  if (!tokens) return targets.size(0);
  // A causal LM scores position t's output against label t + 1 (the first label is never a
  // target), as Hugging Face's models shift them.
  return targets.narrow(1, 1, targets.size(1) - 1).ne(kIgnoreIndex).sum().item<int64_t>();
}

}  // namespace parity::train
