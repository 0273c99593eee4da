// Redraw time of the loss chart for 20 runs x 100k steps: per-pixel min/max decimation of every
// series for the visible range, replace() into Qt Charts, and the paint. Goal: <= 16 ms a frame.
// Runs offscreen unless QT_QPA_PLATFORM says otherwise. Prints one line per measurement.
#include <QApplication>
#include <QElapsedTimer>
#include <QtCharts/QChart>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <parity/ui/chart_panel.h>
#include <parity/ui/chart_view.h>
#include <parity/ui/loss_chart.h>

namespace {

constexpr int kRuns = 20;
constexpr int64_t kSteps = 100000;
constexpr int kFrames = 40;

std::vector<parity::storage::StepRow> makeRun(int64_t id) {
  std::vector<parity::storage::StepRow> rows(kSteps);
  uint64_t noise = 0x9e3779b97f4a7c15ull * id;
  for (int64_t s = 1; s <= kSteps; ++s) {
    noise = noise * 6364136223846793005ull + 1442695040888963407ull;
    const double jitter = static_cast<double>(noise >> 11) / 9007199254740992.0 - 0.5;
    auto& r = rows[s - 1];
    r.run_id = id;
    r.step = s;
    r.samples = s * 64 * (1 + id % 3);
    r.epoch = static_cast<double>(s) / kSteps * 10;
    r.loss = 0.1 + 2.3 * std::exp(-s / (8000.0 + 500 * id)) + 0.08 * jitter;
    r.time_s = s * 0.004;
  }
  return rows;
}

struct Stats {
  double mean = 0, p95 = 0, max = 0;
};

Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  Stats s;
  for (double x : v) s.mean += x;
  s.mean /= v.size();
  s.p95 = v[static_cast<size_t>(0.95 * (v.size() - 1))];
  s.max = v.back();
  return s;
}

void report(const char* what, const Stats& s, int points) {
  std::printf("%-44s mean %6.2f ms  p95 %6.2f ms  max %6.2f ms  (%d points drawn)\n", what,
              s.mean, s.p95, s.max, points);
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  parity::ui::ChartPanel panel;
  panel.resize(1600, 900);
  panel.show();
  QApplication::processEvents();
  parity::ui::LossChart* chart = panel.lossChart();

  QElapsedTimer load;
  load.start();
  std::vector<parity::ui::ChartRun> runs;
  for (int64_t id = 1; id <= kRuns; ++id) {
    chart->store().append(id, -1, makeRun(id));
    chart->store().setRanks(id, {-1});
    runs.push_back({id, QString("run %1").arg(id), "finished", kSteps});
  }
  chart->setRuns(runs);
  std::printf("loaded %d runs x %lld steps (%zu points) in %.0f ms\n", kRuns,
              static_cast<long long>(kSteps), chart->store().pointCount(),
              load.nsecsElapsed() / 1e6);

  auto measure = [&](const char* what, bool paint, auto&& navigate) {
    std::vector<double> times;
    int points = 0;
    chart->redrawNow();  // warm-up: EMA and buffers
    QApplication::processEvents();
    for (int frame = 0; frame < kFrames; ++frame) {
      navigate(frame);
      QElapsedTimer t;
      t.start();
      chart->redrawNow();
      if (paint) panel.view()->viewport()->repaint();
      times.push_back(t.nsecsElapsed() / 1e6);
      points = 0;
      for (int n : chart->drawnPointCounts()) points += n;
    }
    report(what, stats(times), points);
  };
  const QRectF plot = chart->chart()->plotArea();
  auto fullRange = [&](int) { chart->resetZoom(); };
  auto zooming = [&](int frame) {
    // Zoom in and out around the middle, as a wheel would: decimation over changing ranges.
    chart->zoomAt(frame % 10 < 5 ? 0.7 : 1 / 0.7, 1.0, plot.center());
  };

  std::printf("plot area %.0f x %.0f px; smoothing %.2f\n", plot.width(), plot.height(),
              chart->smoothing());
  measure("decimate + replace, full range, EMA on", false, fullRange);
  measure("frame (decimate + paint), full range, EMA on", true, fullRange);
  measure("frame (decimate + paint), zooming, EMA on", true, zooming);
  chart->setSmoothing(0);
  chart->resetZoom();
  measure("frame (decimate + paint), full range, raw", true, fullRange);
  chart->setXAxis(parity::ui::XAxisKind::kSamples);
  measure("frame (decimate + paint), samples axis, raw", true, fullRange);
  return 0;
}
