#include <parity/ui/chart/curve_loader.h>


namespace parity::ui {

CurveLoader::CurveLoader(QObject* parent) : QObject(parent) {
  qRegisterMetaType<CurveFetch>();
  qRegisterMetaType<CurveFetchRequest>();
}

CurveLoader::~CurveLoader() = default;

void CurveLoader::openDatabase(const QString& path) {
  db_.reset();
  const std::string file = path.toStdString();
  // It only reads: a database this process cannot write (a read-only mount, another user's
  // file) is read-only here too, as the runs' list opens it (a read-write open failed there, and
  // the chart stayed empty beside a full list).
  try {
    db_ = std::make_unique<storage::Database>(file, storage::viewing_mode(file));
  } catch (const std::exception& e) {
    emit fetchFailed(latest_.load(), QString::fromStdString(e.what()));
  }
}

void CurveLoader::fetch(quint64 token, const CurveFetchRequest& request) {
  CurveFetch result;
  if (!db_) {
    emit fetched(token, result);
    return;
  }
  try {
    for (int64_t runId : request.rankRuns) {
      if (token < latest_.load()) return;  // stale: the UI no longer wants this
      result.ranks.push_back({runId, db_->ranks(runId)});
    }
    for (const CurveRequest& r : request.curves) {
      if (token < latest_.load()) return;
      CurveChunk chunk{r.runId, r.rank, db_->steps(r.runId, r.rank, r.afterStep)};
      if (!chunk.rows.empty()) result.chunks.push_back(std::move(chunk));
    }
  } catch (const std::exception& e) {
    emit fetchFailed(token, QString::fromStdString(e.what()));
    return;
  }
  emit fetched(token, result);
}

}  // namespace parity::ui
