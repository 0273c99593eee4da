#pragma once
/// The runs table: one row per stored run, updated in place from each poll so selection and
/// scrolling survive. The label column is checkable: checked runs are drawn on the chart.
/// Thread affinity: UI thread.

#include <parity/storage/database.h>

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <QSet>
#include <functional>
#include <optional>
#include <vector>

namespace parity::ui {

class RunsModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    kId,
    kLabel,
    kStatus,
    kProgress,
    kSetup,
    kSpeed,
    kFinalLoss,
    kAccuracy,
    kSource,  ///< the data it trained on, or where it was imported from
    kNotes,
    kColumnCount
  };
  enum Role {
    kRunIdRole = Qt::UserRole + 1,
    kSortRole,
    kProgressRole,  ///< double in [0, 1], or -1 when unknown
    kStatusRole,    ///< the stored status string
  };

  explicit RunsModel(QObject* parent = nullptr);

  /// Replaces the rows with a poll's result: removed runs go, changed rows are updated, new
  /// runs are appended (and shown on the chart when autoShow is on).
  void setRuns(const std::vector<storage::RunRow>& runs);
  /// Applies one poll's changes (DatabaseWorker::runsChanged): `changed` rows are updated or
  /// appended, `removed` ids go; every other row stays as it is.
  void updateRuns(const std::vector<storage::RunRow>& changed, const QList<qint64>& removed);
  void clear();

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;

  const storage::RunRow* run(int row) const;
  const storage::RunRow* runById(qint64 id) const;
  int rowOf(qint64 id) const;
  const std::vector<storage::RunRow>& runs() const { return runs_; }

  /// Runs drawn on the chart.
  QList<qint64> shownRuns() const;
  /// Runs listed but not drawn, in table order: the chart's status counts them.
  QList<qint64> hiddenRuns() const;
  bool isShown(qint64 id) const { return shown_.contains(id); }
  /// The user's choice (a check box, Show or Hide): the runs that exist are drawn or hidden and
  /// shownChosen says so, for the window to keep it with the database.
  void setShown(qint64 id, bool shown);
  void setShown(const QList<qint64>& ids, bool shown);
  /// How many of the newest runs to show when a database is first listed, for the runs without
  /// a choice kept with it (setShownChoices).
  void setInitialShown(int count) { initialShown_ = count; }
  /// The choices kept with the database (run id -> drawn), read when it was opened: its first
  /// listing follows them, and the newest-runs rule only where the user never chose.
  void setShownChoices(const QHash<qint64, bool>& choices);

  /// For ETA and the live samples/s; tests inject a fixed clock.
  void setClock(std::function<double()> nowSeconds) { now_ = std::move(nowSeconds); }

  /// Other runs whose time running overlapped this one's (they shared the machine's cores).
  int sharedCoresWith(const storage::RunRow& r) const;
  /// Why a throughput of such a run reads low ("* ran at the same time as 1 other run: they
  /// shared the cores, ..."); empty when it ran alone. The runs table and the verdict show it.
  QString sharedCoresNote(const storage::RunRow& r) const;
  /// "1:05" style; empty for negative.
  static QString formatDuration(double seconds);

 signals:
  void shownRunsChanged();
  /// The user chose to draw (or hide) these runs; not emitted for runs shown by default.
  void shownChosen(const QList<qint64>& ids, bool shown);
  /// A label or notes edited in the table; the window writes them to the database.
  void renameRequested(qint64 runId, const QString& label);
  void notesEdited(qint64 runId, const QString& notes);
  /// A run reached finished / failed / diverged / stopped since the previous poll.
  void runEnded(qint64 runId, storage::RunStatus status, const QString& error);

 private:
  void apply(const std::vector<storage::RunRow>& runs, const QList<qint64>& removed);
  /// The first listing's drawn runs: each run's kept choice, else the newest initialShown_.
  void showAtFirstListing();
  QVariant display(const storage::RunRow& r, int column) const;
  QVariant sortValue(const storage::RunRow& r, int column) const;
  QString setupSummary(const storage::RunRow& r) const;
  QString sourceText(const storage::RunRow& r) const;
  QString sourceTip(const storage::RunRow& r) const;
  double progress(const storage::RunRow& r) const;
  double samplesPerSecond(const storage::RunRow& r) const;
  QString eta(const storage::RunRow& r) const;

  std::vector<storage::RunRow> runs_;
  QHash<qint64, int> rowById_;
  QSet<qint64> shown_;
  QHash<qint64, bool> choices_;  ///< kept with the database; applied at its first listing
  mutable QHash<qint64, QString> setupCache_;
  mutable QHash<qint64, QString> sourceCache_;
  mutable QHash<qint64, int64_t> globalBatch_;
  bool listedOnce_ = false;
  int initialShown_ = 8;
  std::function<double()> now_;
};

}  // namespace parity::ui
