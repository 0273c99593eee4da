// The window's own file dialogs open wide enough to show every column (#24 item 17): Qt's
// default cut Size, Type and Date Modified off a 520 px dialog.
#include <gtest/gtest.h>
#include <parity/ui/widgets/file_dialogs.h>

#include <QFile>
#include <QFileSystemModel>
#include <QHeaderView>
#include <QScreen>
#include <QTemporaryDir>
#include <QTreeView>
#include <algorithm>
#include <memory>

#include "test_util.h"

namespace parity::ui {
namespace {

TEST(FileDialogs, OpenWideEnoughForTheSizeTypeAndDateColumns) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  for (const char* name : {"runs.db", "a-rather-long-file-name-of-losses.csv", "notes.txt"}) {
    QFile f(dir.filePath(name));
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(1500, 'x'));
  }
  for (FileDialogKind kind : {FileDialogKind::kOpenFile, FileDialogKind::kSaveFile}) {
    std::unique_ptr<QFileDialog> dialog(
        newFileDialog(nullptr, kind, "Open", dir.filePath("runs.db"), "All files (*)"));
    dialog->show();
    auto* tree = dialog->findChild<QTreeView*>("treeView");
    ASSERT_NE(tree, nullptr);
    auto* model = dialog->findChild<QFileSystemModel*>();
    ASSERT_NE(model, nullptr);
    ASSERT_TRUE(test::waitFor([&] {
      const QModelIndex i = model->index(dir.filePath("notes.txt"), 2);
      return i.isValid() && !i.data().toString().isEmpty() &&
             model->rowCount(tree->rootIndex()) == 3;
    }));
    // Wide enough for the columns, within the screen (offscreen's is 800 px wide).
    EXPECT_GE(dialog->width(),
              std::min(760, dialog->screen()->availableGeometry().width() * 9 / 10));
    QHeaderView* header = tree->header();
    const int viewport = header->viewport()->width();
    // The widest text each column shows for the folder's files.
    const QModelIndex root = tree->rootIndex();
    auto widest = [&](int column) {
      int w = 0;
      for (int row = 0; row < model->rowCount(root); ++row) {
        const QString text = model->index(row, column, root).data().toString();
        w = std::max(w, tree->fontMetrics().horizontalAdvance(text));
      }
      return w;
    };
    ASSERT_EQ(model->rowCount(root), 3);
    for (int column = 1; column <= 3; ++column) {
      const int right = header->sectionViewportPosition(column) + header->sectionSize(column);
      EXPECT_LE(right, viewport) << "column " << column << " runs past the view";
      EXPECT_GE(header->sectionSize(column), widest(column))
          << "column " << column << " cuts its values";
      EXPECT_GE(header->sectionSize(column), header->sectionSizeHint(column))
          << "column " << column << " cuts its title";
    }
    EXPECT_GE(header->sectionSize(0), 200) << "the name keeps room";
  }
}

}  // namespace
}  // namespace parity::ui
