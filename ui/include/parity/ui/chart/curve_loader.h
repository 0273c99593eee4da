#pragma once
/// Reads step rows off the UI thread.
/// Thread affinity: a CurveLoader lives in its own thread (LossChart's WorkerThread) with its own
/// Database connection; call its slots through queued calls only (WorkerThread::post).
/// setLatestToken() is the one thread-safe call: it lets a fetch already running stop early once
/// the UI has moved on (DB Browser's token).

#include <parity/storage/database.h>

#include <QMetaType>
#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <vector>

namespace parity::ui {

/// Rows of one (run, rank) after a step.
struct CurveRequest {
  int64_t runId = 0;
  int rank = -1;
  int64_t afterStep = 0;
};

struct CurveChunk {
  int64_t runId = 0;
  int rank = -1;
  std::vector<storage::StepRow> rows;
};

struct RankList {
  int64_t runId = 0;
  std::vector<int> ranks;
};

struct CurveFetch {
  std::vector<CurveChunk> chunks;
  std::vector<RankList> ranks;
};

struct CurveFetchRequest {
  std::vector<CurveRequest> curves;
  std::vector<int64_t> rankRuns;  ///< runs whose stored ranks to list
};

class CurveLoader : public QObject {
  Q_OBJECT
 public:
  explicit CurveLoader(QObject* parent = nullptr);
  ~CurveLoader() override;

  /// Thread-safe: results of fetches with a smaller token are no longer wanted.
  void setLatestToken(quint64 token) { latest_.store(token); }

 public slots:
  void openDatabase(const QString& path);
  void fetch(quint64 token, const parity::ui::CurveFetchRequest& request);

 signals:
  void fetched(quint64 token, const parity::ui::CurveFetch& result);
  void fetchFailed(quint64 token, const QString& message);

 private:
  std::unique_ptr<storage::Database> db_;
  std::atomic<quint64> latest_{0};
};

}  // namespace parity::ui

Q_DECLARE_METATYPE(parity::ui::CurveFetch)
Q_DECLARE_METATYPE(parity::ui::CurveFetchRequest)
