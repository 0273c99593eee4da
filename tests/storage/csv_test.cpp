#include <gtest/gtest.h>
#include <parity/storage/csv.h>
#include <parity/test_support/ci_skip.h>

#include <clocale>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <sstream>

#include "test_util.h"

namespace parity::storage {
namespace {

using testing::parse_csv;
using testing::TempDir;

TEST(CsvCell, QuotesOnlyWhatNeedsQuoting) {
  EXPECT_EQ(csv_cell(""), "");
  EXPECT_EQ(csv_cell("plain text"), "plain text");
  EXPECT_EQ(csv_cell("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_cell("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_cell("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_cell("cr\rinside"), "\"cr\rinside\"");
  EXPECT_EQ(csv_cell("\""), "\"\"\"\"");
}

TEST(CsvCell, NeutralisesFormulas) {
  EXPECT_EQ(csv_cell("=SUM(A1:A9)"), "'=SUM(A1:A9)");
  EXPECT_EQ(csv_cell("+cmd"), "'+cmd");
  EXPECT_EQ(csv_cell("-lr"), "'-lr");
  EXPECT_EQ(csv_cell("@SUM(1)"), "'@SUM(1)");
  EXPECT_EQ(csv_cell("\tx"), "'\tx");
  EXPECT_EQ(csv_cell("-"), "'-");
  EXPECT_EQ(csv_cell("-1+1"), "'-1+1");
  EXPECT_EQ(csv_cell("-2e"), "'-2e");
  // Neutralised, then quoted: the apostrophe sits inside the quotes.
  EXPECT_EQ(csv_cell("=HYPERLINK(\"http://x\",\"y\")"),
            "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
  EXPECT_EQ(csv_cell("\rx"), "\"'\rx\"");
  // Only the first character matters.
  EXPECT_EQ(csv_cell("a=b"), "a=b");
}

TEST(CsvCell, NumbersStayNumbers) {
  for (const char* number :
       {"-0.5", "-1e-3", "+3", "-7", "-.5", "-5.", "+1.25E+10", "-inf", "-nan", "0.1", "12"}) {
    EXPECT_EQ(csv_cell(number), number);
    EXPECT_TRUE(is_plain_number(number)) << number;
  }
  for (const char* text : {"", "-", "+", ".", "-e5", "1e", "1e+", "--1", "-1 ", " -1", "0x10",
                           "-1,5", "-infinite", "1.2.3"}) {
    EXPECT_FALSE(is_plain_number(text)) << text;
  }
}

TEST(Csv, RowsEndInCrlfAndParseBack) {
  std::ostringstream out;
  write_csv_row(out, {"a", "b,c", "=1+1", "\"q\"", ""});
  write_csv_row(out, {"multi\r\nline", "-0.5"});
  EXPECT_EQ(out.str(), "a,\"b,c\",'=1+1,\"\"\"q\"\"\",\r\n\"multi\r\nline\",-0.5\r\n");
  const auto rows = parse_csv(out.str());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"a", "b,c", "'=1+1", "\"q\"", ""}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"multi\r\nline", "-0.5"}));
}

TEST(Csv, FormatNumberRoundTripsExactly) {
  EXPECT_EQ(format_number(1), "1");
  EXPECT_EQ(format_number(-2.5), "-2.5");
  EXPECT_EQ(format_number(0.1), "0.10000000000000001");  // %.17g
  EXPECT_EQ(format_number(1e300), "1.0000000000000001e+300");
  EXPECT_EQ(format_number(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(format_number(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(format_number(-std::numeric_limits<double>::infinity()), "-inf");
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-300, 300);
  for (int i = 0; i < 2000; ++i) {
    const double value = std::pow(10.0, exponent(rng)) * (i % 2 ? -1 : 1);
    EXPECT_EQ(std::strtod(format_number(value).c_str(), nullptr), value);
  }
}

TEST(Csv, FormatNumberIgnoresTheCLocale) {
  const std::string saved = std::setlocale(LC_NUMERIC, nullptr);
  bool switched = false;
  for (const char* name : {"de_DE.UTF-8", "fr_FR.UTF-8", "de_DE.utf8", "fr_FR.utf8"}) {
    if (std::setlocale(LC_NUMERIC, name)) {
      switched = true;
      break;
    }
  }
  if (!switched)
    PARITY_SKIP_OR_FAIL() << "no locale with a decimal comma is installed (locales-all)";
  const std::string formatted = format_number(0.5);
  std::setlocale(LC_NUMERIC, saved.c_str());
  EXPECT_EQ(formatted, "0.5");
}

class CsvExport : public ::testing::Test {
 protected:
  void SetUp() override {
    a_ = db_.create_run("1x256", R"({"seed":1,"lr":0.1,"hidden":[256,128],"name":"=cmd"})");
    b_ = db_.create_run("2x128, linear", R"({"seed":2,"mixed_precision":"bf16","split":true})");
    c_ = db_.create_run("empty", "{}");
    for (int64_t id : {a_, b_}) {
      std::vector<StepRow> rows;
      for (int64_t step = 2; step >= 1; --step) {  // inserted out of order on purpose
        for (int rank : {1, -1, 0}) {
          StepRow r;
          r.run_id = id;
          r.step = step;
          r.rank = rank;
          r.epoch = 0.5 * static_cast<double>(step);
          r.samples = 256 * step;
          r.loss = (id == b_ && step == 2 && rank == -1) ? std::nan("") : 1.0 / (step + rank + 2);
          r.lr = 0.1;
          r.time_s = 1.5 * static_cast<double>(step);
          rows.push_back(r);
        }
      }
      db_.append_steps(rows);
    }
    db_.append_evals({{a_, 1, 2, 512, 0.25, 0.875}});
    db_.finish_run(a_, storage::RunStatus::kFinished, "", 2048);
    db_.finish_run(b_, storage::RunStatus::kDiverged, "loss is nan at step 2", 1000);
  }
  TempDir dir_;
  Database db_{dir_.file("export.db")};
  int64_t a_ = 0, b_ = 0, c_ = 0;
};

TEST_F(CsvExport, CurvesHeaderAndRows) {
  std::ostringstream out;
  write_curves_csv(db_, {}, out);
  const std::string text = out.str();
  EXPECT_EQ(text.substr(0, text.find("\r\n")),
            "run_id,label,step,epoch,samples,rank,loss,lr,time_s");
  const auto rows = parse_csv(text);
  ASSERT_EQ(rows.size(), 1u + 2 * 2 * 3);  // the empty run has no rows
  const std::string a = std::to_string(a_), b = std::to_string(b_);
  EXPECT_EQ(rows[1], (std::vector<std::string>{a, "1x256", "1", "0.5", "256", "-1", "0.5",
                                               "0.10000000000000001", "1.5"}));
  // Ordered by run, step, rank.
  std::vector<std::string> order;
  for (size_t i = 1; i < rows.size(); ++i)
    order.push_back(rows[i][0] + "/" + rows[i][2] + "/" + rows[i][5]);
  EXPECT_EQ(order, (std::vector<std::string>{a + "/1/-1", a + "/1/0", a + "/1/1", a + "/2/-1",
                                             a + "/2/0", a + "/2/1", b + "/1/-1", b + "/1/0",
                                             b + "/1/1", b + "/2/-1", b + "/2/0", b + "/2/1"}));
  EXPECT_EQ(rows[7][1], "2x128, linear");  // the comma survived quoting
  EXPECT_EQ(rows[10][6], "nan");
  EXPECT_EQ(rows[11][6], "0.25");  // step 2, rank 0: 1/(2+0+2)
}

TEST_F(CsvExport, CurvesGlobalOnlyAndSelectedRuns) {
  std::ostringstream out;
  write_curves_csv(db_, {b_}, out, /*include_ranks=*/false);
  const auto rows = parse_csv(out.str());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1][0], std::to_string(b_));
  EXPECT_EQ(rows[1][2], "1");
  EXPECT_EQ(rows[1][5], "-1");
  EXPECT_EQ(rows[2][2], "2");
  EXPECT_EQ(rows[2][5], "-1");
  std::ostringstream unknown;
  EXPECT_THROW(write_curves_csv(db_, {a_, c_ + 50}, unknown), StorageError);
}

TEST_F(CsvExport, RunsTableWithConfigColumns) {
  std::ostringstream out;
  write_runs_csv(db_, {}, out);
  const auto rows = parse_csv(out.str());
  ASSERT_EQ(rows.size(), 4u);
  const std::vector<std::string> header = {
      "run_id",         "label",         "status",      "created_at",
      "finished_at",    "error",         "notes",       "total_steps",
      "steps_done",     "samples_per_s", "final_loss",  "final_eval_loss",
      "final_accuracy", "config.hidden", "config.lr",   "config.mixed_precision",
      "config.name",    "config.seed",   "config.split"};
  EXPECT_EQ(rows[0], header);
  for (const auto& row : rows) ASSERT_EQ(row.size(), header.size());

  const auto& a = rows[1];
  EXPECT_EQ(a[0], std::to_string(a_));
  EXPECT_EQ(a[2], "finished");
  EXPECT_EQ(a[3].size(), std::string("2024-01-01T00:00:00.000Z").size()) << a[3];
  EXPECT_EQ(a[3].back(), 'Z');
  EXPECT_EQ(a[8], "2");
  EXPECT_EQ(a[9], "2048");
  EXPECT_EQ(a[10], "0.33333333333333331");  // the last global step: 1/(2 - 1 + 2)
  EXPECT_EQ(a[11], "0.25");
  EXPECT_EQ(a[12], "0.875");
  EXPECT_EQ(a[13], "[256,128]");
  EXPECT_EQ(a[14], "0.1");
  EXPECT_EQ(a[15], "");
  EXPECT_EQ(a[16], "'=cmd");  // config text is neutralised like any other cell
  EXPECT_EQ(a[17], "1");
  EXPECT_EQ(a[18], "");

  const auto& b = rows[2];
  EXPECT_EQ(b[1], "2x128, linear");
  EXPECT_EQ(b[2], "diverged");
  EXPECT_EQ(b[5], "loss is nan at step 2");
  EXPECT_EQ(b[10], "nan");
  EXPECT_EQ(b[11], "");
  EXPECT_EQ(b[15], "bf16");
  EXPECT_EQ(b[17], "2");
  EXPECT_EQ(b[18], "true");

  const auto& c = rows[3];
  EXPECT_EQ(c[2], "queued");
  EXPECT_EQ(c[4], "");  // not finished
  for (size_t i = 13; i < header.size(); ++i) EXPECT_EQ(c[i], "") << header[i];
}

TEST_F(CsvExport, RunsTableSubsetAndExtraColumns) {
  RunsCsvExtra extra;
  extra.columns = {"verdict", "max_abs_dloss"};
  extra.values[c_] = {"equivalent within tolerance", "0"};
  std::ostringstream out;
  write_runs_csv(db_, {c_, a_, c_}, out, extra);
  const auto rows = parse_csv(out.str());
  ASSERT_EQ(rows.size(), 3u);  // duplicates dropped, id order
  EXPECT_EQ(rows[0][13], "verdict");
  EXPECT_EQ(rows[0][14], "max_abs_dloss");
  EXPECT_EQ(rows[0].back(), "config.seed");  // only run a's keys
  EXPECT_EQ(rows[1][0], std::to_string(a_));
  EXPECT_EQ(rows[1][13], "");
  EXPECT_EQ(rows[2][13], "equivalent within tolerance");
  EXPECT_EQ(rows[2][14], "0");
}

}  // namespace
}  // namespace parity::storage
