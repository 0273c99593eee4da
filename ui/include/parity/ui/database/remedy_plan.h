#pragma once
/// The remedy of one run against a reference as the window shows it: what Make it equivalent
/// would add as a setup and train (the window's `parity-cli fix`), read from
/// stored_runs::plan_proof() in the database thread and carried to the UI thread by value.
/// Torch-free; a plain value type (any thread).

#include <parity/config/run_config.h>
#include <parity/stored_runs/proofs.h>

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace parity::ui {

struct RemedyPlan {
  qint64 runId = 0;
  qint64 referenceId = 0;
  QString error;           ///< the plan could not be read (a config that does not load); else empty
  QString verdict;         ///< the run's verdict as the plan judged it (without seed groups)
  bool different = false;  ///< that verdict is 'different': a remedy was computed
  bool needed = false;     ///< the remedy changes the setup (Remedy::needed())
  QString cause;           ///< its counterfactual's cause: "all", or "all but batch_norm"
  QString setupText;       ///< Remedy::setup_text(): the whole setup in words
  QString changesText;     ///< Remedy::changes_text(): "per-device batch 64 -> 32; lr ..."
  QStringList changedKeys;  ///< the config fields the remedy changes ("per_device_batch_size")
  QString flags;            ///< Remedy::flags(): what to train with elsewhere
  QStringList left;         ///< what no setup of this shape aligns
  QStringList noise;        ///< why it is judged against the band of the reference's seeds
  /// Why Parity's engine trains nothing here (a run imported from a log); empty otherwise.
  QString notHere;
  config::RunConfig config;  ///< the remedy's setup (the run's experiment, the remedy's shape)
  /// The rows Make it equivalent queued, the remedy first, then the reference under the band's
  /// seeds; empty for a plan only read, or when nothing is trained here.
  QList<qint64> created;

  bool trainable() const { return error.isEmpty() && needed && notHere.isEmpty(); }
};

/// The plan's remedy in the window's terms (plan.remedy unset: only the verdict is filled).
RemedyPlan remedyPlan(const stored_runs::ProofPlan& plan, qint64 referenceId, qint64 runId);

}  // namespace parity::ui

Q_DECLARE_METATYPE(parity::ui::RemedyPlan)
