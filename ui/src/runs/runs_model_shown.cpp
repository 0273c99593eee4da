// RunsModel: which runs the chart draws (the check boxes of the label column), the user's
// choices among them and the newest-runs default of a database's first listing.
#include <parity/ui/runs/runs_model.h>

#include <algorithm>
#include <vector>

namespace parity::ui {

void RunsModel::showAtFirstListing() {
  std::vector<qint64> ids;
  for (const auto& r : runs_) ids.push_back(r.id);
  std::sort(ids.begin(), ids.end());
  const int skip = std::max(0, static_cast<int>(ids.size()) - initialShown_);
  for (int i = 0; i < static_cast<int>(ids.size()); ++i) {
    if (choices_.value(ids[i], i >= skip)) shown_.insert(ids[i]);
  }
}

void RunsModel::setShownChoices(const QHash<qint64, bool>& choices) {
  choices_ = choices;
  if (!listedOnce_) return;  // the first listing applies them
  // Late (the listing came first): the kept choices win over the default already applied.
  for (auto it = choices.begin(); it != choices.end(); ++it) {
    const int row = rowOf(it.key());
    if (row < 0 || shown_.contains(it.key()) == it.value()) continue;
    if (it.value()) {
      shown_.insert(it.key());
    } else {
      shown_.remove(it.key());
    }
    emit dataChanged(index(row, kLabel), index(row, kLabel), {Qt::CheckStateRole});
  }
  emit shownRunsChanged();
}

QList<qint64> RunsModel::shownRuns() const {
  QList<qint64> ids;
  for (const auto& r : runs_) {
    if (shown_.contains(r.id)) ids.append(r.id);
  }
  return ids;
}

QList<qint64> RunsModel::hiddenRuns() const {
  QList<qint64> ids;
  for (const auto& r : runs_) {
    if (!shown_.contains(r.id)) ids.append(r.id);
  }
  return ids;
}

void RunsModel::setShown(qint64 id, bool shown) { setShown(QList<qint64>{id}, shown); }

void RunsModel::setShown(const QList<qint64>& ids, bool shown) {
  QList<qint64> chosen;
  bool changed = false;
  for (qint64 id : ids) {
    const int row = rowOf(id);
    if (row < 0) continue;
    chosen.append(id);
    choices_.insert(id, shown);
    if (shown_.contains(id) == shown) continue;
    if (shown) {
      shown_.insert(id);
    } else {
      shown_.remove(id);
    }
    changed = true;
    emit dataChanged(index(row, kLabel), index(row, kLabel), {Qt::CheckStateRole});
  }
  if (!chosen.isEmpty()) emit shownChosen(chosen, shown);
  if (changed) emit shownRunsChanged();
}

}  // namespace parity::ui
