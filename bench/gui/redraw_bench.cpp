// Redraw time of the loss chart for 20 runs x 100k steps: per-pixel min/max decimation of every
// series for the visible range (ui's decimate_min_max), replace() into Qt Charts, and the
// paint. Goal: <= 16 ms a frame. Runs offscreen unless QT_QPA_PLATFORM says otherwise.
// Prints one line per scenario: the redraw alone, and the frame (redraw + synchronous paint).
// An argument runs only the scenarios whose name contains it (for profiling one, e.g. "zoom").
#include <parity/ui/chart/chart_panel.h>
#include <parity/ui/chart/chart_view.h>
#include <parity/ui/chart/loss_chart.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QtCharts/QChart>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <vector>

namespace {

constexpr int kRuns = 20;
constexpr int64_t kSteps = 100000;
constexpr int kFrames = 30;

std::vector<parity::storage::StepRow> makeSteps(int64_t id, int64_t from, int64_t to) {
  std::vector<parity::storage::StepRow> rows;
  rows.reserve(to - from + 1);
  uint64_t noise = 0x9e3779b97f4a7c15ull * id + from;
  for (int64_t s = from; s <= to; ++s) {
    noise = noise * 6364136223846793005ull + 1442695040888963407ull;
    const double jitter = static_cast<double>(noise >> 11) / 9007199254740992.0 - 0.5;
    parity::storage::StepRow r;
    r.run_id = id;
    r.step = s;
    r.samples = s * 64 * (1 + id % 3);
    r.epoch = static_cast<double>(s) / kSteps * 10;
    r.loss = 0.1 + 2.3 * std::exp(-s / (8000.0 + 500 * id)) + 0.08 * jitter;
    r.time_s = s * 0.004;
    rows.push_back(r);
  }
  return rows;
}

// This thread's CPU time: on a machine shared with other jobs it moves less than the wall clock.
double cpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct Stats {
  double mean = 0, p95 = 0;
};

Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  Stats s;
  for (double x : v) s.mean += x;
  s.mean /= v.size();
  s.p95 = v[static_cast<size_t>(0.95 * (v.size() - 1))];
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  const char* only = argc > 1 ? argv[1] : nullptr;
  parity::ui::ChartPanel panel;
  panel.resize(1600, 900);
  panel.show();
  QApplication::processEvents();
  parity::ui::LossChart* chart = panel.lossChart();

  std::vector<parity::ui::ChartRun> runs;
  for (int64_t id = 1; id <= kRuns; ++id) {
    chart->store().append(id, -1, makeSteps(id, 1, kSteps));
    chart->store().setRanks(id, {-1});
    runs.push_back({id, QString("run %1").arg(id), parity::storage::RunStatus::kFinished, kSteps});
  }
  chart->setRuns(runs);
  chart->setXAxis(parity::analysis::Axis::kStep);
  chart->redrawNow();
  QApplication::processEvents();
  const QRectF plot = chart->chart()->plotArea();
  std::printf(
      "%d runs x %lld steps (%zu points stored); plot %.0f x %.0f px; EMA weight %.2f; "
      "point budget %d\n",
      kRuns, static_cast<long long>(kSteps), chart->store().pointCount(), plot.width(),
      plot.height(), chart->smoothing(), chart->pointBudget());

  // Times one frame: `change` (which redraws, as the window would) and a synchronous paint.
  auto measure = [&](const char* what, const std::function<void(int)>& change) {
    if (only && !std::strstr(what, only)) return;
    std::vector<double> redraw, frame, cpu;
    for (int f = 0; f < kFrames; ++f) {
      QElapsedTimer t;
      t.start();
      const double cpu0 = cpuMs();
      change(f);
      redraw.push_back(t.nsecsElapsed() / 1e6);
      panel.view()->viewport()->repaint();
      frame.push_back(t.nsecsElapsed() / 1e6);
      cpu.push_back(cpuMs() - cpu0);
    }
    const Stats r = stats(redraw), fr = stats(frame), c = stats(cpu);
    std::printf(
        "%-46s redraw %6.2f ms (p95 %6.2f)  frame %6.2f ms (p95 %6.2f, cpu %6.2f)  %6d points\n",
        what, r.mean, r.p95, fr.mean, fr.p95, c.mean, chart->drawnPoints());
  };
  auto redraw = [&](int) { chart->redrawNow(); };
  auto zoom = [&](int f) { chart->zoomAt(f % 10 < 5 ? 0.8 : 1.25, 1.0, plot.center()); };

  measure("unchanged data (periodic redraw)", redraw);
  // A live run: the last one keeps growing (stored rows stay sorted by step).
  runs.back().status = parity::storage::RunStatus::kRunning;
  chart->setRuns(runs);
  int64_t grown = kSteps;
  measure("live: 1 of 20 runs grows 50 steps/frame", [&](int) {
    chart->store().append(kRuns, -1, makeSteps(kRuns, grown + 1, grown + 50));
    grown += 50;
    chart->redrawNow();
  });
  runs.back().status = parity::storage::RunStatus::kFinished;
  chart->setRuns(runs);
  measure("zooming (wheel around the centre)", zoom);
  measure("  ...full-detail redraw once zooming pauses", [&](int f) {
    chart->zoomAt(f % 10 < 5 ? 0.8 : 1.25, 1.0, plot.center());
    chart->redrawNow();  // what the refine timer does 250 ms after the last wheel step
  });
  chart->zoomAt(0.25, 1.0, plot.center());
  measure("panning a 1/4 zoom", [&](int f) { chart->panPixels(QPointF(f % 2 ? 40 : -40, 0)); });
  chart->resetZoom();
  measure("axis change (step, samples, epoch, wall time in turn)", [&](int f) {
    chart->setXAxis(parity::analysis::kAxes[(f + 1) % 4]);
    chart->redrawNow();
  });
  chart->setXAxis(parity::analysis::Axis::kStep);
  chart->redrawNow();
  chart->setSmoothing(0);
  measure("raw curves only (no EMA), zooming", zoom);
  chart->setSmoothing(0.6);
  chart->resetZoom();
  chart->setPointBudget(0);
  std::printf("without the point budget (strict per-pixel columns for every line):\n");
  measure("unchanged data, per-pixel", redraw);
  measure("zooming, per-pixel", zoom);
  return 0;
}
