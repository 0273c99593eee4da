// The dataset format registry: every kind has one entry, and the config's checks, sample counts
// and memory estimate follow what the entry says.
#include <gtest/gtest.h>
#include <parity/config/data_format.h>
#include <parity/config/memory_estimate.h>
#include <parity/config/run_config.h>

#include <algorithm>
#include <set>

namespace parity::config {
namespace {

const DatasetKind kAllKinds[] = {DatasetKind::kFashionMnist, DatasetKind::kIdx, DatasetKind::kCsv,
                                 DatasetKind::kJsonl, DatasetKind::kSyntheticRegression};

bool has_issue(const RunConfig& c, const std::string& field) {
  const auto issues = check(c);
  return std::any_of(issues.begin(), issues.end(),
                     [&](const ConfigIssue& i) { return i.field == field; });
}

std::string issue(const RunConfig& c, const std::string& field) {
  for (const ConfigIssue& i : check(c))
    if (i.field == field) return i.message;
  return "";
}

// A config that is valid for `kind` apart from what a test changes.
RunConfig valid_for(const DataFormat& f) {
  RunConfig c;
  c.dataset = f.kind;
  c.task = f.task.value_or(Task::kClassification);
  c.model = f.tokens ? ModelKind::kBigram : ModelKind::kMlp;
  if (f.location == DataLocation::kFile || f.location == DataLocation::kFolder)
    c.data_path = "/data/x";
  if (f.columns) c.target = "label";
  return c;
}

TEST(DataFormat, EveryKindHasOneEntryNamedAsTheConfigSpellsIt) {
  std::set<std::string> names;
  for (DatasetKind kind : kAllKinds) {
    const DataFormat& f = data_format(kind);
    EXPECT_EQ(f.kind, kind);
    EXPECT_EQ(f.name, to_string(kind));
    EXPECT_EQ(parse_dataset(f.name), kind);
    names.insert(f.name);
  }
  EXPECT_EQ(data_formats().size(), std::size(kAllKinds));
  EXPECT_EQ(names.size(), std::size(kAllKinds));
  EXPECT_EQ(data_format_names(&DataFormat::images), "fashion-mnist or idx");
}

TEST(DataFormat, EachEntryIsValidWithItsOwnNeedsAndRefusedWithoutThem) {
  for (const DataFormat& f : data_formats()) {
    SCOPED_TRACE(f.name);
    const RunConfig ok = valid_for(f);
    EXPECT_TRUE(check(ok).empty()) << check(ok).front().message;

    RunConfig no_path = ok;
    no_path.data_path.clear();
    const bool must_name = f.location == DataLocation::kFile || f.location == DataLocation::kFolder;
    EXPECT_EQ(has_issue(no_path, "data_path"), must_name);

    if (f.task) {
      RunConfig other = ok;
      other.task = *f.task == Task::kRegression ? Task::kClassification : Task::kRegression;
      EXPECT_TRUE(has_issue(other, "task"));
    }
    RunConfig no_target = ok;
    no_target.target.clear();
    EXPECT_EQ(has_issue(no_target, "target"), f.columns);

    RunConfig test_file = ok;
    test_file.test_data = "/data/test";
    EXPECT_EQ(has_issue(test_file, "test_data"), !f.test_file);

    RunConfig cnn = ok;
    cnn.model = ModelKind::kCnn;
    EXPECT_EQ(has_issue(cnn, "model"), !f.images);
    EXPECT_EQ(ok.token_data(), f.tokens);
  }
}

TEST(DataFormat, TheMessagesNameTheFormatsTheEntriesAllow) {
  RunConfig idx = valid_for(data_format(DatasetKind::kIdx));
  idx.data_path.clear();
  EXPECT_EQ(issue(idx, "data_path"),
            "data_path: \"\" is not allowed; the idx dataset needs a folder holding "
            "train-images-idx3-ubyte and the others (--data DIR)");
  RunConfig fashion = valid_for(data_format(DatasetKind::kFashionMnist));
  fashion.test_data = "t.csv";
  EXPECT_NE(issue(fashion, "test_data")
                .find("a test file is for csv or jsonl data (fashion-mnist and idx use their "
                      "t10k files)"),
            std::string::npos);
  RunConfig csv = valid_for(data_format(DatasetKind::kCsv));
  csv.model = ModelKind::kBigram;
  EXPECT_NE(issue(csv, "model").find("the bigram model needs token data (dataset jsonl)"),
            std::string::npos);
}

TEST(DataFormat, TheMemoryEstimateTakesTheEntrysInputWidth) {
  RunConfig fashion = valid_for(data_format(DatasetKind::kFashionMnist));
  RunConfig csv = valid_for(data_format(DatasetKind::kCsv));
  csv.features = {"a", "b", "c"};
  ASSERT_TRUE(estimate_rank_memory(fashion).has_value());
  ASSERT_TRUE(estimate_rank_memory(csv).has_value());
  // 784 inputs against 3: the first layer's weights dominate the difference.
  EXPECT_GT(estimate_rank_memory(fashion)->total(), estimate_rank_memory(csv)->total());
  EXPECT_FALSE(estimate_rank_memory(valid_for(data_format(DatasetKind::kIdx))).has_value());
}

}  // namespace
}  // namespace parity::config
