#include <parity/config/run_facts.h>
#include <parity/storage/run_status.h>
#include <parity/ui/compare/verdict_table_model.h>

#include <QBrush>
#include <QColor>
#include <QRegularExpression>
#include <QStringList>
#include <utility>

namespace parity::ui {

namespace {

const QColor kGreen(0x2e, 0x7d, 0x32);
const QColor kRed(0xc6, 0x28, 0x28);

QString joinReasons(const std::vector<analysis::Reason>& reasons) {
  QStringList texts;
  for (const auto& r : reasons) texts << inWindowWords(r.text);
  return texts.join("; ");
}

}  // namespace

QString proofState(const stored_runs::StoredProof& p) {
  if (p.result) {
    QString state = QString::fromStdString(analysis::to_string(p.result->proof));
    if (p.result->proof == analysis::Proof::kPartly)
      state += QString(" ×%1").arg(p.result->shrink, 0, 'g', 3);
    return state;
  }
  return QString::fromStdString(std::string(storage::to_string(p.status)));
}

bool isRemedyCause(const std::string& cause) {
  return cause == "all" || cause.rfind("all but ", 0) == 0;
}

std::vector<std::vector<const stored_runs::StoredProof*>> proofGroups(
    const std::vector<stored_runs::StoredProof>& proofs) {
  std::vector<std::vector<const stored_runs::StoredProof*>> groups;
  for (size_t i = 0; i < proofs.size(); ++i) {
    // The remedy's band rows follow it under its cause (record_counterfactual's order).
    const bool joins = !groups.empty() && isRemedyCause(proofs[i].cause) &&
                       groups.back().front()->cause == proofs[i].cause;
    if (!joins) groups.emplace_back();
    groups.back().push_back(&proofs[i]);
  }
  return groups;
}

QString remedyState(const std::vector<const stored_runs::StoredProof*>& rows) {
  if (rows.empty()) return VerdictTableModel::tr("fix queued");
  if (const auto& result = rows.front()->result) {
    return result->proof == analysis::Proof::kConfirmed ? VerdictTableModel::tr("equivalent now")
                                                        : VerdictTableModel::tr("not equivalent");
  }
  bool running = false, active = false;
  const stored_runs::StoredProof* ended = nullptr;  // the first row that ended unfinished
  for (const auto* p : rows) {
    running |= p->status == storage::RunStatus::kRunning;
    active |= storage::is_active(p->status);
    if (!ended && !storage::is_active(p->status) && p->status != storage::RunStatus::kFinished)
      ended = p;
  }
  if (running) return VerdictTableModel::tr("fix running");
  if (active) return VerdictTableModel::tr("fix queued");
  if (ended) {
    return VerdictTableModel::tr("fix %1").arg(
        QString::fromLatin1(storage::to_string(ended->status)));
  }
  return VerdictTableModel::tr("fix not judged");
}

namespace {

// Settings as the CLI spells them ("--lr 0.05 --num-processes 2", the remedy's flags) as the
// window says them: "learning rate 0.05, processes 2" (a fact's words, else the config key).
QString settingsInWords(const QString& text) {
  static const QRegularExpression kSetting(R"(--([a-z][a-z-]*) ('[^']*'|[^\s;,)]+))");
  QString out;
  qsizetype at = 0;
  bool afterSetting = false;
  for (auto it = kSetting.globalMatch(text); it.hasNext();) {
    const QRegularExpressionMatch m = it.next();
    const std::string key = m.captured(1).replace('-', '_').toStdString();
    QString words = QString::fromStdString(key);
    for (const config::FactField& f : config::fact_fields())
      if (f.config_field == key) words = QString::fromUtf8(f.words.data(), f.words.size());
    QString between = text.mid(at, m.capturedStart() - at);
    if (afterSetting && between == " ") between = ", ";
    out += between + words + ' ' + m.captured(2);
    at = m.capturedEnd();
    afterSetting = true;
  }
  return out + text.mid(at);
}

}  // namespace

QString inWindowWords(const std::string& text) {
  QString words = QString::fromStdString(text).replace(QStringLiteral("`explain`"),
                                                       VerdictTableModel::tr("Prove"));
  // An unknown fact's "give `--seed` (parity-cli set RUN --seed ...)": the window gives facts
  // with Runs > Edit facts…, where the fact is named as the verdict names it.
  static const QRegularExpression kGive(R"(give `(--[a-z-]+)` \(parity-cli set RUN \1 \.\.\.\))");
  words.replace(kGive, VerdictTableModel::tr("give it with Runs › Edit facts…"));
  static const QRegularExpression kFlag(R"(`--[a-z-]+`)");
  words.replace(kFlag, VerdictTableModel::tr("its fact (Runs › Edit facts…)"));
  return settingsInWords(words);
}

VerdictTableModel::VerdictTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void VerdictTableModel::setComparison(const analysis::Comparison& comparison, RunProofs proofs,
                                      const RunNotes& notes) {
  beginResetModel();
  comparison_ = comparison;
  proofs_ = std::move(proofs);
  notes_ = notes;
  endResetModel();
}

qint64 VerdictTableModel::runId(int row) const {
  if (row < 0 || row >= rowCount()) return 0;
  return comparison_.rows[row].id;
}

int VerdictTableModel::rowOf(qint64 runId) const {
  for (int row = 0; row < rowCount(); ++row)
    if (comparison_.rows[row].id == runId) return row;
  return -1;
}

int VerdictTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(comparison_.rows.size());
}

int VerdictTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant VerdictTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const analysis::RunComparison& r = comparison_.rows[index.row()];
  switch (role) {
    case Qt::DisplayRole:
      return text(r, index.column());
    case Qt::ToolTipRole:
      return toolTip(r, index.column());
    case Qt::ForegroundRole:
      return foreground(r, index.column());
    case kRunIdRole:
      return static_cast<qlonglong>(r.id);
    default:
      return {};
  }
}

QString VerdictTableModel::text(const analysis::RunComparison& r, int column) const {
  const bool reference = r.verdict == analysis::Verdict::kReference;
  // A run that shared the cores with another measured less than it would alone: say so, as the
  // runs table does.
  const QString mark = notes_.sharedCores.value(r.id).isEmpty() ? QString() : QStringLiteral(" *");
  auto speed = [&](double v) { return v > 0 ? QString::number(v, 'f', 0) + mark : QString(); };
  switch (column) {
    case kRunColumn:
      return QString("#%1  %2").arg(r.id).arg(QString::fromStdString(r.label));
    case kVerdictColumn:
      return QString::fromStdString(analysis::to_string(r.verdict));
    case kMaxDeltaColumn:
      return reference ? QString() : QString::number(r.delta.max_abs, 'g', 4);
    case kFinalDeltaColumn:
      return reference ? QString() : QString::number(r.delta.final_abs, 'g', 4);
    case kSpeedColumn:
      return speed(r.samples_per_s);
    case kPerDeviceColumn:
      return speed(r.per_device_samples_per_s);
    case kScalingColumn:
      return r.scaling_efficiency
                 ? QString("%1 %").arg(*r.scaling_efficiency * 100, 0, 'f', 0) + mark
                 : QString();
    case kProofColumn:
      return proofCell(r.id);
    case kWhyColumn: {
      const QString why = r.verdict == analysis::Verdict::kDifferent ? joinReasons(r.reasons)
                                                                     : inWindowWords(r.summary);
      const QString other = notes_.otherExperiment.value(r.id);
      return other.isEmpty() ? why : tr("Another experiment (%1); %2").arg(other, why);
    }
    default:
      return {};
  }
}

