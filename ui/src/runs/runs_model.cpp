#include <parity/config/batch_plan.h>
#include <parity/config/run_config.h>
#include <parity/config/run_facts.h>
#include <parity/config/setup_text.h>
#include <parity/ui/runs/runs_model.h>

#include <QBrush>
#include <QColor>
#include <algorithm>
#include <cmath>
#include <limits>

namespace parity::ui {

namespace {

bool sameRow(const storage::RunRow& a, const storage::RunRow& b) {
  return a.label == b.label && a.status == b.status && a.error == b.error && a.notes == b.notes &&
         a.started_at == b.started_at && a.finished_at == b.finished_at &&
         a.total_steps == b.total_steps && a.steps_done == b.steps_done &&
         a.samples_per_s == b.samples_per_s && a.final_loss == b.final_loss &&
         a.final_eval_loss == b.final_eval_loss && a.final_accuracy == b.final_accuracy &&
         a.facts_json == b.facts_json && a.config_json == b.config_json &&
         a.source_path == b.source_path && a.job_id == b.job_id && a.job_state == b.job_state;
}

// The last part of a path: "runs/1x32/" -> "1x32".
QString lastPart(const std::string& path) {
  QString p = QString::fromStdString(path);
  while (p.size() > 1 && p.endsWith('/')) p.chop(1);
  const int slash = p.lastIndexOf('/');
  return slash < 0 ? p : p.mid(slash + 1);
}

QColor statusColor(storage::RunStatus status) {
  if (status == storage::RunStatus::kFailed) return QColor(0xc6, 0x28, 0x28);
  if (status == storage::RunStatus::kDiverged) return QColor(0xd8, 0x6a, 0x00);
  if (status == storage::RunStatus::kRunning) return QColor(0x15, 0x65, 0xc0);
  if (status == storage::RunStatus::kFinished) return QColor(0x2e, 0x7d, 0x32);
  return {};
}

QString statusText(storage::RunStatus status) {
  return QString::fromLatin1(storage::to_string(status));
}

}  // namespace

RunsModel::RunsModel(QObject* parent) : QAbstractTableModel(parent) {
  now_ = [] { return QDateTime::currentMSecsSinceEpoch() / 1000.0; };
}

void RunsModel::setRuns(const std::vector<storage::RunRow>& runs) {
  QSet<qint64> incoming;
  for (const auto& r : runs) incoming.insert(r.id);
  QList<qint64> gone;
  for (const auto& r : runs_) {
    if (!incoming.contains(r.id)) gone.append(r.id);
  }
  apply(runs, gone);
}

void RunsModel::updateRuns(const std::vector<storage::RunRow>& changed,
                           const QList<qint64>& removed) {
  apply(changed, removed);
}

void RunsModel::apply(const std::vector<storage::RunRow>& runs, const QList<qint64>& removed) {
  bool shownChanged = false;
  if (!removed.isEmpty()) {
    const QSet<qint64> gone(removed.begin(), removed.end());
    for (int row = static_cast<int>(runs_.size()) - 1; row >= 0; --row) {
      const qint64 id = runs_[row].id;
      if (!gone.contains(id)) continue;
      beginRemoveRows({}, row, row);
      runs_.erase(runs_.begin() + row);
      endRemoveRows();
      shownChanged |= shown_.remove(id);
      setupCache_.remove(id);
      sourceCache_.remove(id);
      globalBatch_.remove(id);
    }
    rowById_.clear();
    for (int row = 0; row < static_cast<int>(runs_.size()); ++row)
      rowById_.insert(runs_[row].id, row);
  }

  std::vector<storage::RunRow> added;
  for (const auto& r : runs) {
    auto it = rowById_.find(r.id);
    if (it == rowById_.end()) {
      added.push_back(r);
      continue;
    }
    storage::RunRow& old = runs_[*it];
    if (sameRow(old, r)) continue;
    if (old.facts_json != r.facts_json || old.config_json != r.config_json) {
      setupCache_.remove(r.id);  // `parity-cli set` or the window's Edit facts changed them
      sourceCache_.remove(r.id);
      globalBatch_.remove(r.id);
    }
    const bool ended = storage::is_active(old.status) && !storage::is_active(r.status);
    old = r;
    emit dataChanged(index(*it, 0), index(*it, kColumnCount - 1));
    if (ended) {
      emit runEnded(r.id, r.status, QString::fromStdString(r.error));
    }
  }
  if (!added.empty()) {
    const int first = static_cast<int>(runs_.size());
    beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
    for (auto& r : added) {
      rowById_.insert(r.id, static_cast<int>(runs_.size()));
      runs_.push_back(std::move(r));
    }
    endInsertRows();
    if (listedOnce_) {
      for (int row = first; row < static_cast<int>(runs_.size()); ++row) {
        shown_.insert(runs_[row].id);
      }
      shownChanged = true;
    } else {
      showAtFirstListing();
      shownChanged = true;
    }
  }
  listedOnce_ = true;
  if (shownChanged) emit shownRunsChanged();
}

void RunsModel::clear() {
  beginResetModel();
  runs_.clear();
  rowById_.clear();
  setupCache_.clear();
  sourceCache_.clear();
  globalBatch_.clear();
  const bool hadShown = !shown_.isEmpty();
  shown_.clear();
  choices_.clear();
  listedOnce_ = false;
  endResetModel();
  if (hadShown) emit shownRunsChanged();
}

int RunsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}

int RunsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

const storage::RunRow* RunsModel::run(int row) const {
  return row >= 0 && row < static_cast<int>(runs_.size()) ? &runs_[row] : nullptr;
}

const storage::RunRow* RunsModel::runById(qint64 id) const { return run(rowOf(id)); }

int RunsModel::rowOf(qint64 id) const { return rowById_.value(id, -1); }

QString RunsModel::formatDuration(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds)) return {};
  const auto s = static_cast<long long>(std::llround(seconds));
  if (s >= 3600) {
    return QString("%1:%2:%3")
        .arg(s / 3600)
        .arg(s / 60 % 60, 2, 10, QChar('0'))
        .arg(s % 60, 2, 10, QChar('0'));
  }
  return QString("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QChar('0'));
}

double RunsModel::progress(const storage::RunRow& r) const {
  if (r.status == storage::RunStatus::kFinished) return 1.0;
  if (r.total_steps <= 0) return r.status == storage::RunStatus::kQueued ? 0.0 : -1.0;
  return std::clamp(static_cast<double>(r.steps_done) / r.total_steps, 0.0, 1.0);
}

QString RunsModel::eta(const storage::RunRow& r) const {
  if (r.status != storage::RunStatus::kRunning || r.started_at <= 0 || r.steps_done <= 0 ||
      r.total_steps <= 0) {
    return {};
  }
  const double elapsed = now_() - r.started_at;
  if (elapsed <= 0) return {};
  const double left = (r.total_steps - r.steps_done) * elapsed / r.steps_done;
  return formatDuration(left);
}

QString RunsModel::setupSummary(const storage::RunRow& r) const {
  auto it = setupCache_.constFind(r.id);
  if (it != setupCache_.constEnd()) return *it;
  QString text;
  try {
    if (r.origin != storage::RunOrigin::kEngine && !r.facts_json.empty()) {
      // Imported or the user's command: what the facts say, "?" where nothing does.
      const config::RunFacts facts = config::run_facts_from_json(r.facts_json);
      text = QString::fromStdString(config::describe_setup(facts));
      globalBatch_.insert(r.id, facts.global_batch().value_or(0));
      setupCache_.insert(r.id, text);
      return text;
    }
    const config::RunConfig c = config::from_json(r.config_json);
    text = QString::fromStdString(config::describe_setup(c));
    globalBatch_.insert(r.id, config::global_batch_size(c));
  } catch (const std::exception&) {
    text = tr("(unreadable config)");
  }
  setupCache_.insert(r.id, text);
  return text;
}

double RunsModel::samplesPerSecond(const storage::RunRow& r) const {
  if (r.samples_per_s > 0) return r.samples_per_s;
  // While running, the stored figure is not there yet: estimate from the steps done so far.
  if (r.status != storage::RunStatus::kRunning || r.started_at <= 0 || r.steps_done <= 0) return 0;
  setupSummary(r);  // fills globalBatch_
  const double elapsed = now_() - r.started_at;
  const int64_t global = globalBatch_.value(r.id, 0);
  return elapsed > 0 && global > 0 ? r.steps_done * global / elapsed : 0;
}

