// The Compare panel's reading of one run in full (the details pane), the config keys it differs
// in, and its proofs: the counterfactual runs Prove queued, as they read now.
#include <parity/storage/run_status.h>
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/compare/verdict_table_model.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/widgets/elided_label.h>

#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTimer>
#include <algorithm>

namespace parity::ui {

namespace {

QString html(const std::string& text) { return QString::fromStdString(text).toHtmlEscaped(); }

// What the newest Prove of `runId` (against `referenceId`) could not train, in full: for a run
// imported from a log, the causes to align in the user's own training. The status line beside
// Prove elides it to a tooltip; the answer belongs here, under the verdict it proves.
QString untestedHtml(const QList<QueuedProof>& queued, qint64 runId, qint64 referenceId) {
  for (auto it = queued.crbegin(); it != queued.crend(); ++it) {
    if (it->runId != runId || it->referenceId != referenceId) continue;
    if (it->untestable.isEmpty()) return {};
    QString text = "<p><a name=\"proveAnswer\"></a><b>" +
                   (it->created.isEmpty() ? ComparePanel::tr("Prove (nothing trained here):")
                                          : ComparePanel::tr("Prove, not testable alone:")) +
                   "</b></p><ul>";
    for (const QString& line : it->untestable)
      text += "<li>" + inWindowWords(line.toStdString()).toHtmlEscaped() + "</li>";
    return text + "</ul>";
  }
  return {};
}

}  // namespace

void ComparePanel::showDiff(int row) {
  diff_->setRowCount(0);
  if (row < 0 || row >= static_cast<int>(comparison().rows.size())) return;
  const auto& keys = comparison().rows[row].config_diff;
  diff_->setRowCount(static_cast<int>(keys.size()));
  for (int i = 0; i < static_cast<int>(keys.size()); ++i) {
    diff_->setItem(i, 0, new QTableWidgetItem(QString::fromStdString(keys[i].key)));
    diff_->setItem(i, 1, new QTableWidgetItem(QString::fromStdString(keys[i].value)));
    diff_->setItem(i, 2, new QTableWidgetItem(QString::fromStdString(keys[i].reference)));
  }
  diff_->resizeColumnsToContents();
}

bool ComparePanel::awaitsProof(qint64 runId) const {
  for (const auto& [run, proofs] : proofs()) {
    for (const auto& p : proofs)
      if (p.counterfactual == runId) return true;
  }
  return false;
}

void ComparePanel::rereadStartedProofs(int first, int last) {
  const auto& rows = runs_->runs();
  for (int row = std::max(0, first); row <= last && row < static_cast<int>(rows.size()); ++row) {
    const storage::RunRow& run = rows[row];
    if (run.status != storage::RunStatus::kRunning || startedProofs_.contains(run.id)) continue;
    for (const auto& [explained, list] : proofs()) {
      for (const auto& p : list) {
        if (p.counterfactual != run.id || p.status != storage::RunStatus::kQueued) continue;
        startedProofs_.insert(run.id);  // once: its steps change the row at every poll
        compare();
        return;
      }
    }
  }
}

void ComparePanel::updateProveButton() {
  const int row = currentRow();
  const bool different = row >= 0 && row < static_cast<int>(comparison().rows.size()) &&
                         comparison().rows[row].verdict == analysis::Verdict::kDifferent;
  proveButton_->setEnabled(different);
}

void ComparePanel::showDetails(int row) {
  if (row < 0 || row >= static_cast<int>(comparison().rows.size())) {
    details_->clear();
    return;
  }
  const analysis::RunComparison& r = comparison().rows[row];
  QString text = QString("<b>#%1 %2: %3</b> — %4")
                     .arg(r.id)
                     .arg(html(r.label), html(analysis::to_string(r.verdict)),
                          inWindowWords(r.summary).toHtmlEscaped());
  const QString other = otherExperiment_.value(r.id);
  if (!other.isEmpty()) {
    text += "<p style=\"color:#c62828\"><b>" + tr("Another experiment:") + "</b> " +
            other.toHtmlEscaped() + ". " +
            tr("Its curve differs for that before anything below: compare it with a reference "
               "of the same data and model.") +
            "</p>";
  }
  auto list = [&](const QString& title, const std::vector<analysis::Reason>& reasons) {
    if (reasons.empty()) return;
    text += "<p>" + title + "</p><ul>";
    for (const auto& reason : reasons)
      text += "<li>" + inWindowWords(reason.text).toHtmlEscaped() + "</li>";
    text += "</ul>";
  };
  if (r.first_outside_x) {
    text += "<p>" +
            tr("The curves part at %1 samples seen: the first point above the allowed gap "
               "(the dashed line in the Δ plot).")
                .arg(*r.first_outside_x, 0, 'g', 8) +
            "</p>";
  }
  list(r.verdict == analysis::Verdict::kDifferent ? tr("Why:") : tr("Differences:"), r.reasons);
  list(tr("Information:"), r.info);
  // Each cause's counterfactual here; the remedy's (Prove's "all") under Make it equivalent.
  static const std::vector<stored_runs::StoredProof> kNone;
  QString lines;
  const auto it = proofs().find(r.id);
  for (const auto& p : it == proofs().end() ? kNone : it->second) {
    if (isRemedyCause(p.cause)) continue;
    QString line = QString("#%1 %2: ").arg(p.counterfactual).arg(html(p.cause));
    if (p.result) {
      line += html(p.result->text);
    } else {
      line += proofState(p);
      if (!p.error.empty()) line += " — " + html(p.error);
    }
    lines += "<li>" + line + "</li>";
  }
  if (!lines.isEmpty())
    text += "<p>" + tr("Proof (counterfactual runs):") + "</p><ul>" + lines + "</ul>";
  text += untestedHtml(queuedProofs_, r.id, comparison().reference_id);
  text += remedyHtml(r.id, r.verdict == analysis::Verdict::kDifferent);
  details_->setHtml(text);
  // What Prove just answered is shown, not left below the reasons (at 900x600 the pane shows
  // five lines); later re-readings leave the scroll where the user put it.
  if (showProveAnswer_ == r.id && text.contains("name=\"proveAnswer\"")) {
    showProveAnswer_ = 0;
    // Once the new text is laid out (scrolling at once reads the old layout).
    QTimer::singleShot(0, details_, [this] { details_->scrollToAnchor("proveAnswer"); });
  }
}

void ComparePanel::proofQueued(const QueuedProof& q) {
  // One entry per run: proving a run again replaces what its last Prove said.
  for (int i = queuedProofs_.size() - 1; i >= 0; --i)
    if (queuedProofs_[i].runId == q.runId) queuedProofs_.removeAt(i);
  queuedProofs_.append(q);
  showProveAnswer_ = q.runId;
  compare();  // the queued rows show in the Proof column and in the status
}

// "Proving #2: 1 of 3 ended (#4 global_batch confirmed, #5 effective_lr running, #6 all
// queued)" while any counterfactual is queued or running, "Proved #2: ..." once all ended, read
// from the proofs as the last comparison read them (not what was queued: the status used to say
// "queued" for ever).
QString ComparePanel::proofNote(const QueuedProof& q) const {
  if (q.verdict != QString::fromStdString(analysis::to_string(analysis::Verdict::kDifferent)))
    return tr("Nothing to prove: #%1 is %2 without seed groups").arg(q.runId).arg(q.verdict);
  QString text;
  if (q.created.isEmpty()) {
    text = tr("No cause of #%1 can be tested alone").arg(q.runId);
  } else {
    const auto it = proofs().find(q.runId);
    QStringList parts;
    int ended = 0;
    for (int i = 0; i < q.created.size(); ++i) {
      const stored_runs::StoredProof* proof = nullptr;
      if (it != proofs().end()) {
        for (const auto& p : it->second)
          if (p.counterfactual == q.created[i]) proof = &p;
      }
      const bool done = proof && !storage::is_active(proof->status);
      ended += done ? 1 : 0;
      parts << QString("#%1 %2 %3")
                   .arg(q.created[i])
                   .arg(q.causes.value(i), proof ? proofState(*proof) : tr("queued"));
    }
    text = ended == q.created.size() ? tr("Proved #%1: %2").arg(q.runId).arg(parts.join(", "))
                                     : tr("Proving #%1: %2 of %3 ended (%4)")
                                           .arg(q.runId)
                                           .arg(ended)
                                           .arg(q.created.size())
                                           .arg(parts.join(", "));
  }
  if (!q.untestable.isEmpty()) text += tr("; not testable alone: %1").arg(q.untestable.join("; "));
  return text;
}

QString ComparePanel::statusText() const {
  int different = 0;
  for (const auto& r : comparison().rows)
    different += r.verdict == analysis::Verdict::kDifferent ? 1 : 0;
  // The newest Prove first, as what the user just asked for, then the comparison's summary.
  QStringList parts;
  if (!otherExperiment_.isEmpty()) {
    QStringList ids;
    for (const auto& r : comparison().rows)
      if (otherExperiment_.contains(r.id)) ids << QString("#%1").arg(r.id);
    parts << tr("%1 trained another experiment than the reference (its data or model)")
                 .arg(ids.join(", "));
  }
  // Only what concerns the comparison on screen, and only the newest of each: a Prove of runs no
  // longer compared (or against another reference) said "queued" for ever, and every Prove of a
  // session used to pile up in the line.
  const auto compared = [this](qint64 runId, qint64 referenceId) {
    if (referenceId != comparison().reference_id) return false;
    for (const auto& r : comparison().rows)
      if (r.id == runId) return true;
    return false;
  };
  for (int i = queuedFixes_.size() - 1; i >= 0; --i) {
    if (!compared(queuedFixes_[i].runId, queuedFixes_[i].referenceId)) continue;
    parts << fixNote(queuedFixes_[i]);
    break;
  }
  for (int i = queuedProofs_.size() - 1; i >= 0; --i) {
    if (!compared(queuedProofs_[i].runId, queuedProofs_[i].referenceId)) continue;
    parts << proofNote(queuedProofs_[i]);
    break;
  }
  parts << tr("%1 run(s) compared, %2 different; noise floor from %3")
               .arg(std::max(0, static_cast<int>(comparison().rows.size()) - 1))
               .arg(different)
               .arg(comparison().groups.empty() ? tr("the tolerance") : tr("seed groups"));
  return parts.join(" — ");
}

}  // namespace parity::ui
