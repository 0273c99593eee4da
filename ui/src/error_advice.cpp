#include <parity/ui/error_advice.h>

#include <QMessageBox>
#include <cstdio>

namespace parity::ui {

namespace {

bool quiet = false;

bool has(const QString& text, std::initializer_list<const char*> words) {
  for (const char* w : words) {
    if (text.contains(QLatin1String(w), Qt::CaseInsensitive)) return true;
  }
  return false;
}

}  // namespace

void setQuietDialogs(bool on) { quiet = on; }
bool quietDialogs() { return quiet; }

Advice adviseOn(const QString& message) {
  const QString m = message.trimmed();
  if (has(m, {"fashion", "ubyte", "dataset"}) &&
      has(m, {"not found", "no such file", "missing", "cannot open", "could not open"})) {
    return {QObject::tr("The dataset could not be found: %1").arg(m),
            QObject::tr("Install the dataset-fashion-mnist package (scripts/install-deps.sh), or "
                        "point Experiment › Data path at a folder holding the four "
                        "*-ubyte.gz files.")};
  }
  if (has(m, {"address already in use", "port"}) && has(m, {"in use", "bind"})) {
    return {QObject::tr("The rendezvous port is already in use: %1").arg(m),
            QObject::tr("Another run or program holds that port. Stop it, or leave "
                        "MASTER_PORT unset so Parity picks a free port.")};
  }
  if (has(m, {"readonly", "read-only", "unable to open database", "permission denied",
              "not writable", "disk i/o"})) {
    return {QObject::tr("The database cannot be written: %1").arg(m),
            QObject::tr("Pick a writable location with File › New database, or fix the file's "
                        "and its folder's permissions.")};
  }
  if (has(m, {"database is locked", "busy"})) {
    return {QObject::tr("The database is busy: %1").arg(m),
            QObject::tr("Another program holds a long write lock on it. Wait, or close that "
                        "program; Parity retries on its own.")};
  }
  if (has(m, {"out of memory", "bad_alloc", "cannot allocate"})) {
    return {QObject::tr("A run ran out of memory: %1").arg(m),
            QObject::tr("Lower the per-device batch or the number of processes, or run fewer "
                        "setups at once.")};
  }
  if (has(m, {"parity-cli", "parity-worker"}) && has(m, {"not found", "no such file"})) {
    return {QObject::tr("A Parity program is missing: %1").arg(m),
            QObject::tr("Build parity-cli and parity-worker (ninja parity-cli parity-worker) so "
                        "they sit beside parity, or put them on PATH.")};
  }
  return {m.isEmpty() ? QObject::tr("The run failed without a message.") : m,
          QObject::tr("Hover the run's status in the Runs table for its error, fix the setup, and "
                      "launch it again.")};
}

void showProblem(QWidget* parent, const QString& title, const Advice& advice,
                 const QString& details) {
  if (quiet) {
    std::fprintf(stderr, "parity: %s: %s\n  fix: %s\n", qPrintable(title),
                 qPrintable(advice.problem), qPrintable(advice.fix));
    return;
  }
  auto* box = new QMessageBox(QMessageBox::Warning, title, advice.problem, QMessageBox::Ok, parent);
  box->setInformativeText(advice.fix);
  if (!details.isEmpty()) box->setDetailedText(details);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->setWindowModality(Qt::NonModal);
  box->show();
}

}  // namespace parity::ui
