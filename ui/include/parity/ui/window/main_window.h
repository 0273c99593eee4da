#pragma once
/// Parity's main window. It owns the models and the database/launcher plumbing and delegates
/// everything visible to panels: Setups (left dock), the loss chart (centre), Runs, Equivalent
/// batch and Compare (tabbed docks under the chart, main_window_docks.cpp). Menus and actions are
/// in main_window_actions.cpp, importing in main_window_import.cpp, the setups kept with the
/// database in main_window_setups.cpp, what is kept between sessions in main_window_settings.cpp.
/// Thread affinity: UI thread. Database work runs in DatabaseThread's and LossChart's threads.

#include <parity/config/run_config.h>
#include <parity/ui/database/database_worker.h>

#include <QMainWindow>
#include <QSet>
#include <QStringList>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QProgressBar;
class QSettings;
class QTimer;

namespace parity::ui {

class ChartPanel;
class ComparePanel;
class DatabaseThread;
class EquivalentBatchPanel;
class RunImporter;
class RunLauncher;
class RunsModel;
class RunsPanel;
class SetupsModel;
class SetupsPanel;

struct MainWindowOptions {
  /// Restore and save geometry, last database, chart choices and setups in QSettings.
  bool useSettings = true;
  /// Print problems to stderr instead of opening dialogs (tests, --screenshot).
  bool quiet = false;
};

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(const MainWindowOptions& options = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  /// The database under QStandardPaths::AppDataLocation (shared with parity-cli's default).
  static QString defaultDatabasePath();
  /// The database opened last (QSettings), else the default.
  static QString lastDatabasePath();

  void openDatabase(const QString& path);
  QString databasePath() const;
  /// Replaces the setups with the demo's and launches them once the database is open.
  void launchDemo();
  void launch(const std::vector<config::RunConfig>& configs);
  /// File > Import runs…: the import dialog, showing the runs under `paths` when given.
  void importRuns(const QStringList& paths = {});
  /// Imports `paths` into the open database (progress in the status bar; with `follow` until
  /// stopped).
  void startImport(const QStringList& paths, bool follow);
  /// Runs > Edit facts… of an imported run.
  void editFacts(qint64 runId);

  /// Everything listed and drawn; with waitForRuns also no launched run still going.
  bool isSettled(bool waitForRuns) const;

  SetupsModel* setupsModel() const { return setups_; }
  RunsModel* runsModel() const { return runs_; }
  SetupsPanel* setupsPanel() const { return setupsPanel_; }
  RunsPanel* runsPanel() const { return runsPanel_; }
  ChartPanel* chartPanel() const { return chartPanel_; }
  EquivalentBatchPanel* equivalentPanel() const { return equivalentPanel_; }
  ComparePanel* comparePanel() const { return comparePanel_; }
  RunLauncher* launcher() const { return launcher_; }
  RunImporter* importer() const { return importer_; }

 signals:
  void databaseReady(const QString& path);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  // main_window_actions.cpp
  void createActions();
  void createMenus();
  void newDatabase();
  void chooseDatabase();
  void exportCurves();
  void exportRuns();
  /// File → Export report…: what Compare shows (its reference and compared runs) as an HTML,
  /// PDF or CSV report (report::build_report), written by the database thread.
  void exportReport();
  void exportChart(bool svg);
  void showShortcuts();
  void resetLayout();
  void showDock(QDockWidget* dock);
  QString askSavePath(const QString& title, const QString& name, const QString& filter);

  // main_window_import.cpp
  void createImport();
  void onImportFinished(int exitCode, const QString& summary, const QString& problems);

  // main_window_setups.cpp
  void createSetupsKeeping();
  void onSetupsRead(const QString& path, const QString& json);
  void saveSetupsNow();
  void flushSetups();
  void newSetupFromRun(qint64 runId);
  /// Make it equivalent's remedy added as the setup "fix #RUN" (the Experiment left as it is).
  void onFixQueued(const RemedyPlan& fix);

  // main_window_docks.cpp
  void createDocks();

  // main_window_settings.cpp
  static QSettings settings();  ///< the window's own (an ini file under the user's config)
  void restoreSettings();
  /// Fits a restored geometry to the screen; again once shown, when the frame's size is known.
  void fitToScreen();
  void saveSettings() const;

  // main_window.cpp
  void connectPlumbing();
  void connectDrawnRuns();
  void onRunsListed(const RunRows& runs);
  void updateChartRuns();
  void updateStatus();
  void stopRuns(const QList<qint64>& ids);
  void deleteRuns(const QList<qint64>& ids);
  bool confirmDelete(const QList<qint64>& ids);
  void noteFailure(qint64 runId, const QString& error);

  MainWindowOptions options_;
  DatabaseThread* db_;
  RunLauncher* launcher_;
  RunImporter* importer_ = nullptr;
  QWidget* importBox_ = nullptr;
  QLabel* importLabel_ = nullptr;
  QProgressBar* importBar_ = nullptr;
  SetupsModel* setups_;
  RunsModel* runs_;
  SetupsPanel* setupsPanel_;
  RunsPanel* runsPanel_;
  ChartPanel* chartPanel_;
  EquivalentBatchPanel* equivalentPanel_;
  ComparePanel* comparePanel_;
  QDockWidget* setupsDock_ = nullptr;
  QDockWidget* runsDock_ = nullptr;
  QDockWidget* equivalentDock_ = nullptr;
  QDockWidget* compareDock_ = nullptr;
  QLabel* dbLabel_ = nullptr;
  QLabel* failedLabel_ = nullptr;
  QStringList failures_;  ///< "#id label: problem fix" of the runs failed since the last launch

  QAction* newDb_ = nullptr;
  QAction* openDb_ = nullptr;
  QAction* importRuns_ = nullptr;
  QAction* exportCurves_ = nullptr;
  QAction* exportRuns_ = nullptr;
  QAction* exportReport_ = nullptr;
  QAction* exportPng_ = nullptr;
  QAction* exportSvg_ = nullptr;
  QAction* quit_ = nullptr;
  QAction* launch_ = nullptr;
  QAction* demo_ = nullptr;
  QAction* stopAll_ = nullptr;
  QAction* resetZoom_ = nullptr;
  QAction* logY_ = nullptr;
  QAction* ranks_ = nullptr;
  QAction* resetLayout_ = nullptr;
  QByteArray defaultLayout_;  ///< the docks as first laid out, for View > Reset layout

  /// The share of the window's height (%) the docks under the chart take when Compare first
  /// comes to the front, and the most they keep while it is there.
  static constexpr int kCompareShare = 50;
  bool compareSized_ = false;    ///< Compare came to the front once and was given its height
  bool compareInFront_ = false;  ///< the Compare tab is the one shown

  /// A change to the setups waits this long for the next before it is saved.
  static constexpr int kSetupsSaveDelayMs = 400;
  QTimer* setupsSave_ = nullptr;
  bool applyingSetups_ = false;  ///< the setups are being replaced by the database's
  bool setupsUnsaved_ = false;   ///< the user changed the setups since they were last saved
  bool setupsRead_ = false;      ///< the open database's saved setups were read

  bool polledOnce_ = false;
  bool awaitingFinalPoll_ = false;
  int finalPolls_ = 0;   ///< listings since the launcher went idle
  QSet<qint64> exited_;  ///< runs whose process ended since the last final listing
  bool demoPending_ = false;
  bool fittedOnce_ = false;  ///< the restored geometry fitted again once the window was shown
};

}  // namespace parity::ui
