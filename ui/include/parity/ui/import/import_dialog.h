#pragma once
/// File > Import runs…: the runs trained elsewhere that a folder or file holds, listed with their
/// facts before anything is written (a dry run of `parity-cli import`), and whether to keep
/// following them while their training still writes. Folders and files are chosen through the
/// window's own file dialogs (file_dialogs.h), which never open the files they list.
/// Thread affinity: UI thread.

#include <QDialog>
#include <QStringList>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTimer;

namespace parity::ui {

class RunImporter;

class ImportDialog : public QDialog {
  Q_OBJECT
 public:
  explicit ImportDialog(QWidget* parent = nullptr);

  /// The paths to import (the line's entries, separated by ';'), and shows their runs.
  void setPaths(const QStringList& paths);
  QStringList paths() const;
  bool follow() const;
  /// Runs the last listing found (0 while it is being read).
  int runsFound() const { return runsFound_; }

  QLineEdit* pathEdit() const { return path_; }
  QPlainTextEdit* listing() const { return listing_; }
  QPushButton* importButton() const { return import_; }

 signals:
  /// The listing for the current paths arrived.
  void listed(int runs);

 private:
  void choose(bool folder);
  void relist();

  QLineEdit* path_;
  QCheckBox* follow_;
  QLabel* status_;
  QPlainTextEdit* listing_;
  QPushButton* import_;
  QTimer* debounce_;
  RunImporter* preview_;
  int runsFound_ = 0;
};

}  // namespace parity::ui
