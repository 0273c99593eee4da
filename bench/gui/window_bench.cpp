// The window on a big database (1,000 runs x 10,000 steps = 10 million step rows unless RUNS and
// STEPS say otherwise): how long until it is open (the runs table listed, the newest runs'
// curves loaded and drawn), and what one poll of the runs table costs, the full reread it
// used to do every 500 ms beside RunsPoller's, for the same database states (paired numbers).
// Usage: parity_bench_window [RUNS STEPS]. Runs offscreen unless QT_QPA_PLATFORM says otherwise.
#include <parity/storage/runs_poller.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/window/main_window.h>

#include <QApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include "bench_database.h"

namespace {

using parity::storage::Database;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

bool waitFor(const std::function<bool()>& done, int timeoutMs = 60000) {
  QElapsedTimer clock;
  clock.start();
  while (!done()) {
    if (clock.elapsed() > timeoutMs) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  }
  return true;
}

struct OpenTimes {
  double constructed = 0, listed = 0, drawn = 0;
};

OpenTimes openWindow(const QString& path, int runs) {
  OpenTimes t;
  QElapsedTimer clock;
  clock.start();
  parity::ui::MainWindowOptions options;
  options.quiet = true;
  options.useSettings = false;
  parity::ui::MainWindow window(options);
  window.openDatabase(path);
  window.resize(1600, 1000);
  window.show();
  t.constructed = clock.nsecsElapsed() / 1e6;
  if (!waitFor([&] { return window.runsModel()->rowCount() >= runs; })) {
    std::fprintf(stderr, "the runs were never listed\n");
    std::exit(1);
  }
  t.listed = clock.nsecsElapsed() / 1e6;
  if (!waitFor([&] { return window.isSettled(false); })) {
    std::fprintf(stderr, "the chart never settled\n");
    std::exit(1);
  }
  window.repaint();
  t.drawn = clock.nsecsElapsed() / 1e6;
  return t;
}

// Mean milliseconds of `poll` over `n` calls, `between` run before each (untimed).
double timePolls(int n, const std::function<void()>& between, const std::function<void()>& poll) {
  double total = 0;
  for (int i = 0; i < n; ++i) {
    between();
    QElapsedTimer t;
    t.start();
    poll();
    total += t.nsecsElapsed() / 1e6;
  }
  return total / n;
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  const int runs = argc > 2 ? std::atoi(argv[1]) : 1000;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 10000;
  const QString path = parity::bench::bigDatabase(PARITY_BENCH_CACHE, runs, steps);
  std::printf("%d runs x %d steps (%lld step rows)\n", runs, steps,
              static_cast<long long>(runs) * steps);

  std::vector<double> constructed, listed, drawn;
  for (int i = 0; i < 3; ++i) {
    const OpenTimes t = openWindow(path, runs);
    constructed.push_back(t.constructed);
    listed.push_back(t.listed);
    drawn.push_back(t.drawn);
    std::printf("window open #%d: shown %.0f ms, %d runs listed %.0f ms, curves drawn %.0f ms\n",
                i + 1, t.constructed, runs, t.listed, t.drawn);
  }
  std::printf("window open (median of 3): runs listed %.0f ms, newest runs' curves drawn %.0f ms\n",
              median(listed), median(drawn));

  // The poll, on a connection of its own as the window's database thread has, while another
  // connection (a launcher, parity-cli) writes. "before" is what every 500 ms poll did until now:
  // reconcile_orphaned_runs() and list_runs(), then RunsModel::setRuns() with the whole list.
  Database reader(path.toStdString());
  Database writer(path.toStdString());
  parity::ui::RunsModel beforeModel, afterModel;
  beforeModel.setRuns(reader.list_runs());
  afterModel.setRuns(reader.list_runs());
  double clock = 0;  // the window polls every 500 ms; so does this clock, whatever the polls cost
  parity::storage::RunsPoller poller(reader, [&] { return clock; });
  poller.poll();
  auto before = [&] {
    reader.reconcile_orphaned_runs();
    beforeModel.setRuns(reader.list_runs());
  };
  auto after = [&] {
    clock += 0.5;
    const parity::storage::RunsUpdate u = poller.poll();
    afterModel.updateRuns(u.changed, QList<qint64>(u.removed.begin(), u.removed.end()));
  };
  auto nothing = [] {};
  const int live = static_cast<int>(writer.create_run("live", "{}"));
  writer.set_started(live, 1000000);
  int64_t next = 1;
  auto record = [&] {  // a running run's 50 new steps, one commit, as the step writer does
    std::vector<parity::storage::StepRow> rows;
    for (int i = 0; i < 50; ++i, ++next)
      rows.push_back({live, next, -1, 0, next * 64, 1.0, 0.01, 0});
    writer.append_steps(rows);
  };
  // Notes new to the cached file (SQLite writes nothing for an update to the same value).
  const std::string tag = std::to_string(QDateTime::currentMSecsSinceEpoch());
  int note = 0;
  auto editNote = [&] {
    writer.set_notes(1 + note % runs, "note " + tag + "-" + std::to_string(note));
    ++note;
  };
  const int n = 20;
  after();  // sees the live run
  std::printf("per poll (mean of %d)                      before      after\n", n);
  const double b0 = timePolls(n, nothing, before), a0 = timePolls(n, nothing, after);
  std::printf("  nothing changed                       %7.2f ms  %7.3f ms\n", b0, a0);
  const double b1 = timePolls(n, record, before), a1 = timePolls(n, record, after);
  std::printf("  one run recording 50 steps per poll   %7.2f ms  %7.3f ms\n", b1, a1);
  auto recordAndEdit = [&] {
    record();
    editNote();
  };
  const double b2 = timePolls(n, recordAndEdit, before), a2 = timePolls(n, recordAndEdit, after);
  std::printf("  ... and another process edits a note  %7.2f ms  %7.3f ms  (seen within %.0f s)\n",
              b2, a2, parity::storage::RunsPoller::kEndedCheckS);
  writer.finish_run(live, parity::storage::RunStatus::kFinished, "", 1);
  after();
  const double b3 = timePolls(n, editNote, before), a3 = timePolls(n, editNote, after);
  std::printf(
      "  nothing runs; a note edited per poll  %7.2f ms  %7.3f ms  (seen at the next poll)\n", b3,
      a3);
  const parity::storage::RunsPollerStats& s = poller.stats();
  std::printf(
      "after: %lld polls, %lld read nothing, %lld read every run, %lld checked the ended runs, "
      "%lld run rows read\n",
      static_cast<long long>(s.polls), static_cast<long long>(s.skipped),
      static_cast<long long>(s.full_reads), static_cast<long long>(s.ended_checks),
      static_cast<long long>(s.rows_read));
  writer.delete_run(live);
  return 0;
}
