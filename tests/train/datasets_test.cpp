#include "datasets.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>

#include "dist_test_util.h"

namespace parity::engine {
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
  EXPECT_THROW(read_idx(dir.path() + "/bad.gz"), DatasetError);
  write_gz(dir.path() + "/short.gz", {0, 0, 8, 1, 0, 0, 0, 9, 1, 2});
  try {
    read_idx(dir.path() + "/short.gz");
    FAIL() << "expected DatasetError";
  } catch (const DatasetError& e) {
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_idx(dir.path() + "/missing.gz"), DatasetError);
}

TEST(FashionMnist, LoadsDebiansFilesWhenInstalled) {
  if (!std::ifstream(std::string(kFashionMnistDir) + "/t10k-labels-idx1-ubyte.gz").good()) {
    GTEST_SKIP() << "dataset-fashion-mnist is not installed";
  }
  RunConfig c;
  c.train_samples = 1000;
  auto split = load_dataset(c);
  EXPECT_EQ(split.train.size(), 1000);
  EXPECT_EQ(split.test.size(), 10000);
  EXPECT_EQ(split.train.inputs.sizes(), (std::vector<int64_t>{1000, 1, 28, 28}));
  EXPECT_EQ(split.num_outputs, 10);
  EXPECT_GE(split.test.targets.min().item<int64_t>(), 0);
  EXPECT_LE(split.test.targets.max().item<int64_t>(), 9);
  // Normalised: roughly zero mean, unit spread.
  EXPECT_NEAR(split.test.inputs.mean().item<double>(), 0.0, 0.1);
}

TEST(FashionMnist, MissingFolderNamesTheFixInTheError) {
  RunConfig c;
  c.data_path = "/nonexistent/fashion";
  try {
    load_dataset(c);
    FAIL();
  } catch (const DatasetError& e) {
    EXPECT_NE(std::string(e.what()).find("dataset-fashion-mnist"), std::string::npos);
  }
}

TEST(CsvDataset, ReadsChosenColumnsAndSplitsTheTail) {
  TempDir dir;
  const std::string p = dir.path() + "/d.csv";
  std::ofstream(p) << "a,b,label\n1,2,0\n3,4,1\n5,6,2\n7,8,1\n9,10,0\n";
  RunConfig c;
  c.dataset = DatasetKind::kCsv;
  c.data_path = p;
  c.target = "label";
  c.features = {"b"};
  c.model = ModelKind::kLinear;
  auto split = load_dataset(c);
  EXPECT_EQ(split.train.size(), 4);
  EXPECT_EQ(split.test.size(), 1);
  EXPECT_EQ(split.num_outputs, 3);
  EXPECT_FLOAT_EQ(split.train.inputs[1][0].item<float>(), 4.0f);
  EXPECT_EQ(split.test.targets[0].item<int64_t>(), 0);
}

TEST(CsvDataset, BadCellNamesRowAndColumn) {
  TempDir dir;
  const std::string p = dir.path() + "/d.csv";
  std::ofstream(p) << "x,y\n1,2\n3,oops\n5,6\n";
  RunConfig c;
  c.dataset = DatasetKind::kCsv;
  c.task = Task::kRegression;
  c.data_path = p;
  c.target = "y";
  try {
    load_dataset(c);
    FAIL();
  } catch (const DatasetError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(":3:"), std::string::npos) << m;
    EXPECT_NE(m.find("'y'"), std::string::npos) << m;
  }
}

TEST(SyntheticRegression, SameDataWhateverTheRunSeed) {
  RunConfig a = testing::regression_config(1, 16);
  RunConfig b = a;
  b.seed = 999;
  auto da = load_dataset(a);
  auto db = load_dataset(b);
  EXPECT_TRUE(torch::equal(da.train.inputs, db.train.inputs));
  EXPECT_EQ(da.train.size(), 256);
  EXPECT_EQ(da.test.size(), 64);
}

}  // namespace
}  // namespace parity::engine

#include <parity/train/blas_check.h>

namespace parity::engine {
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
}  // namespace parity::engine
