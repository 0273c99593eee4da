#pragma once
/// Asks `parity-worker --inspect-model CONFIG.json` what a config's model is (parameter count,
/// layer kinds, dropout, batch norm), since the window never loads LibTorch. Runs the worker as an
/// asynchronous QProcess on a temporary config file; a new request kills the one in flight, and a
/// token drops the answer of a request that was overtaken.
/// Thread affinity: UI thread.

#include <parity/config/run_config.h>

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>

class QProcess;
class QTemporaryFile;

namespace parity::ui {

struct ModelInfo {
  qint64 parameters = 0;
  QStringList layerKinds;
  bool dropout = false;
  bool batchNorm = false;
};

class ModelInspector : public QObject {
  Q_OBJECT
 public:
  explicit ModelInspector(QObject* parent = nullptr);
  ~ModelInspector() override;

  /// parity-worker: $PARITY_WORKER, beside this executable, then on PATH; empty when not found
  /// (`searched` gets the places looked in).
  static QString findWorker(QStringList* searched = nullptr);

  /// Starts inspecting `config` (a full, valid config); the answer comes as inspected() or
  /// failed().
  void inspect(const config::RunConfig& config);
  /// Drops the request in flight, if any, without an answer.
  void cancel();
  bool busy() const { return process_ != nullptr; }

 signals:
  void inspected(const parity::ui::ModelInfo& info);
  /// The worker's one error line, or why it could not run.
  void failed(const QString& message);

 private:
  void finish(int exitCode);

  QProcess* process_ = nullptr;
  std::unique_ptr<QTemporaryFile> configFile_;
  quint64 token_ = 0;
};

}  // namespace parity::ui
