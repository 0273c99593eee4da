#include <parity/ui/window/error_advice.h>

#include <QMessageBox>
#include <cstdio>

namespace parity::ui {

namespace {

bool quiet = false;

// A problem box's title, and what it holds, for the problems that join it.
constexpr char kTitleProperty[] = "parityProblemTitle";
constexpr char kProblemsProperty[] = "parityProblems";
constexpr char kFixesProperty[] = "parityFixes";

/// Each problem once, in order, with how many times it came when more than once.
QString summarise(const QStringList& problems) {
  QStringList lines, seen;
  for (const QString& p : problems) {
    if (seen.contains(p)) continue;
    seen << p;
    const int n = static_cast<int>(problems.count(p));
    lines << (n > 1 ? QObject::tr("%1 (%n times)", nullptr, n).arg(p) : p);
  }
  return lines.join('\n');
}

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

Advice adviseOnOperation(const QString& message) {
  const QString m = message.trimmed();
  if (has(m, {"for writing", "writing ", "cannot write", "could not write", "no such file",
              "not a directory"})) {
    return {m, QObject::tr("Check that the folder exists and is writable, or choose another.")};
  }
  const Advice known = adviseOn(m);
  if (known.fix != adviseOn(QString()).fix) return known;  // one of the usual failures
  return {m.isEmpty() ? QObject::tr("The operation failed without a message.") : m,
          QObject::tr("Try again; if it fails again, the message says what was refused.")};
}

void showProblem(QWidget* parent, const QString& title, const Advice& advice,
                 const QString& details) {
  if (quiet) {
    std::fprintf(stderr, "parity: %s: %s\n  fix: %s\n", qPrintable(title),
                 qPrintable(advice.problem), qPrintable(advice.fix));
    return;
  }
  // Problems of one kind that come together (three launches that cannot start) join the box
  // already open for them instead of stacking a box each.
  QMessageBox* box = nullptr;
  if (parent) {
    for (auto* open : parent->findChildren<QMessageBox*>(QString(), Qt::FindDirectChildrenOnly)) {
      if (open->isVisible() && open->property(kTitleProperty).toString() == title) box = open;
    }
  }
  if (!box) {
    box = new QMessageBox(QMessageBox::Warning, title, QString(), QMessageBox::Ok, parent);
    box->setProperty(kTitleProperty, title);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::NonModal);
  }
  QStringList problems = box->property(kProblemsProperty).toStringList();
  QStringList fixes = box->property(kFixesProperty).toStringList();
  problems << advice.problem;
  if (!fixes.contains(advice.fix)) fixes << advice.fix;
  box->setProperty(kProblemsProperty, problems);
  box->setProperty(kFixesProperty, fixes);
  box->setText(summarise(problems));
  box->setInformativeText(fixes.join("\n"));
  if (!details.isEmpty()) {
    const QString before = box->detailedText();
    box->setDetailedText(before.isEmpty() ? details : before + "\n\n" + details);
  }
  box->show();
}

}  // namespace parity::ui
