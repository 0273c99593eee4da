#pragma once
/// The runs table with its filter box and context menu (show on chart, rename, notes, stop,
/// delete). It only asks: the window decides what stop and delete do.
/// Thread affinity: UI thread.

#include <QList>
#include <QWidget>
#include <functional>

class QAction;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace parity::ui {

class RunsModel;

class RunsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit RunsPanel(RunsModel* model, QWidget* parent = nullptr);

  QList<qint64> selectedRunIds() const;
  QTableView* view() const { return view_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }

  QAction* renameAction() const { return rename_; }
  QAction* notesAction() const { return notes_; }
  QAction* stopAction() const { return stop_; }
  QAction* deleteAction() const { return delete_; }
  /// Edit facts… of the one imported run selected (editFactsRequested).
  QAction* factsAction() const { return facts_; }
  QAction* newSetupAction() const { return newSetup_; }
  /// Compare selected: the selected runs compared (compareRequested), enabled for two or more.
  QAction* compareAction() const { return compare_; }

  /// Whether the filter box lets this run's row through (the chart draws only those).
  bool passesFilter(qint64 runId) const;
  QString filterText() const;

  /// Whether the window can stop this run (it launched it); used to enable Stop.
  void setCanStop(std::function<bool(qint64)> canStop);
  /// Asks canStop (and the rest) again for the selected runs.
  void refreshActions() { updateActions(); }

 signals:
  void stopRequested(const QList<qint64>& runIds);
  void deleteRequested(const QList<qint64>& runIds);
  void editFactsRequested(qint64 runId);
  /// "New setup from run #N": a setup with the run's values.
  void newSetupRequested(qint64 runId);
  void selectionChanged();
  void compareRequested(const QList<qint64>& runIds);
  /// The filter box's text changed: the rows it lets through are others.
  void filterChanged();

 private:
  void createActions();
  void updateActions();
  void editNotes();
  void showMenu(const QPoint& pos);
  void setShownForSelection(bool shown);

  RunsModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* view_;
  QLineEdit* filter_;
  QAction* show_;
  QAction* hide_;
  QAction* rename_;
  QAction* notes_;
  QAction* stop_;
  QAction* delete_;
  QAction* facts_;
  QAction* newSetup_;
  QAction* compare_;
  std::function<bool(qint64)> canStop_;
};

}  // namespace parity::ui