QVariant RunsModel::display(const storage::RunRow& r, int column) const {
  switch (column) {
    case kId:
      return static_cast<qlonglong>(r.id);
    case kLabel:
      return QString::fromStdString(r.label);
    case kStatus: {
      // Shown in the user's language; kStatusRole keeps the stored spelling for filters and tests.
      static const char* const kShown[] = {QT_TR_NOOP("queued"),   QT_TR_NOOP("running"),
                                           QT_TR_NOOP("finished"), QT_TR_NOOP("failed"),
                                           QT_TR_NOOP("diverged"), QT_TR_NOOP("stopped")};
      static_assert(std::size(kShown) == std::size(storage::kAllRunStatuses));
      const QString shown = tr(kShown[static_cast<int>(r.status)]);
      // A Slurm job waiting says why, in Slurm's words: "PENDING (Resources)".
      if (r.status == storage::RunStatus::kQueued && !r.job_state.empty())
        return QString::fromStdString(r.job_state);
      return shown;
    }
    case kProgress: {
      if (r.total_steps <= 0) {
        return r.status == storage::RunStatus::kFinished ? tr("done") : QString();
      }
      QString text = QString("%1 / %2").arg(r.steps_done).arg(r.total_steps);
      const QString left = eta(r);
      if (!left.isEmpty()) text += tr("  ETA %1").arg(left);
      return text;
    }
    case kSetup:
      return setupSummary(r);
    case kSpeed: {
      const double speed = samplesPerSecond(r);
      if (speed <= 0) return QString();
      // A run that shared the cores with others measured less than it would alone.
      return QString::number(speed, 'f', 0) + (sharedCoresWith(r) > 0 ? " *" : "");
    }
    case kFinalLoss:
      return r.final_loss ? QString::number(*r.final_loss, 'g', 5) : QString();
    case kAccuracy:
      if (!r.final_accuracy || *r.final_accuracy < 0) return QString();
      return QString("%1 %").arg(*r.final_accuracy * 100.0, 0, 'f', 2);
    case kSource:
      return sourceText(r);
    case kNotes:
      return QString::fromStdString(r.notes);
    default:
      return {};
  }
}

QString RunsModel::sourceText(const storage::RunRow& r) const {
  if (r.origin == storage::RunOrigin::kImported) return tr("imported: %1").arg(lastPart(r.source_path));
  if (r.origin == storage::RunOrigin::kCommand) return tr("your command");
  auto it = sourceCache_.constFind(r.id);
  if (it != sourceCache_.constEnd()) return *it;
  QString text;
  try {
    // A command setup still queued is not yet marked as a command run: its config says it.
    const config::RunConfig c = config::from_json(r.config_json);
    text =
        c.command.empty() ? QString::fromStdString(config::describe_data(c)) : tr("your command");
  } catch (const std::exception&) {
  }
  sourceCache_.insert(r.id, text);
  return text;
}

QString RunsModel::sourceTip(const storage::RunRow& r) const {
  if (r.origin == storage::RunOrigin::kImported) {
    return tr("Imported from %1\nIts facts say how it trained, each known, derived or "
              "unknown: Runs > Edit facts fills or corrects them")
        .arg(QString::fromStdString(r.source_path));
  }
  if (r.origin == storage::RunOrigin::kCommand) return tr("Launched as your own command");
  try {
    const config::RunConfig c = config::from_json(r.config_json);
    return c.data_path.empty()
               ? tr("Trained by Parity on %1").arg(QString::fromStdString(to_string(c.dataset)))
               : tr("Trained by Parity on %1").arg(QString::fromStdString(c.data_path));
  } catch (const std::exception&) {
    return {};
  }
}

int RunsModel::sharedCoresWith(const storage::RunRow& r) const {
  if (r.started_at <= 0) return 0;
  const double now = now_();
  auto end = [now](const storage::RunRow& x) { return x.finished_at > 0 ? x.finished_at : now; };
  int others = 0;
  for (const auto& o : runs_) {
    if (o.id == r.id || o.started_at <= 0) continue;
    if (o.finished_at <= 0 && !storage::is_active(o.status)) continue;  // never really ran
    if (o.started_at < end(r) && r.started_at < end(o)) ++others;
  }
  return others;
}

QString RunsModel::sharedCoresNote(const storage::RunRow& r) const {
  const int others = sharedCoresWith(r);
  if (others == 0) return {};
  const QString alongside = others == 1 ? tr("1 other run") : tr("%1 other runs").arg(others);
  return tr("* ran at the same time as %1: they shared the cores, so this is lower than the run "
            "alone would measure")
      .arg(alongside);
}

