#pragma once
// Helpers shared by the window's tests: a temporary database, synthetic runs, event-loop waits.

#include <parity/config/run_config.h>
#include <parity/storage/database.h>
#include <parity/test_support/synthetic_runs.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QString>
#include <QTemporaryDir>
#include <QThread>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace parity::ui::test {

/// Processes events until `done` or the timeout; returns done().
inline bool waitFor(const std::function<bool()>& done, int timeoutMs = 10000) {
  QElapsedTimer clock;
  clock.start();
  while (!done()) {
    if (clock.elapsed() > timeoutMs) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(5);
  }
  return true;
}

/// A small setup parity-cli trains in seconds: linear regression on synthetic data, plain SGD.
inline config::RunConfig smallRegression(const char* label, int processes, int64_t batch,
                                         int64_t samples = 512, int epochs = 1) {
  config::RunConfig c;
  c.label = label;
  c.dataset = config::DatasetKind::kSyntheticRegression;
  c.task = config::Task::kRegression;
  c.model = config::ModelKind::kLinear;
  c.synthetic_samples = samples;
  c.optimizer = config::OptimizerKind::kSgd;
  c.lr = 0.05;
  c.epochs = epochs;
  c.num_processes = processes;
  c.per_device_batch_size = batch;
  return c;
}

using parity::test::addFinishedRun;
using parity::test::syntheticSteps;

}  // namespace parity::ui::test
