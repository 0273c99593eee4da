// Time from starting `parity` to a drawn window, on a database of 8 runs x 2000 steps (or, with
// --big, the 1,000 runs x 10,000 steps of bench_database.h): the process's own first-paint time
// (PARITY_PRINT_STARTUP) and the wall time until --screenshot has listed, loaded and drawn every
// run and exited. Median of 5 starts. Usage: parity_bench_startup [--big] [PARITY_EXECUTABLE].
#include <parity/storage/database.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "bench_database.h"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? NAN : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  QCoreApplication app(argc, argv);
  QStringList args = app.arguments().mid(1);
  const bool big = args.removeAll("--big") > 0;
  const QString exe = !args.isEmpty() ? args.front() : QString(PARITY_GUI_EXE);
  QTemporaryDir dir;
  const QString db =
      big ? parity::bench::bigDatabase(PARITY_BENCH_CACHE, 1000, 10000) : dir.filePath("bench.db");
  std::printf("%s\n", big ? "1000 runs x 10000 steps" : "8 runs x 2000 steps");
  if (!big) {
    parity::storage::Database d(db.toStdString());
    for (int r = 0; r < 8; ++r) {
      const int64_t id = d.create_run("run " + std::to_string(r), "{}");
      d.set_started(id, 2000);
      std::vector<parity::storage::StepRow> rows;
      for (int64_t s = 1; s <= 2000; ++s) {
        rows.push_back({id, s, -1, s / 2000.0, s * 64, 2.0 / std::sqrt(1.0 + s), 0.05, s * 0.01});
      }
      d.append_steps(rows);
      d.finish_run(id, parity::storage::RunStatus::kFinished, "", 1000);
    }
  }
  std::vector<double> firstPaint, drawn, wall;
  const QRegularExpression paintRe("startup_to_first_paint_ms ([0-9.]+)");
  const QRegularExpression savedRe("saved after ([0-9.]+) s");
  for (int i = 0; i < 5; ++i) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!env.contains("QT_QPA_PLATFORM")) env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("PARITY_PRINT_STARTUP", "1");
    p.setProcessEnvironment(env);
    QElapsedTimer t;
    t.start();
    p.start(exe, {"--db", db, "--screenshot", dir.filePath("shot.png"), "--timeout", "60"});
    if (!p.waitForFinished(90000) || p.exitCode() != 0) {
      std::fprintf(stderr, "parity failed: %s\n", p.readAllStandardError().constData());
      return 1;
    }
    wall.push_back(t.nsecsElapsed() / 1e6);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    if (auto m = paintRe.match(err); m.hasMatch()) firstPaint.push_back(m.captured(1).toDouble());
    if (auto m = savedRe.match(err); m.hasMatch()) drawn.push_back(m.captured(1).toDouble() * 1000);
  }
  std::printf("start to first paint of the window:        %7.1f ms (median of 5)\n",
              median(firstPaint));
  std::printf(
      "start to every run listed, loaded, drawn:  %7.1f ms (screenshot trigger; includes "
      "its 3 x 200 ms settle checks)\n",
      median(drawn));
  std::printf("whole process (start to exit):             %7.1f ms\n", median(wall));
  return 0;
}
