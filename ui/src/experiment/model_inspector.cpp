#include <parity/ui/experiment/model_inspector.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryFile>

namespace parity::ui {

ModelInspector::ModelInspector(QObject* parent) : QObject(parent) {}

ModelInspector::~ModelInspector() { cancel(); }

QString ModelInspector::findWorker(QStringList* searched) {
  QStringList candidates;
  const QString fromEnv = qEnvironmentVariable("PARITY_WORKER");
  if (!fromEnv.isEmpty()) candidates << fromEnv;
  const QString here = QCoreApplication::applicationDirPath();
  candidates << QDir(here).filePath("parity-worker")
             << QDir(here).filePath("../worker/parity-worker");
  for (const QString& c : candidates) {
    QFileInfo info(c);
    if (info.isFile() && info.isExecutable()) return info.canonicalFilePath();
  }
  if (searched) *searched = candidates << QStringLiteral("PATH");
  return QStandardPaths::findExecutable("parity-worker");
}

void ModelInspector::cancel() {
  ++token_;
  if (process_) {
    QProcess* p = process_;
    process_ = nullptr;
    p->disconnect(this);
    p->kill();
    p->waitForFinished(1000);
    p->deleteLater();
  }
  configFile_.reset();
}

void ModelInspector::inspect(const config::RunConfig& config) {
  cancel();
  QStringList searched;
  const QString worker = findWorker(&searched);
  if (worker.isEmpty()) {
    emit failed(tr("parity-worker was not found (looked in %1), so the model cannot be inspected")
                    .arg(searched.join(", ")));
    return;
  }
  configFile_ =
      std::make_unique<QTemporaryFile>(QDir::temp().filePath("parity-inspect-XXXXXX.json"));
  if (!configFile_->open()) {
    emit failed(tr("could not write a temporary config: %1").arg(configFile_->errorString()));
    configFile_.reset();
    return;
  }
  configFile_->write(QByteArray::fromStdString(config::to_json(config)));
  configFile_->flush();

  process_ = new QProcess(this);
  const quint64 token = token_;
  connect(process_, &QProcess::finished, this, [this, token](int exitCode) {
    if (token == token_) finish(exitCode);
  });
  connect(process_, &QProcess::errorOccurred, this, [this, token](QProcess::ProcessError e) {
    if (token != token_ || e != QProcess::FailedToStart) return;
    const QString why = process_->errorString();
    cancel();
    emit failed(tr("parity-worker could not be started: %1").arg(why));
  });
  process_->start(worker, {"--inspect-model", configFile_->fileName()});
}

void ModelInspector::finish(int exitCode) {
  const QByteArray out = process_->readAllStandardOutput();
  const QString err = QString::fromUtf8(process_->readAllStandardError()).trimmed();
  process_->deleteLater();
  process_ = nullptr;
  configFile_.reset();
  if (exitCode != 0) {
    const QStringList lines = err.split('\n', Qt::SkipEmptyParts);
    emit failed(lines.isEmpty() ? tr("parity-worker exited with code %1").arg(exitCode)
                                : lines.last().trimmed());
    return;
  }
  QJsonParseError parseError;
  const QJsonDocument doc = QJsonDocument::fromJson(out.trimmed(), &parseError);
  if (!doc.isObject()) {
    emit failed(tr("parity-worker's answer is not JSON: %1").arg(parseError.errorString()));
    return;
  }
  const QJsonObject o = doc.object();
  ModelInfo info;
  info.parameters = o.value("parameters").toInteger();
  for (const QJsonValue& kind : o.value("layer_kinds").toArray())
    info.layerKinds << kind.toString();
  info.dropout = o.value("dropout").toBool();
  info.batchNorm = o.value("batch_norm").toBool();
  emit inspected(info);
}

}  // namespace parity::ui
