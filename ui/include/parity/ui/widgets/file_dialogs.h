#pragma once
/// The window's file dialogs. Every dialog of the window goes through these, never through
/// QFileDialog's static functions, because of SQLite's locks.
///
/// SQLite's locks on a database are POSIX advisory locks, and POSIX drops *every* lock a process
/// holds on a file when the process closes *any* descriptor to that file (SQLite's "How To Corrupt
/// Your Database Files", §2.2). Qt's dialog, listing a folder, types each file it cannot type by
/// its name by reading its first bytes (QMimeDatabase::MatchDefault): it opens and closes
/// `r.db-wal` and `r.db-shm`. The window's connection then holds no lock, the next parity-cli that
/// closes the database believes itself the last connection and deletes the WAL, and the window goes
/// on writing into a deleted file: its writes are lost. These dialogs type files by name alone and
/// use Qt's own (non-native) dialog, since a native dialog in the process (GTK's) would sniff files
/// too. Thread affinity: UI thread.

#include <QFileDialog>
#include <QString>

class QWidget;

namespace parity::ui {

enum class FileDialogKind { kOpenFile, kSaveFile, kFolder };

/// A modal dialog, not yet shown, whose file model never opens a file it lists. The caller owns
/// it; askPath() is the usual way in, this one is for tests and for dialogs that need more setup.
QFileDialog* newFileDialog(QWidget* parent, FileDialogKind kind, const QString& title,
                           const QString& path, const QString& filter = {});

/// Shows the dialog and returns the path chosen, or an empty string when cancelled.
QString askPath(QWidget* parent, FileDialogKind kind, const QString& title, const QString& path,
                const QString& filter = {});

}  // namespace parity::ui
