// How many samples train and evaluate, read from the files as the trainer's loader splits them.
#include <gtest/gtest.h>
#include <parity/config/batch_plan.h>
#include <parity/config/data_sizes.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace parity::config {
namespace {

namespace fs = std::filesystem;

class DataSizesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("parity-sizes-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string csv(const std::string& name, int rows) {
    const std::string path = (dir_ / name).string();
    std::ofstream out(path);
    out << "x,y\n";
    for (int i = 0; i < rows; ++i) out << i << "," << (i % 2) << "\n\n";  // blank lines skipped
    return path;
  }
  fs::path dir_;
};

TEST_F(DataSizesTest, ACsvTrainsOnEveryRowWithoutTestData) {
  RunConfig c;
  c.dataset = DatasetKind::kCsv;
  c.data_path = csv("d.csv", 64);
  c.target = "y";
  const DataSizes s = read_data_sizes(c);
  EXPECT_EQ(s.train, 64);  // v0.1 held out the last fifth silently: 52
  EXPECT_EQ(s.test, 0);
  EXPECT_EQ(describe_data_sizes(s), "64 train, none evaluate (no test data: no evaluation)");
}

// Two header cells of one name are refused before launch too (plan, the window's form).
TEST_F(DataSizesTest, ARepeatedColumnNameIsRefusedBeforeLaunch) {
  RunConfig c;
  c.dataset = DatasetKind::kCsv;
  c.data_path = (dir_ / "twice.csv").string();
  std::ofstream(c.data_path) << "x,y,x\n1,2,3\n";
  c.target = "y";
  try {
    read_data_sizes(c);
    FAIL() << "no error for a header that names x twice";
  } catch (const DatasetError& e) {
    EXPECT_STREQ(e.what(), "twice.csv: the header names column 'x' twice (columns 1 and 3)");
  }
}

// A misspelled target or feature is refused when the sizes are read (plan, the window's form),
// not only when the run starts; the message names the file, the column and the ones it has.
TEST_F(DataSizesTest, AMisspelledColumnIsRefusedWithTheHeadersColumns) {
  RunConfig c;
  c.dataset = DatasetKind::kCsv;
  c.data_path = csv("d.csv", 8);
  c.target = "lable";
  try {
    read_data_sizes(c);
    FAIL() << "no error for a target column that is not in the header";
  } catch (const DatasetError& e) {
    EXPECT_STREQ(e.what(), "d.csv: no column 'lable' in the header (columns: x, y)");
  }
  c.target = "y";
  c.features = {"x", "z"};
  EXPECT_THROW(read_data_sizes(c), DatasetError);
  c.features = {"x"};
  EXPECT_EQ(read_data_sizes(c).train, 8);
  // The test file is found by the same names.
  const std::string other = (dir_ / "t.csv").string();
  std::ofstream(other) << "x,target\n1,0\n";
  c.test_data = other;
  EXPECT_THROW(read_data_sizes(c), DatasetError);
  std::ofstream(other) << "\"x\",y\n1,0\n";  // quoted names are names
  EXPECT_EQ(read_data_sizes(c).test, 1);
}

TEST_F(DataSizesTest, TestFileAndValidationSplitAreCountedAndStated) {
  RunConfig c;
  c.dataset = DatasetKind::kCsv;
  c.data_path = csv("d.csv", 64);
  c.target = "y";
  c.test_data = csv("t.csv", 10);
  DataSizes s = read_data_sizes(c);
  EXPECT_EQ(s.train, 64);
  EXPECT_EQ(s.test, 10);
  EXPECT_EQ(describe_data_sizes(s), "64 train, 10 evaluate (t.csv)");
  c.test_data.clear();
  c.validation_split = 0.2;
  s = read_data_sizes(c);
  EXPECT_EQ(s.test, 13);  // ceil(64 x 0.2), as train_test_split rounds
  EXPECT_EQ(s.train, 51);
  EXPECT_EQ(describe_data_sizes(s), "51 train, 13 evaluate (the last 20 % of d.csv)");
  c.train_samples = 40;
  EXPECT_EQ(read_data_sizes(c).train, 40);
  EXPECT_EQ(describe_data_sizes(read_data_sizes(c)),
            "40 train, 13 evaluate (the last 20 % of d.csv)");
  // More than the data has (a Fashion-MNIST setting kept after switching to a small csv): all
  // train, and the sizes say so instead of standing silently beside the larger number.
  c.train_samples = 7680;
  s = read_data_sizes(c);
  EXPECT_EQ(s.train, 51);
  EXPECT_EQ(describe_data_sizes(s),
            "51 train (all there are, fewer than the 7680 asked), 13 evaluate (the last 20 % of "
            "d.csv)");
}

TEST_F(DataSizesTest, JsonlCountsSequencesAndIdxReadsItsHeader) {
  RunConfig c;
  c.dataset = DatasetKind::kJsonl;
  c.data_path = (dir_ / "d.jsonl").string();
  {
    std::ofstream out(c.data_path);
    for (int i = 0; i < 7; ++i)
      out << R"({"input_ids": [1, 2], "labels": [1, 2]})"
          << "\n";
  }
  EXPECT_EQ(read_data_sizes(c).train, 7);

  c = RunConfig{};
  c.dataset = DatasetKind::kIdx;
  c.data_path = dir_.string();
  for (auto [stem, n] :
       {std::pair{"train-labels-idx1-ubyte", 300}, {"t10k-labels-idx1-ubyte", 50}}) {
    gzFile f = gzopen((dir_ / (std::string(stem) + ".gz")).c_str(), "wb");
    const unsigned char header[8] = {
        0, 0, 8, 1, 0, 0, static_cast<unsigned char>(n >> 8), static_cast<unsigned char>(n & 0xff)};
    gzwrite(f, header, sizeof header);
    gzclose(f);
  }
  const DataSizes s = read_data_sizes(c);
  EXPECT_EQ(s.train, 300);
  EXPECT_EQ(s.test, 50);
  c.data_path = (dir_ / "missing").string();
  EXPECT_THROW(read_data_sizes(c), DatasetError);
}

TEST(DataSizes, KnownSizesNeedNoFileAndHonourTheSplit) {
  RunConfig c;  // fashion-mnist
  EXPECT_EQ(known_train_size(c), 60000);
  c.validation_split = 0.1;
  EXPECT_EQ(known_train_size(c), 54000);
  c.dataset = DatasetKind::kCsv;
  EXPECT_EQ(known_train_size(c), std::nullopt);
  EXPECT_EQ(validation_rows(10, 0.01), 1);  // at least one row evaluates
  EXPECT_EQ(validation_rows(10, 0.99), 9);  // at least one trains
}

}  // namespace
}  // namespace parity::config
