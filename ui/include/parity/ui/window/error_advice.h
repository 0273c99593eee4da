#pragma once
/// Turns an error message from a run, the database or the launcher into a dialog that names the
/// problem and the fix. Thread affinity: UI thread.

#include <QString>

class QWidget;

namespace parity::ui {

struct Advice {
  QString problem;
  QString fix;
};

/// Recognises the usual failures (missing dataset, unwritable database, port in use, parity-cli
/// missing, out of memory) and suggests the fix; otherwise a generic next step.
Advice adviseOn(const QString& message);
/// The same for an operation of the window's own on a file or the database (an export, a
/// rename, a delete): its advice is about that file, never a run's ("Hover the run's status"
/// was offered for an export to a folder that does not exist).
Advice adviseOnOperation(const QString& message);

/// A non-blocking warning box with the problem, the fix and the raw message as details. A problem
/// whose title matches a box still open under the same parent joins that box (a repeated one is
/// counted), so problems that come together give one dialog, not one each. With quiet mode on
/// (tests, --screenshot), prints to stderr instead.
void showProblem(QWidget* parent, const QString& title, const Advice& advice,
                 const QString& details = {});
void setQuietDialogs(bool quiet);
bool quietDialogs();

}  // namespace parity::ui
