#pragma once
/// The one shape of "a QObject worker on a thread" in ui/: WorkerThread<Worker> creates the
/// worker, moves it to a QThread of its own and starts the thread; its owner connects to the
/// worker's signals itself (they cross threads, so they arrive queued on the owner's thread) and
/// calls the worker's slots through post(), a queued call. Nothing is forwarded by hand: the
/// worker's header is the one list of what it does and says.
/// Shutdown: stop() (also the destructor) quits the thread's event loop and waits for it; the
/// worker is deleted on its own thread as the thread finishes. Calls still queued may be dropped
/// (flush() first where they matter); a worker with a long call to cut short is told first,
/// through a token or flag of its own that is thread-safe.
/// Thread affinity: create, post, stop and destroy on the owner's (UI) thread; worker() may be
/// used there only for connections and for the worker's documented thread-safe members.

#include <QMetaObject>
#include <QObject>
#include <QString>
#include <QThread>
#include <utility>

namespace parity::ui {

template <typename Worker>
class WorkerThread {
 public:
  /// Starts the thread (named `name`, as `ps -L` and debuggers show it) with a new Worker.
  explicit WorkerThread(const QString& name) : worker_(new Worker) {
    thread_.setObjectName(name);
    worker_->moveToThread(&thread_);
    QObject::connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_.start();
  }
  ~WorkerThread() { stop(); }
  WorkerThread(const WorkerThread&) = delete;
  WorkerThread& operator=(const WorkerThread&) = delete;

  /// For connections to its signals and for its thread-safe members; call its slots by post().
  Worker* worker() const { return worker_; }

  /// Queues `(worker->*method)(args...)` on the worker's thread; the arguments are copied.
  template <typename Method, typename... Args>
  void post(Method method, Args... args) {
    QMetaObject::invokeMethod(
        worker_, [w = worker_, method, args...] { (w->*method)(args...); }, Qt::QueuedConnection);
  }

  /// Waits until the worker has done everything posted so far (before quitting).
  void flush() {
    if (thread_.isRunning())
      QMetaObject::invokeMethod(
          worker_, [] {}, Qt::BlockingQueuedConnection);
  }

  /// Quits the thread's event loop (the call running ends first) and waits for it.
  void stop() {
    thread_.quit();
    thread_.wait();
  }

 private:
  QThread thread_;
  Worker* worker_;
};

}  // namespace parity::ui
