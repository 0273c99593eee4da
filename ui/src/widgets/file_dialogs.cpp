#include <parity/ui/widgets/file_dialogs.h>

#include <QCoreApplication>
#include <QDateTime>
#include <QFileIconProvider>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHeaderView>
#include <QIcon>
#include <QLocale>
#include <QMimeDatabase>
#include <QMimeType>
#include <QScreen>
#include <QTreeView>
#include <algorithm>
#include <memory>

namespace parity::ui {

namespace {

/// Icons and type names from a file's name and its stat() alone: Qt's QFileIconProvider reads
/// the contents of files whose names say nothing (see the header for why that loses writes).
/// Called from the dialog's file-info thread as well as the UI thread; it holds no state.
class NameOnlyIconProvider : public QFileIconProvider {
 public:
  using QFileIconProvider::icon;

  QIcon icon(const QFileInfo& info) const override {
    if (info.isDir()) return icon(QAbstractFileIconProvider::Folder);
    const QMimeType mime = byName(info);
    const QIcon fallback = icon(QAbstractFileIconProvider::File);
    return mime.isDefault() ? fallback : QIcon::fromTheme(mime.iconName(), fallback);
  }

  QString type(const QFileInfo& info) const override {
    if (info.isDir()) return QFileIconProvider::type(info);  // "Folder": no file is read
    const QMimeType mime = byName(info);
    if (!mime.isDefault()) return mime.comment().isEmpty() ? mime.name() : mime.comment();
    return info.suffix().isEmpty() ? tr("File") : tr("%1 file").arg(info.suffix());
  }

 private:
  static QString tr(const char* text) { return QCoreApplication::translate("parity::ui::NameOnlyIconProvider", text); }
  static QMimeType byName(const QFileInfo& info) {
    return QMimeDatabase().mimeTypeForFile(info.fileName(), QMimeDatabase::MatchExtension);
  }
};

/// One provider for every dialog, alive as long as the program: a dialog's file-info thread may
/// still use it while the dialog is being destroyed.
QAbstractFileIconProvider* nameOnlyIconProvider() {
  static NameOnlyIconProvider provider;
  return &provider;
}

/// Qt's dialog opens about 520 px wide with a 250 px Name column, so Size, Type and Date Modified
/// were cut. Each of those columns gets the width of its longest usual text, the name the rest,
/// and the dialog the width they need (within the screen).
void sizeToShowColumns(QFileDialog* dialog) {
  auto* tree = dialog->findChild<QTreeView*>("treeView");
  if (!tree) return;
  const QFontMetrics fm(tree->font());
  const QString date =
      QLocale().toString(QDateTime(QDate(2026, 12, 31), QTime(23, 59, 59)), QLocale::ShortFormat);
  const QString longest[] = {QStringLiteral("1023.99 KiB"), QStringLiteral("SQLite3 database"),
                             date};
  QHeaderView* header = tree->header();
  header->setStretchLastSection(false);
  header->setSectionResizeMode(0, QHeaderView::Stretch);
  const int padding = 4 * fm.averageCharWidth();
  int others = 0;
  for (int column = 1; column <= 3; ++column) {
    const QString title =
        tree->model() ? tree->model()->headerData(column, Qt::Horizontal).toString() : QString();
    const int width = std::max(fm.horizontalAdvance(longest[column - 1]),
                               fm.horizontalAdvance(title) + fm.averageCharWidth()) +
                      padding;
    header->setSectionResizeMode(column, QHeaderView::Interactive);
    header->resizeSection(column, width);
    others += width;
  }
  // The sidebar of places (about 150 px) and a name column of 40 characters beside them.
  QSize size(others + 40 * fm.averageCharWidth() + 200, 34 * fm.height());
  const QScreen* screen =
      dialog->parentWidget() ? dialog->parentWidget()->screen() : dialog->screen();
  if (screen) size = size.boundedTo(screen->availableGeometry().size() * 9 / 10);
  dialog->resize(size.expandedTo(dialog->sizeHint()));
}

}  // namespace

QFileDialog* newFileDialog(QWidget* parent, FileDialogKind kind, const QString& title,
                           const QString& path, const QString& filter) {
  auto* dialog = new QFileDialog(parent, title);
  // Before anything makes the dialog list a folder, so that no file is ever typed by content.
  dialog->setOption(QFileDialog::DontUseNativeDialog);
  dialog->setIconProvider(nameOnlyIconProvider());
  dialog->setModal(true);
  switch (kind) {
    case FileDialogKind::kOpenFile:
      dialog->setFileMode(QFileDialog::ExistingFile);
      dialog->setAcceptMode(QFileDialog::AcceptOpen);
      break;
    case FileDialogKind::kSaveFile:
      dialog->setFileMode(QFileDialog::AnyFile);
      dialog->setAcceptMode(QFileDialog::AcceptSave);
      break;
    case FileDialogKind::kFolder:
      dialog->setFileMode(QFileDialog::Directory);
      dialog->setOption(QFileDialog::ShowDirsOnly);
      dialog->setAcceptMode(QFileDialog::AcceptOpen);
      break;
  }
  if (!filter.isEmpty()) dialog->setNameFilters(filter.split(QStringLiteral(";;")));
  const QFileInfo info(path);
  if (kind != FileDialogKind::kFolder && !path.isEmpty() && !info.isDir()) {
    dialog->setDirectory(info.absolutePath());
    dialog->selectFile(info.fileName());
  } else if (!path.isEmpty()) {
    dialog->setDirectory(path);
  }
  sizeToShowColumns(dialog);
  return dialog;
}

QString askPath(QWidget* parent, FileDialogKind kind, const QString& title, const QString& path,
                const QString& filter) {
  std::unique_ptr<QFileDialog> dialog(newFileDialog(parent, kind, title, path, filter));
  if (dialog->exec() != QDialog::Accepted || dialog->selectedFiles().isEmpty()) return {};
  return dialog->selectedFiles().front();
}

}  // namespace parity::ui
