// The remedy in the database thread: planRemedy reads it for the Compare panel (the button and
// the details pane), fixRun records its counterfactual rows for the launcher, as `parity-cli
// fix` records them ("cf #RUN all", linked to the run and the reference).
#include <parity/analysis/counterfactual.h>
#include <parity/ui/database/database_worker.h>
#include <parity/ui/database/remedy_plan.h>

namespace parity::ui {

namespace {

QStringList texts(const std::vector<analysis::Reason>& reasons) {
  QStringList out;
  for (const analysis::Reason& r : reasons) out << QString::fromStdString(r.text);
  return out;
}

}  // namespace

RemedyPlan remedyPlan(const stored_runs::ProofPlan& plan, qint64 referenceId, qint64 runId) {
  RemedyPlan p;
  p.runId = runId;
  p.referenceId = referenceId;
  p.verdict = QString::fromStdString(analysis::to_string(plan.original.verdict));
  p.different = plan.original.verdict == analysis::Verdict::kDifferent;
  if (!p.different || !plan.remedy) return p;
  const analysis::Remedy& remedy = *plan.remedy;
  p.needed = remedy.needed();
  p.cause =
      QString::fromStdString(analysis::remedy_counterfactual(remedy, plan.reference_config).cause);
  p.setupText = QString::fromStdString(remedy.setup_text());
  p.changesText = QString::fromStdString(remedy.changes_text());
  for (const analysis::RemedyChange& change : remedy.changes)
    p.changedKeys << QString::fromStdString(change.key);
  p.flags = QString::fromStdString(remedy.flags());
  p.left = texts(remedy.left);
  p.noise = texts(remedy.noise);
  p.notHere = QString::fromStdString(plan.not_here);
  p.config = remedy.config;
  return p;
}

void DatabaseWorker::planRemedy(qint64 referenceId, qint64 runId) {
  RemedyPlan p;
  p.runId = runId;
  p.referenceId = referenceId;
  if (!db_) {
    p.error = tr("No database is open.");
    emit remedyPlanned(p);
    return;
  }
  try {
    p = remedyPlan(stored_runs::plan_proof(*db_, referenceId, runId), referenceId, runId);
  } catch (const std::exception& e) {
    p.error = QString::fromStdString(e.what());
  }
  emit remedyPlanned(p);
}

void DatabaseWorker::fixRun(int requestId, qint64 referenceId, qint64 runId) {
  if (!db_) {
    emit fixFailed(requestId, tr("No database is open."));
    return;
  }
  try {
    const stored_runs::ProofPlan plan = stored_runs::plan_proof(*db_, referenceId, runId);
    RemedyPlan p = remedyPlan(plan, referenceId, runId);
    if (!p.trainable()) {
      emit fixQueued(requestId, p);  // nothing to train here: the panel says why
      return;
    }
    const analysis::Counterfactual cf =
        analysis::remedy_counterfactual(*plan.remedy, plan.reference_config);
    // Refused before anything is written, as `fix` refuses it.
    if (cf.config) config::validate(*cf.config);
    for (const config::RunConfig& seed : cf.seeds) config::validate(seed);
    for (int64_t id : stored_runs::record_counterfactual(*db_, cf, runId, referenceId))
      p.created << id;
    emit fixQueued(requestId, p);
    pollRuns();
  } catch (const std::exception& e) {
    emit fixFailed(requestId, QString::fromStdString(e.what()));
  }
}

}  // namespace parity::ui
