// parity_bench_report: the report of 20 runs x 100,000 steps (goal: under 2 s to build and
// write, an HTML under 2 MB). Prints its numbers; not a test. The database is written once under
// PARITY_BENCH_CACHE and reused.
#include <parity/report/html_report.h>
#include <parity/report/report.h>
#include <parity/report/report_writer.h>
#include <parity/storage/database.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kRuns = 20;
constexpr int64_t kSteps = 100000;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Runs of four shapes (1x64, 2x32, 2x64, 4x16), each a smooth noisy loss.
void fill(parity::storage::Database& db) {
  const int processes[] = {1, 2, 2, 4}, batches[] = {64, 32, 64, 16};
  for (int r = 0; r < kRuns; ++r) {
    const int shape = r % 4;
    const std::string config = "{\"num_processes\":" + std::to_string(processes[shape]) +
                               ",\"per_device_batch_size\":" + std::to_string(batches[shape]) +
                               ",\"seed\":" + std::to_string(42 + r / 4) + "}";
    const int64_t id = db.create_run("run " + std::to_string(r + 1), config);
    db.set_started(id, kSteps);
    const int64_t global = processes[shape] * batches[shape];
    std::vector<parity::storage::StepRow> rows;
    rows.reserve(10000);
    for (int64_t s = 1; s <= kSteps; ++s) {
      parity::storage::StepRow row;
      row.run_id = id;
      row.step = s;
      row.rank = -1;
      row.samples = static_cast<double>(s * global);
      row.epoch = static_cast<double>(s) / 1000.0;
      row.loss = 0.2 + 2.0 / std::sqrt(1.0 + static_cast<double>(s * global) / 64.0) +
                 0.03 * std::sin(0.37 * static_cast<double>(s) + r) * (shape == 2 ? 1.5 : 1.0);
      row.lr = 0.05;
      row.time_s = 0.001 * static_cast<double>(s);
      rows.push_back(row);
      if (rows.size() == 10000) {
        db.append_steps(rows);
        rows.clear();
      }
    }
    db.finish_run(id, parity::storage::RunStatus::kFinished, "", 50000.0);
  }
}

}  // namespace

int main() {
  namespace fs = std::filesystem;
  const fs::path cache(PARITY_BENCH_CACHE);
  fs::create_directories(cache);
  const std::string path = (cache / "report-20x100k.db").string();
  if (!fs::exists(path)) {
    const auto t = Clock::now();
    parity::storage::Database db(path);
    fill(db);
    std::printf("wrote %d runs x %lld steps to %s in %.1f s (once)\n", kRuns,
                static_cast<long long>(kSteps), path.c_str(), seconds_since(t));
  }
  parity::storage::Database db(path, parity::storage::OpenMode::kReadOnly);
  std::vector<int64_t> others;
  for (int64_t id = 2; id <= kRuns; ++id) others.push_back(id);

  for (int round = 0; round < 3; ++round) {
    const auto t0 = Clock::now();
    const parity::report::Report report = parity::report::build_report(db, 1, others);
    const double built = seconds_since(t0);
    const auto t1 = Clock::now();
    const std::string html = parity::report::report_html(report);
    const double html_s = seconds_since(t1);
    const auto t2 = Clock::now();
    std::ostringstream csv;
    parity::report::writer_named("csv")->write(report, csv);
    const double csv_s = seconds_since(t2);
    const auto t3 = Clock::now();
    const std::string out = (cache / "report-20x100k.html").string();
    parity::report::write_report_file(report, out);
    const double file_s = seconds_since(t3);
    size_t drawn = 0;
    for (const auto& c : report.curves) drawn += c.drawn.size();
    std::printf(
        "round %d: build %.3f s (read + verdict + decimation), HTML %.3f s (%.2f MB), CSV %.3f s, "
        "file %.3f s; total %.3f s; %zu points drawn of %lld\n",
        round + 1, built, html_s, static_cast<double>(html.size()) / 1e6, csv_s, file_s,
        built + html_s + file_s, drawn, static_cast<long long>(kRuns * kSteps));
  }
  return 0;
}
