#include <gtest/gtest.h>
#include <parity/test_support/ci_skip.h>
#include <parity/train/datasets.h>
#include <zlib.h>

#include <fstream>

#include "dist_test_util.h"

namespace parity::train {
namespace {

using testing::TempDir;

void write_gz(const std::string& path, const std::vector<unsigned char>& bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(f);
}

TEST(ReadIdx, DecodesShapeAndBytes) {
  TempDir dir;
  const std::string p = dir.path() + "/x-idx3-ubyte.gz";
  std::vector<unsigned char> bytes{0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 3};
  for (int i = 0; i < 12; ++i) bytes.push_back(static_cast<unsigned char>(i * 10));
  write_gz(p, bytes);
  auto t = read_idx(p);
  ASSERT_EQ(t.sizes(), (std::vector<int64_t>{2, 2, 3}));
  EXPECT_EQ(t[1][1][2].item<int>(), 110);
}

TEST(ReadIdx, RejectsBadMagicAndTruncation) {
  TempDir dir;
  write_gz(dir.path() + "/bad.gz", {1, 2, 3, 4});
  EXPECT_THROW(read_idx(dir.path() + "/bad.gz"), config::DatasetError);
  write_gz(dir.path() + "/short.gz", {0, 0, 8, 1, 0, 0, 0, 9, 1, 2});
  try {
    read_idx(dir.path() + "/short.gz");
    FAIL() << "expected DatasetError";
  } catch (const config::DatasetError& e) {
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_idx(dir.path() + "/missing.gz"), config::DatasetError);
}

TEST(FashionMnist, LoadsDebiansFilesWhenInstalled) {
  if (!std::ifstream(std::string(config::kFashionMnistDir) + "/t10k-labels-idx1-ubyte.gz").good()) {
    PARITY_SKIP_OR_FAIL() << "dataset-fashion-mnist is not installed";
  }
  config::RunConfig c;
  c.train_samples = 1000;
  auto split = load_dataset(c);
  EXPECT_EQ(split.train.size(), 1000);
  EXPECT_EQ(split.test.size(), 10000);
  EXPECT_EQ(split.train.inputs.sizes(), (std::vector<int64_t>{1000, 1, 28, 28}));
  EXPECT_EQ(split.num_outputs, 10);
  EXPECT_GE(split.test.targets.min().item<int64_t>(), 0);
  EXPECT_LE(split.test.targets.max().item<int64_t>(), 9);
  // Normalised: roughly zero mean, unit spread.
  EXPECT_NEAR(float_inputs(split.test).mean().item<double>(), 0.0, 0.1);
}

TEST(FashionMnist, MissingFolderNamesTheFixInTheError) {
  config::RunConfig c;
  c.data_path = "/nonexistent/fashion";
  try {
    load_dataset(c);
    FAIL();
  } catch (const config::DatasetError& e) {
    EXPECT_NE(std::string(e.what()).find("dataset-fashion-mnist"), std::string::npos);
  }
}

TEST(CsvDataset, ReadsChosenColumnsAndTrainsOnEveryRow) {
  TempDir dir;
  const std::string p = dir.path() + "/d.csv";
  std::ofstream(p) << "a,b,label\n1,2,0\n3,4,1\n5,6,2\n7,8,1\n9,10,0\n";
  config::RunConfig c;
  c.dataset = config::DatasetKind::kCsv;
  c.data_path = p;
  c.target = "label";
  c.features = {"b"};
  c.model = config::ModelKind::kLinear;
  auto split = load_dataset(c);
  EXPECT_EQ(split.train.size(), 5);  // v0.1 held the last fifth out without a word
  EXPECT_EQ(split.test.size(), 0);
  EXPECT_EQ(split.num_outputs, 3);
  EXPECT_FLOAT_EQ(split.train.inputs[1][0].item<float>(), 4.0f);
  EXPECT_EQ(split.train.targets[4].item<int64_t>(), 0);
}

TEST(CsvDataset, TestFileByColumnNameAndValidationSplitFromTheTail) {
  TempDir dir;
  const std::string p = dir.path() + "/d.csv";
  const std::string t = dir.path() + "/t.csv";
  std::ofstream(p) << "a,b,label\n1,2,0\n3,4,1\n5,6,2\n7,8,1\n9,10,0\n";
  std::ofstream(t) << "label,b,a\n3,20,10\n";  // its own column order; a 4th class
  config::RunConfig c;
  c.dataset = config::DatasetKind::kCsv;
  c.data_path = p;
  c.target = "label";
  c.features = {"a", "b"};
  c.test_data = t;
  auto split = load_dataset(c);
  EXPECT_EQ(split.train.size(), 5);
  ASSERT_EQ(split.test.size(), 1);
  EXPECT_FLOAT_EQ(split.test.inputs[0][0].item<float>(), 10.0f);
  EXPECT_FLOAT_EQ(split.test.inputs[0][1].item<float>(), 20.0f);
  EXPECT_EQ(split.num_outputs, 4);

  c.test_data.clear();
  c.validation_split = 0.4;  // ceil(5 x 0.4) = 2 rows, the last two
  split = load_dataset(c);
  EXPECT_EQ(split.train.size(), 3);
  ASSERT_EQ(split.test.size(), 2);
  EXPECT_FLOAT_EQ(split.test.inputs[0][0].item<float>(), 7.0f);
  const config::DataSizes counted =
      config::read_data_sizes(c);  // plan counts what the loader splits
  EXPECT_EQ(counted.train, split.train.size());
  EXPECT_EQ(counted.test, split.test.size());
}

TEST(JsonlDataset, PadsEachBatchToItsLongestAndIgnoresMaskedLabels) {
  TempDir dir;
  const std::string p = dir.path() + "/d.jsonl";
  std::ofstream(p) << R"({"input_ids": [5, 6, 7], "labels": [5, 6, 7]})"
                      "\n"
                   << R"({"input_ids": [1, 2], "labels": [-100, 2]})"
                      "\n"
                   << "\n"
                   << R"({"input_ids": [3, 4, 9, 9, 9, 11], "labels": [3, 4, 9, -100, -100, 11]})"
                      "\n";
  config::RunConfig c;
  c.dataset = config::DatasetKind::kJsonl;
  c.model = config::ModelKind::kBigram;
  c.data_path = p;
  c.pad_id = 0;
  auto split = load_dataset(c);
  ASSERT_EQ(split.train.size(), 3);
  EXPECT_EQ(split.num_outputs, 12);  // ids 0..11
  EXPECT_EQ(split.test.size(), 0);
  auto [x, y] = gather_batch(split.train, {1, 0});
  ASSERT_EQ(x.sizes(), (std::vector<int64_t>{2, 3}));  // the batch's longest, not the file's
  EXPECT_EQ(x[0][2].item<int64_t>(), 0);               // pad_id
  EXPECT_EQ(y[0][2].item<int64_t>(), kIgnoreIndex);    // padded labels are ignored
  // Items a causal LM scores: labels 1.. (shifted), not -100: row 1 has 1, row 0 has 2.
  EXPECT_EQ(count_items(y, /*tokens=*/true), 3);
  auto [x2, y2] = gather_batch(split.train, {2});
  EXPECT_EQ(x2.size(1), 6);
  EXPECT_EQ(count_items(y2, true), 3);  // 4, 9, 11
}

TEST(JsonlDataset, BadLinesNameTheLineAndTheProblem) {
  TempDir dir;
  const std::string p = dir.path() + "/d.jsonl";
  config::RunConfig c;
  c.dataset = config::DatasetKind::kJsonl;
  c.model = config::ModelKind::kBigram;
  c.data_path = p;
  for (const auto& [line, expected] : std::vector<std::pair<std::string, std::string>>{
           {R"({"input_ids": [1, 2], "labels": [1]})", "1 labels for 2 input_ids"},
           {R"({"input_ids": [1, 2]})", "no \"labels\" key"},
           {R"({"input_ids": [1, "a"], "labels": [1, 2]})", "not an integer"},
           {R"({"input_ids": [1, 2], "labels": [1, -3]})", "only -100"},
           {"[1, 2", "not a JSON object"}}) {
    std::ofstream(p) << R"({"input_ids": [1, 2], "labels": [1, 2]})"
                        "\n"
                     << line << "\n";
    try {
      load_dataset(c);
      ADD_FAILURE() << "accepted " << line;
    } catch (const config::DatasetError& e) {
      EXPECT_NE(std::string(e.what()).find(p + ":2:"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
}

TEST(IdxDataset, AnyFolderInMnistsLayoutWithItsOwnClassesAndNormalisation) {
  TempDir dir;
  auto images = [](int n) {
    std::vector<unsigned char> b{0, 0, 8, 3, 0, 0, 0, static_cast<unsigned char>(n),
                                 0, 0, 0, 2, 0, 0, 0, 2};
    for (int i = 0; i < n * 4; ++i) b.push_back(static_cast<unsigned char>((i * 37) % 256));
    return b;
  };
  auto labels = [](int n, int classes) {
    std::vector<unsigned char> b{0, 0, 8, 1, 0, 0, 0, static_cast<unsigned char>(n)};
    for (int i = 0; i < n; ++i) b.push_back(static_cast<unsigned char>(i % classes));
    return b;
  };
  write_gz(dir.path() + "/train-images-idx3-ubyte.gz", images(12));
  write_gz(dir.path() + "/train-labels-idx1-ubyte.gz", labels(12, 3));
  std::ofstream(dir.path() + "/t10k-images-idx3-ubyte", std::ios::binary)
      .write(reinterpret_cast<const char*>(images(4).data()), 8 + 8 + 16);  // not gzipped
  std::ofstream(dir.path() + "/t10k-labels-idx1-ubyte", std::ios::binary)
      .write(reinterpret_cast<const char*>(labels(4, 5).data()), 8 + 4);
  config::RunConfig c;
  c.dataset = config::DatasetKind::kIdx;
  c.data_path = dir.path();
  c.model = config::ModelKind::kCnn;
  auto split = load_dataset(c);
  EXPECT_EQ(split.train.inputs.sizes(), (std::vector<int64_t>{12, 1, 2, 2}));
  EXPECT_EQ(split.test.size(), 4);
  EXPECT_EQ(split.num_outputs, 4);  // the test labels reach class 3
  EXPECT_NEAR(float_inputs(split.train).mean().item<double>(), 0.0, 1e-5);
  EXPECT_NEAR(float_inputs(split.train).std().item<double>(), 1.0, 1e-4);
  c.data_path = dir.path() + "/nope";
  try {
    load_dataset(c);
    FAIL();
  } catch (const config::DatasetError& e) {
    EXPECT_NE(std::string(e.what()).find("MNIST's layout"), std::string::npos) << e.what();
  }
}

TEST(CsvDataset, BadCellNamesRowAndColumn) {
  TempDir dir;
  const std::string p = dir.path() + "/d.csv";
  std::ofstream(p) << "x,y\n1,2\n3,oops\n5,6\n";
  config::RunConfig c;
  c.dataset = config::DatasetKind::kCsv;
  c.task = config::Task::kRegression;
  c.data_path = p;
  c.target = "y";
  try {
    load_dataset(c);
    FAIL();
  } catch (const config::DatasetError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(":3:"), std::string::npos) << m;
    EXPECT_NE(m.find("'y'"), std::string::npos) << m;
  }
}

// nan, inf and values past float32 parse as numbers; as data they are refused by file, row and
// column, as two header cells of one name are (which one a name means would be a guess).
TEST(CsvDataset, NonFiniteCellsAndARepeatedColumnNameAreRefused) {
  TempDir dir;
  config::RunConfig c;
  c.dataset = config::DatasetKind::kCsv;
  c.task = config::Task::kRegression;
  c.target = "y";
  auto error_of = [&](const std::string& text) {
    c.data_path = dir.path() + "/d.csv";
    std::ofstream(c.data_path) << text;
    try {
      load_dataset(c);
    } catch (const config::DatasetError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  for (const char* bad : {"nan", "inf", "-Infinity", "1e39"}) {
    const std::string m = error_of(std::string("x,y\n1,2\n") + bad + ",4\n");
    EXPECT_NE(
        m.find("d.csv:3: column 'x' holds '" + std::string(bad) + "', not a finite float32 number"),
        std::string::npos)
        << m;
  }
  EXPECT_EQ(error_of("x,y\n1,2\n3e38,4\n"), "(accepted)");  // within float32's range
  const std::string twice = error_of("x,y,x\n1,2,3\n");
  EXPECT_NE(twice.find("d.csv: the header names column 'x' twice (columns 1 and 3)"),
            std::string::npos)
      << twice;
}

TEST(SyntheticRegression, SameDataWhateverTheRunSeed) {
  config::RunConfig a = testing::regression_config(1, 16);
  config::RunConfig b = a;
  b.seed = 999;
  auto da = load_dataset(a);
  auto db = load_dataset(b);
  EXPECT_TRUE(torch::equal(da.train.inputs, db.train.inputs));
  EXPECT_EQ(da.train.size(), 256);
  EXPECT_EQ(da.test.size(), 64);
}

}  // namespace
}  // namespace parity::train

#include <parity/train/blas_check.h>

namespace parity::train {
namespace {

TEST(BlasCheck, NamesTheMappedLibraryAndMeasures) {
  const BlasCheck r = check_blas();
  EXPECT_GT(r.gflops, 0.0);
  EXPECT_NE(r.library.find("libblas.so"), std::string::npos) << r.library;
  // The verdict follows the library: reference BLAS is always flagged, with the fix named.
  if (r.reference) {
    EXPECT_TRUE(r.slow);
    EXPECT_NE(r.message.find("libopenblas0-pthread"), std::string::npos);
  }
  if (!r.slow) {
    EXPECT_TRUE(r.message.empty());
  }
}

}  // namespace
}  // namespace parity::train
