#include <parity/ui/import/run_importer.h>
#include <parity/ui/runs/run_launcher.h>

#include <QProcess>
#include <QRegularExpression>

namespace parity::ui {

namespace {

constexpr int kKillAfterMs = 5000;

// Ends a process: SIGTERM, then SIGKILL when it has not gone after a grace period.
void endProcess(QProcess* p) {
  if (!p || p->state() == QProcess::NotRunning) return;
  p->terminate();
  if (!p->waitForFinished(kKillAfterMs)) {
    p->kill();
    p->waitForFinished(1000);
  }
}

}  // namespace

RunImporter::RunImporter(QObject* parent) : QObject(parent) {}

RunImporter::~RunImporter() {
  for (QProcess* p : {preview_, import_}) {
    if (!p) continue;
    p->disconnect(this);
    endProcess(p);
  }
}

bool RunImporter::parseProgress(const QString& line, int* done, int* total, QString* name) {
  static const QRegularExpression re(QStringLiteral("^importing run (\\d+) of (\\d+): (.*)$"));
  const QRegularExpressionMatch m = re.match(line);
  if (!m.hasMatch()) return false;
  *done = m.captured(1).toInt();
  *total = m.captured(2).toInt();
  *name = m.captured(3);
  return true;
}

void RunImporter::preview(const QStringList& paths) {
  if (preview_) {
    preview_->disconnect(this);
    preview_->kill();
    preview_->deleteLater();
    preview_ = nullptr;
  }
  const QString cli = RunLauncher::findCli();
  if (cli.isEmpty()) {
    emit previewReady({}, 0, tr("parity-cli was not found (set PARITY_CLI)"));
    return;
  }
  auto* p = new QProcess(this);
  preview_ = p;
  connect(p, &QProcess::finished, this, [this, p](int exitCode) {
    if (p != preview_) return;
    preview_ = nullptr;
    p->deleteLater();
    const QString out = QString::fromUtf8(p->readAllStandardOutput());
    const QString err = QString::fromUtf8(p->readAllStandardError()).trimmed();
    // Each run's listing starts at the line's first column; its facts and notes are indented.
    int runs = 0;
    for (const QString& line : out.split('\n'))
      if (!line.isEmpty() && !line.front().isSpace()) ++runs;
    QString problem;
    if (exitCode != 0 || runs == 0) {
      problem = err.isEmpty() ? tr("no runs found") : err;
      problem.remove(QRegularExpression(QStringLiteral("^parity-cli: ")));
    }
    emit previewReady(out, exitCode == 0 ? runs : 0, problem);
  });
  p->start(cli, QStringList{QStringLiteral("import"), QStringLiteral("--dry-run")} + paths);
}

bool RunImporter::start(const QString& db, const QStringList& paths, bool follow) {
  if (import_) return false;
  const QString cli = RunLauncher::findCli();
  if (cli.isEmpty()) {
    emit failed(tr("parity-cli was not found beside the window or on PATH (set PARITY_CLI)"));
    return false;
  }
  auto* p = new QProcess(this);
  import_ = p;
  paths_ = paths;
  stdout_.clear();
  stderr_.clear();
  partial_.clear();
  total_ = 0;
  following_ = false;
  stopped_ = false;
  connect(p, &QProcess::readyReadStandardOutput, this,
          [this, p] { stdout_ += QString::fromUtf8(p->readAllStandardOutput()); });
  connect(p, &QProcess::readyReadStandardError, this, &RunImporter::readImportOutput);
  connect(p, &QProcess::finished, this, [this](int exitCode) { onImportFinished(exitCode); });
  connect(p, &QProcess::errorOccurred, this, [this, p](QProcess::ProcessError e) {
    if (e != QProcess::FailedToStart || p != import_) return;
    import_ = nullptr;
    p->deleteLater();
    emit failed(tr("parity-cli could not be started: %1").arg(p->errorString()));
  });
  QStringList args{QStringLiteral("import"), QStringLiteral("--db"), db};
  if (follow) args << QStringLiteral("--follow");
  p->start(cli, args + paths);
  return true;
}

void RunImporter::readImportOutput() {
  if (!import_) return;
  partial_ += QString::fromUtf8(import_->readAllStandardError());
  int nl;
  while ((nl = partial_.indexOf('\n')) >= 0) {
    const QString line = partial_.left(nl);
    partial_.remove(0, nl + 1);
    int done = 0, total = 0;
    QString name;
    if (parseProgress(line, &done, &total, &name)) {
      total_ = total;
      emit progress(done, total, name);
    } else if (line.startsWith(QStringLiteral("following "))) {
      following_ = true;
      emit following(total_);
    } else if (!line.startsWith(QStringLiteral("found "))) {
      stderr_ += line + '\n';
    }
  }
}

void RunImporter::onImportFinished(int exitCode) {
  QProcess* p = import_;
  if (!p) return;
  readImportOutput();
  stdout_ += QString::fromUtf8(p->readAllStandardOutput());
  import_ = nullptr;
  following_ = false;
  p->deleteLater();
  QString problems = stderr_.trimmed();
  problems.remove(
      QRegularExpression(QStringLiteral("^parity-cli: "), QRegularExpression::MultilineOption));
  // A follow ended by stop() exits 0 after its SIGTERM; a crash reads as failed.
  const int code = p->exitStatus() == QProcess::CrashExit ? -1 : exitCode;
  emit finished(code, stdout_.trimmed(), problems);
}

void RunImporter::stop() {
  if (!import_) return;
  stopped_ = true;
  endProcess(import_);
}

}  // namespace parity::ui
