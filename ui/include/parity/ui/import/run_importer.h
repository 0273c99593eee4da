#pragma once
/// Imports runs trained elsewhere (TensorBoard logdirs, trainer_state.json, MLflow stores, CSV
/// tables) as `parity-cli import` processes, as RunLauncher trains runs: never inside the window,
/// so a damaged file cannot take it down, and the same reader and messages as the CLI.
/// preview() lists what a path holds (`import --dry-run`); start() imports it, reporting
/// "importing run i of N" as progress, and with follow keeps reading runs still being written
/// until stop(). Each run is written in one transaction, so stopping mid-import leaves no half run.
/// Thread affinity: UI thread (QProcess signals arrive there).

#include <QObject>
#include <QString>
#include <QStringList>

class QProcess;

namespace parity::ui {

class RunImporter : public QObject {
  Q_OBJECT
 public:
  explicit RunImporter(QObject* parent = nullptr);
  ~RunImporter() override;

  /// Lists the runs under `paths` without importing (answers with previewReady). A preview still
  /// going is replaced.
  void preview(const QStringList& paths);
  /// Imports `paths` into the database at `db` (answers with progress, then finished; with
  /// `follow`, following once every run was read once, until stop()). False when an import is
  /// already going or parity-cli is not found (failed says why).
  bool start(const QString& db, const QStringList& paths, bool follow);
  /// Ends the import or the following (SIGTERM: the run being written is finished or not
  /// written at all).
  void stop();
  bool busy() const { return import_ != nullptr; }
  bool isFollowing() const { return following_; }
  /// Whether the import that finished last was ended by stop().
  bool wasStopped() const { return stopped_; }
  QStringList paths() const { return paths_; }

  /// Parses one of `parity-cli import`'s progress lines ("importing run 3 of 8: NAME"); false
  /// for any other line.
  static bool parseProgress(const QString& line, int* done, int* total, QString* name);

 signals:
  /// The dry run's listing (runs, their facts, notes); `runs` counts them; `error` is set (and
  /// `runs` 0) when the paths hold no run or cannot be read.
  void previewReady(const QString& listing, int runs, const QString& error);
  /// Run `done` of `total` is being read (1-based).
  void progress(int done, int total, const QString& name);
  /// Every run was read once and the import keeps following them.
  void following(int runs);
  /// The import ended: exit code 0 when every run was imported; `summary` is what it printed
  /// (one line per run), `problems` its errors.
  void finished(int exitCode, const QString& summary, const QString& problems);
  /// Nothing could be started.
  void failed(const QString& problem);

 private:
  void readImportOutput();
  void onImportFinished(int exitCode);

  QProcess* preview_ = nullptr;
  QProcess* import_ = nullptr;
  QStringList paths_;
  QString stdout_, stderr_, partial_;
  int total_ = 0;
  bool following_ = false;
  bool stopped_ = false;
};

}  // namespace parity::ui
