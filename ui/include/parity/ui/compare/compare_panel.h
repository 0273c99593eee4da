#pragma once
/// The Compare panel: pick a reference run; every run drawn on the chart is aligned on samples
/// seen and judged by the engine's verdict (equivalent / different, with reasons), with the config
/// keys that differ and a delta-loss plot against the reference. The loading and comparing run in
/// the database thread (DatabaseThread); results come back by request id (stale ones are dropped).
/// The plot shows either each run's loss minus the reference's, or the seed groups (runs of one
/// setup with different seeds) as a mean curve inside a min-max band.
/// Thread affinity: UI thread.

#include <parity/analysis/verdict.h>
#include <parity/ui/database/database_worker.h>

#include <QHash>
#include <QWidget>
#include <utility>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QValueAxis;
QT_END_NAMESPACE
class QComboBox;
class QLabel;
class QPushButton;
class QTableView;
class QTableWidget;
class QTextBrowser;

namespace parity::ui {

class DatabaseThread;
class ElidedLabel;
class RunsModel;
class VerdictTableModel;

class ComparePanel : public QWidget {
  Q_OBJECT
 public:
  ComparePanel(RunsModel* runs, DatabaseThread* db, QWidget* parent = nullptr);

  /// Asks for a comparison of the drawn runs against the chosen reference.
  void compare();
  qint64 referenceId() const;
  /// The last comparison shown (the verdict model holds it).
  const analysis::Comparison& comparison() const;
  /// The verdict table: a view of verdictModel(), one row per compared run.
  QTableView* verdictTable() const { return verdicts_; }
  VerdictTableModel* verdictModel() const { return verdictModel_; }
  /// The plot below the table, and the choice of what it shows (0: Δ loss, 1: seed groups).
  QChart* deltaChart() const { return deltaChart_; }
  /// The Δ plot's legend: every series' whole name, wrapped under the plot (Qt's legend cuts them).
  QLabel* deltaLegend() const { return deltaLegend_; }
  QComboBox* plotKindBox() const { return plotKind_; }
  /// Prove: enabled when the selected verdict row is 'different'.
  QPushButton* proveButton() const { return proveButton_; }
  /// The selected row in full: verdict, summary, every reason, information, and its proofs.
  QTextBrowser* details() const { return details_; }
  /// The recorded counterfactuals of the compared runs, as the last comparison read them.
  const RunProofs& proofs() const;

  /// What Prove queued (from the launcher): said in the status line; the table re-reads.
  void proofQueued(const QueuedProof& queued);
  /// The one-line status beside Prove: the comparison's summary, then how each Prove stands
  /// (its counterfactuals' states as the last comparison read them). Elided, whole in its tooltip.
  QString statusText() const;

 signals:
  void compared();
  /// The user asked to prove why `runId` differs from `referenceId` (the launcher queues it).
  void proveRequested(qint64 referenceId, qint64 runId);

 private:
  void setUpWidgets();
  void connectSignals();
  void layOut();
  void proveSelected();
  void refillReferences();
  void show(const analysis::Comparison& comparison);
  void showDiff(int row);
  void showDetails(int row);
  void updateProveButton();
  /// The verdict table's current row; -1 when none.
  int currentRow() const;
  void noteOtherExperiments(const analysis::Comparison& comparison);
  bool awaitsProof(qint64 runId) const;
  QString proofNote(const QueuedProof& queued) const;
  void plot();
  void plotDeltas();
  void plotSeedGroups();
  void addPartingMarks(QValueAxis* x, QValueAxis* y, double lo, double hi);
  void plotAllowedBand(QValueAxis* x, QValueAxis* y, double& lo, double& hi);
  std::pair<QValueAxis*, QValueAxis*> addAxes();
  void setRoundRanges(QValueAxis* x, QValueAxis* y, double x0, double x1, double lo, double hi);

  RunsModel* runs_;
  DatabaseThread* db_;
  QComboBox* reference_;
  QComboBox* plotKind_;
  QPushButton* compareButton_;
  QPushButton* proveButton_;
  ElidedLabel* status_;
  VerdictTableModel* verdictModel_;
  QTableView* verdicts_;
  QTableWidget* diff_;
  QTextBrowser* details_;
  QChart* deltaChart_;
  QChartView* deltaView_;
  QLabel* deltaLegend_;
  RunProofs incomingProofs_;
  QList<QueuedProof> queuedProofs_;  ///< what each Prove of this session queued, oldest first
  /// Each compared run whose experiment (data, model) is not the reference's, with how
  /// (experimentDifference): said before any other cause.
  QHash<qint64, QString> otherExperiment_;
  int request_ = 0;
};

}  // namespace parity::ui
