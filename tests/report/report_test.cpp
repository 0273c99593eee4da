// parity_report: the model built from stored runs, the writers' registry, the HTML's content and
// size, and the all-or-nothing file write.
#include <gtest/gtest.h>
#include <parity/report/html_report.h>
#include <parity/report/report.h>
#include <parity/report/report_writer.h>
#include <parity/storage/csv.h>
#include <parity/test_support/ci_skip.h>
#include <parity/test_support/small_tmpfs.h>
#include <parity/test_support/synthetic_runs.h>
#include <parity/test_support/temp_dir.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace parity::report {
namespace {

namespace fs = std::filesystem;

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string config(int processes, int batch, double lr = 0.05) {
  return R"({"num_processes":)" + std::to_string(processes) + R"(,"per_device_batch_size":)" +
         std::to_string(batch) + R"(,"lr":)" + std::to_string(lr) + "}";
}

class ReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ref_ = test::addFinishedRun(db_, "1x64", 300, 64, config(1, 64));
    same_ = test::addFinishedRun(db_, "2x32", 300, 64, config(2, 32));
    other_ = test::addFinishedRun(db_, "2x64 <b>unscaled</b>", 150, 128, config(2, 64), 1.3);
  }
  test_support::TempDir dir_;
  storage::Database db_{dir_.file("r.db")};
  int64_t ref_ = 0, same_ = 0, other_ = 0;
};

TEST_F(ReportTest, HoldsEveryPartOfTheComparisonInTheVerdictsOrder) {
  const Report r = build_report(db_, ref_, {same_, other_});
  ASSERT_EQ(r.comparison.rows.size(), 3u);
  EXPECT_EQ(r.comparison.rows[0].verdict, analysis::Verdict::kReference);
  EXPECT_EQ(r.comparison.rows[1].verdict, analysis::Verdict::kEquivalent);
  EXPECT_EQ(r.comparison.rows[2].verdict, analysis::Verdict::kDifferent);
  EXPECT_FALSE(r.comparison.rows[2].reasons.empty());
  ASSERT_EQ(r.curves.size(), 3u);
  ASSERT_EQ(r.facts.size(), 3u);
  ASSERT_EQ(r.deltas.size(), 3u);
  EXPECT_TRUE(r.deltas[0].empty());
  EXPECT_FALSE(r.deltas[2].empty());
  EXPECT_EQ(r.curves[2].id, other_);
  EXPECT_EQ(r.curves[0].whole.size(), 300u);
  // Facts with their provenance: an engine run's are all known, from its config.
  ASSERT_FALSE(r.facts[1].facts.empty());
  EXPECT_EQ(r.facts[1].facts.front().key, "num_processes");
  EXPECT_EQ(r.facts[1].facts.front().value, "2");
  EXPECT_EQ(r.facts[1].facts.front().provenance, config::Provenance::kKnown);
  // The equivalent-batch table has the reference's global batch among its rows.
  EXPECT_EQ(r.equivalent.reference_batch, 64);
  EXPECT_FALSE(r.equivalent.shapes.empty());
  EXPECT_TRUE(
      std::any_of(r.equivalent.rows.begin(), r.equivalent.rows.end(),
                  [](const config::EquivalentRow& row) { return row.reference_batch == 64; }));
  EXPECT_FALSE(r.environment.parity_version.empty());
  EXPECT_GT(r.environment.cpu_cores, 0u);
  ASSERT_EQ(r.environment.processes_and_threads.size(), 3u);
  EXPECT_NE(r.question.find("#2 2x32"), std::string::npos) << r.question;
  ASSERT_EQ(r.answer.size(), 2u);
  // The runs table is in id order, whatever order the runs were asked in.
  const Report reversed = build_report(db_, ref_, {other_, same_});
  EXPECT_EQ(reversed.runs.front().id, ref_);
  EXPECT_EQ(reversed.runs.back().id, other_);
}

TEST_F(ReportTest, WithoutRunsComparesEveryOtherRunWithSteps) {
  db_.create_run("queued", "{}");
  const Report r = build_report(db_, ref_, {});
  EXPECT_EQ(r.comparison.rows.size(), 3u);
}

TEST_F(ReportTest, DrawnCurvesAreDecimatedPerPixelAndTheWholeCurvesKept) {
  const int64_t long_run = test::addFinishedRun(db_, "long", 50000, 64, config(1, 64));
  ReportOptions options;
  options.pixel_width = 300;
  const Report r = build_report(db_, ref_, {long_run}, options);
  EXPECT_EQ(r.curves[1].whole.size(), 50000u);
  EXPECT_LE(r.curves[1].drawn.size(), 4u * 300 + 2);
  EXPECT_LE(r.deltas[1].size(), 4u * 300 + 2);
}

TEST_F(ReportTest, BadInputIsRefusedNamingWhatWasWrong) {
  try {
    build_report(db_, ref_, {same_, 99});
    FAIL() << "an unknown run was accepted";
  } catch (const ReportError& e) {
    EXPECT_NE(std::string(e.what()).find("no run 99"), std::string::npos) << e.what();
  }
  EXPECT_THROW(build_report(db_, 98, {same_}), ReportError);
  const int64_t empty = db_.create_run("empty", config(1, 64));
  try {
    build_report(db_, empty, {same_});
    FAIL() << "a reference with no steps was accepted";
  } catch (const ReportError& e) {
    EXPECT_NE(std::string(e.what()).find("has no steps"), std::string::npos) << e.what();
  }
  // `compare` keeps its "not comparable" rows instead.
  ReportOptions lenient;
  lenient.require_steps = false;
  EXPECT_EQ(build_report(db_, empty, {same_}, lenient).comparison.rows.size(), 2u);
}