QString VerdictTableModel::toolTip(const analysis::RunComparison& r, int column) const {
  switch (column) {
    case kRunColumn:
    case kWhyColumn:
      return inWindowWords(r.summary) + (r.info.empty() ? QString() : "\n" + joinReasons(r.info));
    case kProofColumn:
      return proofToolTip(r.id);
    case kSpeedColumn:
    case kPerDeviceColumn:
      return notes_.sharedCores.value(r.id);
    case kScalingColumn: {
      const QString shared = notes_.sharedCores.value(r.id);
      if (shared.isEmpty()) return {};
      return shared + "\n" +
             tr("A throughput measured alongside other runs understates the scaling.");
    }
    default:
      return {};
  }
}

// The verdict in green (equivalent) or red (different); Why in red when the run is of another
// experiment. Elsewhere the palette's text colour.
QVariant VerdictTableModel::foreground(const analysis::RunComparison& r, int column) const {
  if (column == kVerdictColumn) {
    if (r.verdict == analysis::Verdict::kEquivalent) return QBrush(kGreen);
    if (r.verdict == analysis::Verdict::kDifferent) return QBrush(kRed);
  }
  if (column == kWhyColumn && notes_.otherExperiment.contains(r.id)) return QBrush(kRed);
  return {};
}

QVariant VerdictTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal)
    return QAbstractTableModel::headerData(section, orientation, role);
  if (role == Qt::DisplayRole) {
    switch (section) {
      case kRunColumn:
        return tr("Run");
      case kVerdictColumn:
        return tr("Verdict");
      case kMaxDeltaColumn:
        return tr("Max |Δloss|");
      case kFinalDeltaColumn:
        return tr("Final |Δloss|");
      case kSpeedColumn:
        return tr("Samples/s");
      case kPerDeviceColumn:
        return tr("Per device");
      case kScalingColumn:
        return tr("Scaling");
      case kProofColumn:
        return tr("Proof");
      case kWhyColumn:
        return tr("Why");
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case kSpeedColumn:
        return tr("Training samples per second, all ranks together (* shared the cores)");
      case kPerDeviceColumn:
        return tr("Samples per second per process");
      case kScalingColumn:
        return tr("Throughput on W processes / (W × the single-process throughput)");
      case kProofColumn:
        return tr(
            "Counterfactual runs (Prove): each cause aligned alone; confirmed when that "
            "makes the run equivalent. The remedy (Make it equivalent, and Prove's 'all'): "
            "the whole setup with the reference's arithmetic, 'equivalent now' or 'not "
            "equivalent'");
      default:
        return {};
    }
  }
  return {};
}

Qt::ItemFlags VerdictTableModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  return Qt::ItemIsSelectable | Qt::ItemIsEnabled;
}

// "lr confirmed (#7); batch running (#8); equivalent now (#9)": each counterfactual's cause
// and how it stands, the remedy's in `fix`'s words ("all but batch_norm: not equivalent").
QString VerdictTableModel::proofCell(qint64 runId) const {
  const auto it = proofs_.find(runId);
  if (it == proofs_.end()) return QString();
  QStringList parts;
  for (const auto& group : proofGroups(it->second)) {
    const stored_runs::StoredProof& p = *group.front();
    const QString cause = QString::fromStdString(p.cause);
    if (!isRemedyCause(p.cause)) {
      parts << QString("%1 %2 (#%3)").arg(cause, proofState(p)).arg(p.counterfactual);
    } else if (p.cause == "all") {
      parts << QString("%1 (#%2)").arg(remedyState(group)).arg(p.counterfactual);
    } else {
      parts << QString("%1: %2 (#%3)").arg(cause, remedyState(group)).arg(p.counterfactual);
    }
  }
  return parts.join("; ");
}

QString VerdictTableModel::proofToolTip(qint64 runId) const {
  const auto it = proofs_.find(runId);
  if (it == proofs_.end()) return QString();
  QStringList lines;
  for (const auto& p : it->second) {
    lines << QString("#%1 %2: %3")
                 .arg(p.counterfactual)
                 .arg(QString::fromStdString(p.cause),
                      p.result ? QString::fromStdString(p.result->text) : proofState(p));
  }
  return lines.join("\n");
}

}  // namespace parity::ui
