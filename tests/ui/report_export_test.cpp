// File → Export report… (#34): what the Compare panel shows, written through the report library
// by the database thread, as a person asks for it: the menu's action, the file dialog answered
// with a path, the file then on disk. Before any comparison it says what to do first and writes
// nothing; a format no writer knows gets the window's failure message and no file.
#include <gtest/gtest.h>

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <parity/ui/compare/compare_panel.h>
#include <parity/ui/runs/runs_model.h>
#include <parity/ui/window/main_window.h>

#include "test_util.h"

namespace parity::ui {
namespace {

QAction* exportAction(MainWindow& window) {
  for (QAction* a : window.findChildren<QAction*>())
    if (a->text() == MainWindow::tr("E&xport report…")) return a;
  return nullptr;
}

// Answers the next modal dialog: a file dialog with `path`, a message box by closing it; says
// which came.
void answerNextDialog(const QString& path, QString* came) {
  QTimer* poll = new QTimer;
  QObject::connect(poll, &QTimer::timeout, [poll, path, came] {
    QWidget* modal = QApplication::activeModalWidget();
    if (!modal) return;
    if (auto* dialog = qobject_cast<QFileDialog*>(modal)) {
      // Typed once the dialog has settled on its suggested name, as a person types over it.
      QTimer::singleShot(300, dialog, [dialog, path, came] {
        auto* name = dialog->findChild<QLineEdit*>("fileNameEdit");
        if (name) name->setText(path);
        else dialog->selectFile(path);
        static_cast<QDialog*>(dialog)->accept();  // (QFileDialog::accept is protected)
        *came = "file";
      });
    } else if (auto* box = qobject_cast<QMessageBox*>(modal)) {
      *came = "message: " + box->text();
      box->accept();
    }
    poll->deleteLater();
    poll->stop();
  });
  poll->start(20);
}

class ExportReport : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir.isValid());
    qputenv("HOME", dir.path().toUtf8());  // the export folder it remembers is the test's own
    path = dir.filePath("runs.db");
    storage::Database db(path.toStdString());
    reference = test::addFinishedRun(db, "1x64", 200, 64);
    other = test::addFinishedRun(db, "2x32 <b>", 200, 64, "{}", 1.5);
  }
  QTemporaryDir dir;
  QString path;
  int64_t reference = 0, other = 0;
};

TEST_F(ExportReport, WritesWhatCompareShowsAsHtmlAndPdfAndSaysWhatComesFirst) {
  MainWindow window({false, false});  // not quiet: problems open their box
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));
  QAction* action = exportAction(window);
  ASSERT_NE(action, nullptr);

  // Nothing compared yet: it says so and writes nothing.
  QString came;
  answerNextDialog(dir.filePath("early.html"), &came);
  action->trigger();
  ASSERT_TRUE(test::waitFor([&] { return !came.isEmpty(); }));
  EXPECT_TRUE(came.startsWith("message: ")) << came.toStdString();
  EXPECT_TRUE(came.contains("Compare runs first")) << came.toStdString();
  EXPECT_FALSE(QFile::exists(dir.filePath("early.html")));

  for (int64_t id : {reference, other}) window.runsModel()->setShown(id, true);
  ComparePanel* panel = window.comparePanel();
  ASSERT_TRUE(test::waitFor([&] { return panel->referenceId() == reference; }));
  bool compared = false;
  QObject::connect(panel, &ComparePanel::compared, [&] { compared = true; });
  panel->compare();
  ASSERT_TRUE(test::waitFor([&] { return compared; }));

  for (const QString name : {"report.html", "report.pdf"}) {
    const QString out = dir.filePath(name);
    came.clear();
    answerNextDialog(out, &came);
    action->trigger();
    ASSERT_TRUE(test::waitFor([&] { return came == "file"; })) << came.toStdString();
    const bool written = test::waitFor([&] { return QFileInfo(out).size() > 1000; }, 15000);
    QString problems;
    for (auto* box : window.findChildren<QMessageBox*>())
      if (box->isVisible()) problems += box->windowTitle() + ": " + box->text() + "\n";
    ASSERT_TRUE(written) << name.toStdString() << " not written; " << problems.toStdString()
                         << " status: " << window.statusBar()->currentMessage().toStdString()
                         << " files: " << QDir(dir.path()).entryList().join(",").toStdString();
  }
  QFile html(dir.filePath("report.html"));
  ASSERT_TRUE(html.open(QIODevice::ReadOnly));
  const QString text = QString::fromUtf8(html.readAll());
  EXPECT_TRUE(text.contains("<svg")) << "no inline plot";
  EXPECT_FALSE(text.contains("<script"));
  EXPECT_TRUE(text.contains("2x32 &lt;b&gt;")) << "the compared run, its label escaped";
  EXPECT_FALSE(text.contains("2x32 <b>"));
  QFile pdf(dir.filePath("report.pdf"));
  ASSERT_TRUE(pdf.open(QIODevice::ReadOnly));
  EXPECT_EQ(pdf.read(5), QByteArray("%PDF-"));

  // A format no writer knows: the window's problem box (not modal) names the export, and no file
  // is made.
  const QString nowhere = dir.filePath("report.docx");
  came.clear();
  answerNextDialog(nowhere, &came);
  action->trigger();
  ASSERT_TRUE(test::waitFor([&] { return came == "file"; })) << came.toStdString();
  QMessageBox* problem = nullptr;
  ASSERT_TRUE(test::waitFor([&] {
    for (auto* box : window.findChildren<QMessageBox*>())
      if (box->isVisible() && box->windowTitle().contains("report")) problem = box;
    return problem != nullptr;
  })) << "files: " << QDir(dir.path()).entryList().join(",").toStdString() << "; boxes: "
      << [&] {
           QString all;
           for (auto* w : QApplication::topLevelWidgets())
             if (w->isVisible()) all += w->metaObject()->className() + QString(" ") + w->windowTitle() + "; ";
           return all.toStdString();
         }();
  EXPECT_TRUE(problem->windowTitle().contains(nowhere)) << problem->windowTitle().toStdString();
  EXPECT_FALSE(QFile::exists(nowhere));
}

}  // namespace
}  // namespace parity::ui
