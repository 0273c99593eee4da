#include <parity/config/setup_text.h>
#include <parity/ui/setups/setup_presets.h>
#include <parity/ui/setups/setups_model.h>

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStyle>

namespace parity::ui {

namespace {

/// "2x64", or "2x64 (3)" as uniqueLabel makes it: a label that only says the setup's shape.
bool isDerivedLabel(const config::RunConfig& setup) {
  const QString label = QString::fromStdString(setup.label).trimmed();
  const QString base = QString::fromStdString(config::default_label(setup));
  if (label.isEmpty() || label == base) return true;
  static const QRegularExpression kNumbered(R"(^(.*) \((\d+)\)$)");
  const QRegularExpressionMatch m = kNumbered.match(label);
  return m.hasMatch() && m.captured(1) == base;
}

}  // namespace

SetupsModel::SetupsModel(QObject* parent)
    : QAbstractListModel(parent), experiment_(defaultExperiment()) {}

int SetupsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(setups_.size());
}

QVariant SetupsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const config::RunConfig& s = setups_[index.row()];
  const auto& problems = issues_[index.row()];
  switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
      return QString::fromStdString(s.label);
    case Qt::DecorationRole:
      if (problems.empty()) return {};
      return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
    case Qt::ToolTipRole: {
      if (problems.empty()) return tr("Double-click to rename");
      QStringList lines;
      for (const auto& p : problems) lines << QString::fromStdString(p.message);
      return lines.join('\n');
    }
    case kIssuesRole:
      return static_cast<int>(problems.size());
    default:
      return {};
  }
}

bool SetupsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!index.isValid() || role != Qt::EditRole) return false;
  const QString label = value.toString().trimmed();
  if (label.isEmpty()) return false;
  setups_[index.row()].label = label.toStdString();
  derived_[index.row()] = false;  // named by the user
  emit dataChanged(index, index);
  emit setupsChanged();
  return true;
}

Qt::ItemFlags SetupsModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsEditable;
}

int SetupsModel::addSetup(config::RunConfig setup) {
  applyExperiment(experiment_, setup);
  const bool derived = isDerivedLabel(setup);
  setup.label = derived ? derivedLabel(setup, -1)
                        : uniqueLabel(QString::fromStdString(setup.label)).toStdString();
  const int row = rowCount();
  beginInsertRows({}, row, row);
  derived_.push_back(derived);
  setups_.push_back(std::move(setup));
  issues_.push_back(config::check(config(row)));
  endInsertRows();
  emit setupsChanged();
  return row;
}

int SetupsModel::duplicateSetup(int row) {
  if (row < 0 || row >= rowCount()) return -1;
  return addSetup(setups_[row]);
}

void SetupsModel::removeSetup(int row) {
  if (row < 0 || row >= rowCount()) return;
  beginRemoveRows({}, row, row);
  setups_.erase(setups_.begin() + row);
  issues_.erase(issues_.begin() + row);
  derived_.erase(derived_.begin() + row);
  endRemoveRows();
  emit setupsChanged();
}

void SetupsModel::reset(const config::RunConfig& experiment,
                        std::vector<config::RunConfig> setups) {
  beginResetModel();
  experiment_ = experiment;
  setups_ = std::move(setups);
  derived_.clear();
  for (auto& s : setups_) {
    applyExperiment(experiment_, s);
    derived_.push_back(isDerivedLabel(s));
  }
  issues_.assign(setups_.size(), {});
  endResetModel();
  revalidate();
  emit setupsChanged();
}

config::RunConfig SetupsModel::config(int row) const {
  config::RunConfig c = setups_.at(row);
  applyExperiment(experiment_, c);
  return c;
}

std::vector<config::RunConfig> SetupsModel::configs() const {
  std::vector<config::RunConfig> all;
  for (int row = 0; row < rowCount(); ++row) all.push_back(config(row));
  return all;
}

void SetupsModel::setSetup(int row, const config::RunConfig& setup) {
  if (row < 0 || row >= rowCount()) return;
  // A label other than the stored one was typed: from now on it is the user's.
  if (setup.label != setups_[row].label) derived_[row] = false;
  setups_[row] = setup;
  applyExperiment(experiment_, setups_[row]);
  if (derived_[row]) setups_[row].label = derivedLabel(setups_[row], row);
  issues_[row] = config::check(config(row));
  emit dataChanged(index(row), index(row));
  emit setupsChanged();
}

void SetupsModel::setExperiment(const config::RunConfig& experiment) {
  experiment_ = experiment;
  for (auto& s : setups_) applyExperiment(experiment_, s);
  revalidate();
  emit setupsChanged();
}

const std::vector<config::ConfigIssue>& SetupsModel::issues(int row) const {
  static const std::vector<config::ConfigIssue> kNone;
  return row >= 0 && row < rowCount() ? issues_[row] : kNone;
}

bool SetupsModel::allValid() const {
  if (setups_.empty()) return false;
  for (const auto& i : issues_) {
    if (!i.empty()) return false;
  }
  return true;
}

bool SetupsModel::labelFollowsShape(int row) const {
  return row >= 0 && row < rowCount() && derived_[row];
}

std::string SetupsModel::derivedLabel(const config::RunConfig& setup, int row) const {
  return uniqueLabel(QString::fromStdString(config::default_label(setup)), row).toStdString();
}

QString SetupsModel::uniqueLabel(const QString& base, int exceptRow) const {
  auto used = [this, exceptRow](const QString& label) {
    for (int r = 0; r < rowCount(); ++r) {
      if (r != exceptRow && QString::fromStdString(setups_[r].label) == label) return true;
    }
    return false;
  };
  const QString stem = base.trimmed().isEmpty() ? tr("setup") : base.trimmed();
  if (!used(stem)) return stem;
  for (int n = 2;; ++n) {
    const QString candidate = QString("%1 (%2)").arg(stem).arg(n);
    if (!used(candidate)) return candidate;
  }
}

void SetupsModel::revalidate() {
  issues_.resize(setups_.size());
  for (int row = 0; row < rowCount(); ++row) issues_[row] = config::check(config(row));
  if (rowCount() > 0) emit dataChanged(index(0), index(rowCount() - 1));
}

QString SetupsModel::toJson() const {
  QJsonArray setups;
  for (const auto& s : setups_) {
    setups.append(QJsonDocument::fromJson(QByteArray::fromStdString(config::to_json(s))).object());
  }
  QJsonObject root;
  root["experiment"] =
      QJsonDocument::fromJson(QByteArray::fromStdString(config::to_json(experiment_))).object();
  root["setups"] = setups;
  return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Compact));
}

bool SetupsModel::fromJson(const QString& json) {
  const QJsonObject root = QJsonDocument::fromJson(json.toUtf8()).object();
  if (!root.contains("experiment") || !root["setups"].isArray()) return false;
  try {
    auto parse = [](const QJsonValue& v) {
      return config::from_json(QJsonDocument(v.toObject()).toJson().toStdString());
    };
    const config::RunConfig experiment = parse(root["experiment"]);
    std::vector<config::RunConfig> setups;
    for (const QJsonValue& v : root["setups"].toArray()) setups.push_back(parse(v));
    reset(experiment, std::move(setups));
    return true;
  } catch (const std::exception&) {
    return false;  // saved by another version: start from the defaults instead
  }
}

}  // namespace parity::ui