TEST_F(ReportTest, HtmlIsSelfContainedWithBothPlotsAndEverySection) {
  const Report r = build_report(db_, ref_, {same_, other_});
  const std::string html = report_html(r);
  EXPECT_EQ(count(html, "<svg"), 2u);
  EXPECT_EQ(count(html, "<path class=\"curve\""), 3u + 2u);  // 3 loss curves, 2 deltas
  EXPECT_GE(count(html, "<circle class=\"mark\""), 2u);      // where #3 parts, in both plots
  EXPECT_EQ(count(html, "<script"), 0u);
  EXPECT_EQ(count(html, "src=\"http"), 0u);
  EXPECT_EQ(count(html, "href="), 0u);
  // The question and the answer come before the plots.
  EXPECT_LT(html.find(r.question.substr(0, 20)), html.find("<svg"));
  for (const char* section :
       {"Verdict", "Proofs", "Config differences", "Equivalent batches", "Facts", "Environment"})
    EXPECT_NE(html.find(std::string("<h2>") + section), std::string::npos) << section;
  // A label is text, never markup.
  EXPECT_EQ(html.find("<b>unscaled</b>"), std::string::npos);
  EXPECT_NE(html.find("2x64 &lt;b&gt;unscaled&lt;/b&gt;"), std::string::npos);
  // The PDF's flavour names its plots as images instead.
  HtmlOptions for_qt;
  for_qt.inline_svg = false;
  const std::string qt = report_html(r, for_qt);
  EXPECT_EQ(count(qt, "<svg"), 0u);
  EXPECT_NE(qt.find(kLossPlotUrl), std::string::npos);
  EXPECT_EQ(loss_svg(r).rfind("<svg", 0), 0u);
}

TEST_F(ReportTest, CsvWriterWritesTheRunsTableWithTheVerdictColumns) {
  const Report r = build_report(db_, ref_, {same_, other_});
  std::ostringstream out;
  writer_named("csv")->write(r, out);
  const std::string csv = out.str();
  EXPECT_EQ(csv.rfind("run_id,label,status,", 0), 0u) << csv.substr(0, 200);
  EXPECT_NE(csv.find(",reference_run,verdict,summary,reasons,"), std::string::npos);
  EXPECT_EQ(count(csv, "\r\n"), 4u);  // header + 3 runs
  EXPECT_NE(csv.find(",different,"), std::string::npos);
}

TEST(ReportWriters, AreFoundByNameAndByExtension) {
  ASSERT_NE(writer_named("text"), nullptr);
  ASSERT_NE(writer_named("html"), nullptr);
  EXPECT_EQ(writer_for_path("/tmp/a/Report.HTML"), writer_named("html"));
  EXPECT_EQ(writer_for_path("r.csv"), writer_named("csv"));
  EXPECT_EQ(writer_for_path("r"), nullptr);
  EXPECT_EQ(writer_for_path("r.docx"), nullptr);
}

// A writer that fails half-way, as a full disk or a bug would.
class HalfWriter : public ReportWriter {
 public:
  std::string name() const override { return "half"; }
  std::string extension() const override { return "half"; }
  void write(const Report&, std::ostream& out) const override {
    out << "half a report";
    throw ReportError("the writer gave up");
  }
};

TEST_F(ReportTest, AFileIsWrittenWholeOrNotAtAll) {
  const Report r = build_report(db_, ref_, {same_, other_});
  const std::string html = dir_.file("r.html");
  write_report_file(r, html);
  std::ifstream in(html);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str().rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(text.str().find("</html>"), std::string::npos);

  register_writer(std::make_unique<HalfWriter>());
  EXPECT_THROW(write_report_file(r, dir_.file("r.half")), ReportError);
  EXPECT_FALSE(fs::exists(dir_.file("r.half")));
  EXPECT_THROW(write_report_file(r, dir_.file("missing/r.html")), ReportError);
  EXPECT_THROW(write_report_file(r, dir_.file("r.docx")), ReportError);
  for (const auto& entry : fs::directory_iterator(dir_.path()))
    EXPECT_EQ(entry.path().filename().string().find(".r."), std::string::npos)
        << "temporary file left: " << entry.path();
}

TEST_F(ReportTest, AFullOrReadOnlyDiskLeavesNothing) {
  const Report r = build_report(db_, ref_, {same_, other_});
  test_support::SmallTmpfs disk(16);  // smaller than the HTML
  if (!disk.mounted()) PARITY_SKIP_OR_FAIL() << disk.why();
  ASSERT_GT(report_html(r).size(), 16u * 1024);
  try {
    write_report_file(r, disk.file("r.html"));
    FAIL() << "a full disk took the report";
  } catch (const ReportError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_empty(disk.path()));
  if (!disk.make_read_only()) PARITY_SKIP_OR_FAIL() << disk.why();
  try {
    write_report_file(r, disk.file("r.csv"));
    FAIL() << "a read-only folder took the report";
  } catch (const ReportError& e) {
    EXPECT_NE(std::string(e.what()).find("Read-only"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace parity::report