QVariant RunsModel::sortValue(const storage::RunRow& r, int column) const {
  switch (column) {
    case kId:
      return static_cast<qlonglong>(r.id);
    case kProgress:
      return progress(r);
    case kSpeed:
      return samplesPerSecond(r);
    case kFinalLoss:
      return r.final_loss ? *r.final_loss : std::numeric_limits<double>::infinity();
    case kAccuracy:
      return r.final_accuracy ? *r.final_accuracy : -1.0;
    default:
      return display(r, column).toString().toLower();
  }
}

QVariant RunsModel::data(const QModelIndex& index, int role) const {
  const storage::RunRow* r = index.isValid() ? run(index.row()) : nullptr;
  if (!r) return {};
  const int column = index.column();
  switch (role) {
    case Qt::DisplayRole:
      return display(*r, column);
    case Qt::EditRole:
      return display(*r, column);
    case Qt::CheckStateRole:
      if (column == kLabel) return shown_.contains(r->id) ? Qt::Checked : Qt::Unchecked;
      return {};
    case Qt::ToolTipRole:
      if (column == kStatus && !r->error.empty()) return QString::fromStdString(r->error);
      if (column == kStatus && !r->job_id.empty())
        return tr("Slurm job %1: %2")
            .arg(QString::fromStdString(r->job_id), QString::fromStdString(r->job_state));
      if (column == kLabel) return tr("Tick to draw run %1 on the chart").arg(r->id);
      if (column == kFinalLoss && r->final_eval_loss) {
        return tr("Final evaluation loss: %1").arg(*r->final_eval_loss, 0, 'g', 5);
      }
      if (column == kSpeed) {
        const QString what = tr("Training samples per second, all ranks together");
        const QString shared = sharedCoresNote(*r);
        return shared.isEmpty() ? what : what + "\n" + shared;
      }
      if (column == kNotes && !r->notes.empty()) return QString::fromStdString(r->notes);
      if (column == kSource) return sourceTip(*r);
      return {};
    case Qt::ForegroundRole:
      if (column == kStatus) {
        const QColor c = statusColor(r->status);
        if (c.isValid()) return QBrush(c);
      }
      return {};
    case Qt::TextAlignmentRole:
      if (column == kId || column == kSpeed || column == kFinalLoss || column == kAccuracy) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      }
      return {};
    case kRunIdRole:
      return static_cast<qlonglong>(r->id);
    case kSortRole:
      return sortValue(*r, column);
    case kProgressRole:
      return progress(*r);
    case kStatusRole:
      return statusText(r->status);
    default:
      return {};
  }
}

bool RunsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  const storage::RunRow* r = index.isValid() ? run(index.row()) : nullptr;
  if (!r) return false;
  const qint64 id = r->id;
  if (index.column() == kLabel && role == Qt::CheckStateRole) {
    setShown(id, value.toInt() == Qt::Checked);
    return true;
  }
  if (role != Qt::EditRole) return false;
  const QString text = value.toString();
  if (index.column() == kLabel) {
    if (text.trimmed().isEmpty()) return false;
    runs_[index.row()].label = text.toStdString();
    emit dataChanged(index, index);
    emit renameRequested(id, text);
    return true;
  }
  if (index.column() == kNotes) {
    runs_[index.row()].notes = text.toStdString();
    emit dataChanged(index, index);
    emit notesEdited(id, text);
    return true;
  }
  return false;
}

QVariant RunsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    static const char* kNames[] = {
        QT_TR_NOOP("#"),          QT_TR_NOOP("Label"),    QT_TR_NOOP("Status"),
        QT_TR_NOOP("Progress"),   QT_TR_NOOP("Setup"),    QT_TR_NOOP("Samples/s"),
        QT_TR_NOOP("Final loss"), QT_TR_NOOP("Accuracy"), QT_TR_NOOP("Data / source"),
        QT_TR_NOOP("Notes")};
    return section >= 0 && section < kColumnCount ? tr(kNames[section]) : QVariant();
  }
  if (role == Qt::ToolTipRole && section == kSetup) {
    return tr("processes × per-device batch, accumulation, = global batch, lr scaling, precision");
  }
  return {};
}

QString statusText(storage::RunStatus status) {
  return QString::fromLatin1(storage::to_string(status));
}

Qt::ItemFlags RunsModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
  if (index.column() == kLabel) f |= Qt::ItemIsUserCheckable | Qt::ItemIsEditable;
  if (index.column() == kNotes) f |= Qt::ItemIsEditable;
  return f;
}

}  // namespace parity::ui
