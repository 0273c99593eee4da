#pragma once
/// The setups being configured: one shared experiment plus a list of setups, each validated with
/// the engine's own check(). Rows are setups; the label is editable in place (rename). A setup's
/// label follows its shape ("2x64", "4x16 acc2 bf16") until the user names it.
/// Thread affinity: UI thread.

#include <parity/config/run_config.h>

#include <QAbstractListModel>
#include <vector>

namespace parity::ui {

class SetupsModel : public QAbstractListModel {
  Q_OBJECT
 public:
  enum Role { kIssuesRole = Qt::UserRole + 1 };

  explicit SetupsModel(QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;

  /// Appends a setup (its experiment fields are replaced by the shared ones); returns its row.
  int addSetup(config::RunConfig setup);
  int duplicateSetup(int row);
  void removeSetup(int row);
  /// Replaces everything, e.g. with the demo or restored settings.
  void reset(const config::RunConfig& experiment, std::vector<config::RunConfig> setups);

  /// The full config of a setup: its own fields plus the experiment's.
  config::RunConfig config(int row) const;
  std::vector<config::RunConfig> configs() const;
  void setSetup(int row, const config::RunConfig& setup);
  const config::RunConfig& experiment() const { return experiment_; }
  void setExperiment(const config::RunConfig& experiment);

  /// check()'s problems with the setup's full config.
  const std::vector<config::ConfigIssue>& issues(int row) const;
  /// Every setup valid, and at least one.
  bool allValid() const;
  /// A label not used yet by any setup but `exceptRow`, from a base ("2x128", "2x128 (2)", ...).
  QString uniqueLabel(const QString& base, int exceptRow = -1) const;
  /// Whether the setup's label still follows its shape (not named by the user).
  bool labelFollowsShape(int row) const;

  /// JSON for QSettings: {"experiment": {...}, "setups": [...]}; and back (false if unreadable).
  QString toJson() const;
  bool fromJson(const QString& json);

 signals:
  /// Any setup or the experiment changed (validation already redone).
  void setupsChanged();

 private:
  void revalidate();
  /// The label a derived-label setup gets at `row`: its default label, made unique.
  std::string derivedLabel(const config::RunConfig& setup, int row) const;

  config::RunConfig experiment_;
  std::vector<config::RunConfig> setups_;
  std::vector<std::vector<config::ConfigIssue>> issues_;
  std::vector<bool> derived_;  ///< per setup: the label follows the shape
};

}  // namespace parity::ui
