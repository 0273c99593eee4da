// The Compare panel's Make it equivalent (the window's `parity-cli fix`): the selected different
// run's remedy, read from the database when the row is selected, shown in the details pane and
// offered by the button; pressed, the window adds it as a setup and the launcher trains it, and
// the Proof column reads its verdict ("equivalent now (#5)").
#include <parity/storage/run_status.h>
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/compare/verdict_table_model.h>
#include <parity/ui/database/database_thread.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/widgets/elided_label.h>

#include <QPushButton>
#include <QTableView>

namespace parity::ui {

namespace {

using Groups = std::vector<std::vector<const stored_runs::StoredProof*>>;

QString esc(const QString& text) { return text.toHtmlEscaped(); }

// The run's counterfactuals, the remedy's rows together (proofGroups).
Groups groupsOf(const RunProofs& proofs, qint64 runId) {
  const auto it = proofs.find(runId);
  return it == proofs.end() ? Groups{} : proofGroups(it->second);
}

// The remedy's rows among the run's proofs: the group whose first row is `first`, else the
// newest remedy group; nullptr when there is none.
const std::vector<const stored_runs::StoredProof*>* remedyGroup(const Groups& groups,
                                                                qint64 first = 0) {
  const std::vector<const stored_runs::StoredProof*>* found = nullptr;
  for (const auto& group : groups) {
    if (!isRemedyCause(group.front()->cause)) continue;
    if (first != 0 && group.front()->counterfactual == first) return &group;
    if (first == 0) found = &group;
  }
  return found;
}

// Whether a remedy's rows still stand: none of them failed, stopped or diverged.
bool standing(const std::vector<const stored_runs::StoredProof*>& group) {
  for (const auto* p : group)
    if (!storage::is_active(p->status) && p->status != storage::RunStatus::kFinished) return false;
  return true;
}

}  // namespace

const RemedyPlan* ComparePanel::remedy(qint64 runId) const {
  const auto it = remedies_.constFind({comparison().reference_id, runId});
  return it == remedies_.constEnd() ? nullptr : &*it;
}

void ComparePanel::requestRemedy(qint64 runId) {
  const RunPair key{comparison().reference_id, runId};
  if (remedies_.contains(key) || planning_.contains(key)) return;
  planning_.insert(key);
  db_->post(&DatabaseWorker::planRemedy, key.first, key.second);
}

void ComparePanel::onRemedyPlanned(const RemedyPlan& plan) {
  const RunPair key{plan.referenceId, plan.runId};
  planning_.remove(key);
  RemedyPlan& kept = remedies_[key];
  const QList<qint64> created = kept.created;  // what a Make it equivalent queued stays known
  kept = plan;
  if (kept.created.isEmpty()) kept.created = created;
  if (plan.referenceId != comparison().reference_id) return;
  if (verdictModel_->runId(currentRow()) == plan.runId) {
    showDetails(currentRow());
    updateFixButton();
  }
}

// The CLI's words where no remedy is needed (`fix`'s "no setting of this run's shape ...").
QString ComparePanel::fixBlocker(qint64 runId) const {
  const RunPair key{comparison().reference_id, runId};
  if (fixing_.contains(key)) return tr("Queuing the remedy of #%1…").arg(runId);
  const RemedyPlan* plan = remedy(runId);
  if (!plan) return tr("Reading the remedy of #%1…").arg(runId);
  if (!plan->error.isEmpty())
    return tr("The remedy of #%1 cannot be read: %2").arg(runId).arg(plan->error);
  if (!plan->different) {
    return tr("Judged without seed groups, #%1 is %2: nothing to make equivalent")
        .arg(runId)
        .arg(plan->verdict);
  }
  if (!plan->needed) {
    return plan->noise.isEmpty()
               ? tr("No setting of #%1's shape changes the arithmetic: the gap is the summation "
                    "order or a bug (Prove tells them apart)")
                     .arg(runId)
               : tr("No setting of #%1's shape changes the arithmetic: the gap is noise no "
                    "setting removes (Prove proves it against the band of the reference's seeds)")
                     .arg(runId);
  }
  const Groups groups = groupsOf(proofs(), runId);
  const qint64 queued = plan->created.isEmpty() ? 0 : plan->created.front();
  const auto* group = remedyGroup(groups, queued);
  if (queued != 0 && !group) {
    return tr("The remedy of #%1 is queued (#%2): its verdict comes in the Proof column")
        .arg(runId)
        .arg(queued);
  }
  if (!group) group = remedyGroup(groups);
  if (group && standing(*group)) {
    return tr("The remedy of #%1 is queued or trained already (#%2): its verdict is in the "
              "Proof column")
        .arg(runId)
        .arg(group->front()->counterfactual);
  }
  return {};
}

void ComparePanel::updateFixButton() {
  const int row = currentRow();
  const auto& rows = comparison().rows;
  const bool different = row >= 0 && row < static_cast<int>(rows.size()) &&
                         rows[row].verdict == analysis::Verdict::kDifferent;
  QString why = tr("Select a different run: Make it equivalent trains its remedy");
  if (different) {
    requestRemedy(rows[row].id);
    why = fixBlocker(rows[row].id);
  }
  fixButton_->setEnabled(why.isEmpty());
  if (!why.isEmpty()) {
    fixButton_->setToolTip(why);
    return;
  }
  const RemedyPlan& plan = *remedy(rows[row].id);
  fixButton_->setToolTip(
      plan.notHere.isEmpty()
          ? tr("Make #%1 equivalent (parity-cli fix): add its remedy, %2, as the setup "
               "\"fix #%1\", train it like any launch and judge it against the reference; the "
               "Proof column then says \"equivalent now\" or \"not equivalent\"")
                .arg(plan.runId)
                .arg(plan.setupText)
          : tr("Say how to make #%1 equivalent: it was trained elsewhere, so nothing is trained "
               "here (train it again with %2)")
                .arg(plan.runId)
                .arg(inWindowWords(plan.flags.toStdString())));
}

void ComparePanel::fixSelected() {
  const int row = currentRow();
  if (row < 0 || row >= static_cast<int>(comparison().rows.size())) return;
  const qint64 run = comparison().rows[row].id;
  const RemedyPlan* plan = remedy(run);
  if (!plan || !fixBlocker(run).isEmpty()) return;
  if (!plan->notHere.isEmpty()) {
    fixQueued(*plan);  // nothing to queue: said in the status and the details
    return;
  }
  fixing_.insert({comparison().reference_id, run});
  updateFixButton();  // off until the rows are queued: a second click queues nothing
  status_->setStatusText(tr("Queuing the remedy of #%1…").arg(run));
  emit fixRequested(comparison().reference_id, run);
}

void ComparePanel::fixQueued(const RemedyPlan& q) {
  const RunPair key{q.referenceId, q.runId};
  fixing_.remove(key);
  remedies_[key] = q;
  for (int i = queuedFixes_.size() - 1; i >= 0; --i)
    if (queuedFixes_[i].runId == q.runId) queuedFixes_.removeAt(i);
  queuedFixes_.append(q);
  compare();  // the queued rows show in the Proof column and in the status
}

void ComparePanel::fixFailed(qint64 referenceId, qint64 runId) {
  fixing_.remove({referenceId, runId});
  updateFixButton();
  status_->setStatusText(statusText());
}

void ComparePanel::noteFixSetup(qint64 runId, const QString& note) {
  fixSetupNotes_.insert(runId, note);
  if (verdictModel_->runId(currentRow()) == runId) showDetails(currentRow());
}

QString ComparePanel::fixNote(const RemedyPlan& q) const {
  if (q.created.isEmpty()) {
    if (!q.error.isEmpty())
      return tr("The remedy of #%1 cannot be read: %2").arg(q.runId).arg(q.error);
    if (!q.trainable() && q.needed) {
      return tr("Nothing trained for #%1: it was trained elsewhere (train it again with %2)")
          .arg(q.runId)
          .arg(inWindowWords(q.flags.toStdString()));
    }
    return tr("Nothing to make equivalent in #%1").arg(q.runId);
  }
  const Groups groups = groupsOf(proofs(), q.runId);
  const auto* group = remedyGroup(groups, q.created.front());
  return tr("Remedy of #%1: %2 (#%3)")
      .arg(q.runId)
      .arg(group ? remedyState(*group) : tr("fix queued"))
      .arg(q.created.front());
}

// Under the verdict and its proofs: the remedy in full, what it changes, what it leaves, and
// how its runs stand (`fix`'s words: "remedy: ...", "changes: ...", "not aligned: ...").
QString ComparePanel::remedyHtml(qint64 runId, bool different) const {
  QString text;
  if (different) text += remedyPlanHtml(runId);
  for (const auto& group : groupsOf(proofs(), runId)) {
    const stored_runs::StoredProof& p = *group.front();
    if (!isRemedyCause(p.cause)) continue;
    QString line = tr("Remedy run #%1 (%2): %3")
                       .arg(p.counterfactual)
                       .arg(QString::fromStdString(p.cause), remedyState(group));
    if (p.result) {
      line += " — " + QString::fromStdString(p.result->text);
    } else if (!p.error.empty()) {
      line += " — " + QString::fromStdString(p.error);
    }
    if (group.size() > 1) {
      QStringList band;
      for (size_t i = 1; i < group.size(); ++i)
        band << QString("#%1 %2").arg(group[i]->counterfactual).arg(proofState(*group[i]));
      line +=
          " " + tr("(against the band of the reference under more seeds: %1)").arg(band.join(", "));
    }
    text += "<p>" + esc(line) + "</p>";
  }
  const QString note = fixSetupNotes_.value(runId);
  if (!note.isEmpty()) text += "<p>" + esc(note) + "</p>";
  return text;
}

// The remedy itself, as `fix --dry-run` prints it; for a run imported from a log, the flags to
// train it with elsewhere.
QString ComparePanel::remedyPlanHtml(qint64 runId) const {
  QString text = "<p><b>" + tr("Make it equivalent (parity-cli fix):") + "</b> ";
  const RemedyPlan* plan = remedy(runId);
  if (!plan) return text + tr("reading the remedy…") + "</p>";
  if (!plan->error.isEmpty() || !plan->different || !plan->needed)
    return text + esc(fixBlocker(runId)) + "</p>";
  text += tr("the remedy is %1.").arg(esc(plan->setupText)) + "</p><ul><li>" +
          tr("Changes: %1").arg(esc(inWindowWords(plan->changesText.toStdString()))) + "</li>";
  for (const QString& left : plan->left)
    text += "<li>" + tr("Not aligned: %1").arg(esc(left)) + "</li>";
  for (const QString& noise : plan->noise) {
    text += "<li>" + tr("Judged against the band of the reference's seeds: %1").arg(esc(noise)) +
            "</li>";
  }
  text += "</ul>";
  if (!plan->notHere.isEmpty()) {
    const storage::RunRow* run = runs_->runById(runId);
    const QString imported =
        run && run->origin == storage::RunOrigin::kImported ? tr("this run") : tr("the reference");
    text += "<p>" +
            tr("This run was trained elsewhere: train it again with %1 (your script's "
               "equivalents), import that run and compare. Nothing is trained here: %2 was "
               "imported from a log, and Parity's engine has neither its data nor its model.")
                .arg(esc(inWindowWords(plan->flags.toStdString())), imported) +
            "</p>";
  }
  return text;
}

}  // namespace parity::ui
