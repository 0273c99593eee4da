// WorkerThread, the one shape of a worker QObject on a thread in ui/: calls posted to the worker
// run on its own named thread, in order; flush() waits for them; stop() ends the thread and the
// worker is deleted on it.
#include <gtest/gtest.h>
#include <parity/ui/threads/worker_thread.h>

#include <QThread>
#include <atomic>
#include <vector>

namespace parity::ui {
namespace {

// No signals or slots needed: post() calls any member function.
class Probe : public QObject {
 public:
  void record(int value, const QString& tag) {
    values.push_back(value);
    tags.push_back(tag);
    ranOn = QThread::currentThread();
  }
  std::vector<int> values;
  std::vector<QString> tags;
  QThread* ranOn = nullptr;
};

TEST(WorkerThread, PostedCallsRunInOrderOnTheWorkersNamedThread) {
  WorkerThread<Probe> worker("parity-probe");
  Probe* probe = worker.worker();
  EXPECT_NE(probe->thread(), QThread::currentThread());
  EXPECT_EQ(probe->thread()->objectName(), "parity-probe");
  EXPECT_TRUE(probe->thread()->isRunning());
  for (int i = 0; i < 5; ++i) worker.post(&Probe::record, i, QString("call %1").arg(i));
  worker.flush();  // the posted calls are done when it returns
  EXPECT_EQ(probe->values, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(probe->tags.back(), "call 4");
  EXPECT_EQ(probe->ranOn, probe->thread());
  EXPECT_NE(probe->ranOn, QThread::currentThread());
}

TEST(WorkerThread, StopEndsTheThreadAndDeletesTheWorkerOnIt) {
  WorkerThread<Probe> worker("parity-probe");
  QThread* thread = worker.worker()->thread();
  std::atomic<QThread*> deletedOn{nullptr};
  QObject::connect(
      worker.worker(), &QObject::destroyed, worker.worker(),
      [&deletedOn] { deletedOn = QThread::currentThread(); }, Qt::DirectConnection);
  worker.stop();
  EXPECT_TRUE(thread->isFinished());
  EXPECT_EQ(deletedOn.load(), thread);
  worker.stop();  // again, as the destructor does: nothing left to do
}

}  // namespace
}  // namespace parity::ui
