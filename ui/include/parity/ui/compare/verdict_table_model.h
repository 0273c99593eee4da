#pragma once
/// The Compare panel's verdict table: one row per compared run, in the comparison's order (the
/// reference first), read-only. Columns: run, verdict, max and final |Δloss|, three of throughput
/// (samples/s, per device, scaling), the proofs (counterfactual runs Prove and Make it equivalent
/// queued) and why.
/// Besides the comparison it shows what the panel knows of each run: another experiment than the
/// reference's (said first in Why, in red) and a note that the run shared the cores (its
/// throughput marked '*', the note in the tooltips).
/// Roles: DisplayRole, ToolTipRole, ForegroundRole (the verdict's colour; Why in red for another
/// experiment), kRunIdRole (the run's id, every column); the header has tooltips.
/// Thread affinity: UI thread.

#include <parity/analysis/verdict.h>
#include <parity/ui/database/database_worker.h>

#include <QAbstractTableModel>
#include <QHash>
#include <QString>

namespace parity::ui {

/// "confirmed", "partly ×3.2", "running", "failed": what one counterfactual shows so far.
QString proofState(const stored_runs::StoredProof& proof);

/// Whether a counterfactual's cause is the remedy's ("all", "all but batch_norm"): what Make it
/// equivalent trains, and Prove's combined proof.
bool isRemedyCause(const std::string& cause);
/// A run's counterfactuals as the window lists them: each cause's own row alone, and the
/// remedy's rows together (the remedy first, then the reference under the band's seeds), in id
/// order.
std::vector<std::vector<const stored_runs::StoredProof*>> proofGroups(
    const std::vector<stored_runs::StoredProof>& proofs);
/// How the remedy's rows stand, in `parity-cli fix`'s words: "equivalent now", "not
/// equivalent", else "fix queued", "fix running", "fix failed" ... until they are judged.
QString remedyState(const std::vector<const stored_runs::StoredProof*>& rows);
/// The verdict's text as the window says it: the CLI's `explain` is the window's Prove, and a
/// fact given with `parity-cli set RUN --flag` is given with Runs > Edit facts…, and a setting
/// spelled as a flag ("--lr 0.05") is said in words ("learning rate 0.05").
QString inWindowWords(const std::string& text);

class VerdictTableModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    kRunColumn,
    kVerdictColumn,
    kMaxDeltaColumn,
    kFinalDeltaColumn,
    kSpeedColumn,
    kPerDeviceColumn,
    kScalingColumn,
    kProofColumn,
    kWhyColumn,
    kColumnCount
  };
  static constexpr int kRunIdRole = Qt::UserRole;

  /// What the panel knows of the compared runs besides the comparison, by run id.
  struct RunNotes {
    QHash<qint64, QString> otherExperiment;  ///< how its experiment differs from the reference's
    QHash<qint64, QString> sharedCores;      ///< RunsModel::sharedCoresNote, where not empty
  };

  explicit VerdictTableModel(QObject* parent = nullptr);

  /// Shows a new comparison (the model is reset).
  void setComparison(const analysis::Comparison& comparison, RunProofs proofs,
                     const RunNotes& notes);
  const analysis::Comparison& comparison() const { return comparison_; }
  /// The recorded counterfactuals of the compared runs, by run id, as the comparison read them.
  const RunProofs& proofs() const { return proofs_; }
  /// The run on `row`; 0 when there is none.
  qint64 runId(int row) const;
  /// The row of `runId`; -1 when it was not compared.
  int rowOf(qint64 runId) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;

 private:
  QString text(const analysis::RunComparison& r, int column) const;
  QString toolTip(const analysis::RunComparison& r, int column) const;
  QVariant foreground(const analysis::RunComparison& r, int column) const;
  QString proofCell(qint64 runId) const;
  QString proofToolTip(qint64 runId) const;

  analysis::Comparison comparison_;
  RunProofs proofs_;
  RunNotes notes_;
};

}  // namespace parity::ui
