#include <parity/ui/import/import_dialog.h>
#include <parity/ui/import/run_importer.h>
#include <parity/ui/widgets/file_dialogs.h>

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace parity::ui {

ImportDialog::ImportDialog(QWidget* parent)
    : QDialog(parent),
      path_(new QLineEdit(this)),
      follow_(new QCheckBox(tr("&Follow: keep reading while their training still writes"), this)),
      status_(new QLabel(this)),
      listing_(new QPlainTextEdit(this)),
      debounce_(new QTimer(this)),
      preview_(new RunImporter(this)) {
  setWindowTitle(tr("Import runs"));
  auto* intro = new QLabel(
      tr("Runs trained elsewhere: a TensorBoard logdir (Accelerate, transformers, torch), a "
         "Hugging Face output_dir or trainer_state.json, an MLflow store, or a CSV/JSONL table "
         "of steps. Files are only read; facts the files do not say can be filled in later "
         "(Runs > Edit facts)."),
      this);
  intro->setWordWrap(true);

  auto* pathLabel = new QLabel(tr("&Path:"), this);
  pathLabel->setBuddy(path_);
  path_->setPlaceholderText(tr("a folder or file; several separated by ;"));
  auto* folder = new QPushButton(tr("F&older…"), this);
  auto* file = new QPushButton(tr("F&ile…"), this);
  auto* row = new QHBoxLayout;
  row->addWidget(pathLabel);
  row->addWidget(path_, 1);
  row->addWidget(folder);
  row->addWidget(file);

  listing_->setReadOnly(true);
  listing_->setLineWrapMode(QPlainTextEdit::NoWrap);
  listing_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  listing_->setPlaceholderText(tr("The runs found and their facts appear here."));
  status_->setObjectName("importStatus");
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
  import_ = buttons->addButton(tr("I&mport"), QDialogButtonBox::AcceptRole);
  import_->setEnabled(false);
  import_->setDefault(true);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addLayout(row);
  layout->addWidget(status_);
  layout->addWidget(listing_, 1);
  layout->addWidget(follow_);
  layout->addWidget(buttons);
  resize(720, 460);
  // Tab follows the screen: the path, its buttons, the listing, Follow, then the dialog's buttons.
  setTabOrder(path_, folder);
  setTabOrder(folder, file);
  setTabOrder(file, listing_);
  setTabOrder(listing_, follow_);
  setTabOrder(follow_, buttons);
  path_->setFocus();

  debounce_->setSingleShot(true);
  debounce_->setInterval(300);
  connect(debounce_, &QTimer::timeout, this, &ImportDialog::relist);
  connect(path_, &QLineEdit::textChanged, this, [this] {
    runsFound_ = 0;
    import_->setEnabled(false);
    debounce_->start();
  });
  connect(folder, &QPushButton::clicked, this, [this] { choose(true); });
  connect(file, &QPushButton::clicked, this, [this] { choose(false); });
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(preview_, &RunImporter::previewReady, this,
          [this](const QString& text, int runs, const QString& error) {
            runsFound_ = runs;
            listing_->setPlainText(text);
            status_->setText(error.isEmpty() ? tr("%1 run(s) found.").arg(runs) : error);
            import_->setEnabled(runs > 0);
            emit listed(runs);
          });
}

void ImportDialog::setPaths(const QStringList& paths) {
  path_->setText(paths.join(QStringLiteral(";")));
  debounce_->stop();
  relist();
}

QStringList ImportDialog::paths() const {
  QStringList out;
  for (const QString& p : path_->text().split(';', Qt::SkipEmptyParts)) {
    QString trimmed = p.trimmed();
    if (trimmed.startsWith(QStringLiteral("~/"))) trimmed = QDir::home().filePath(trimmed.mid(2));
    if (!trimmed.isEmpty()) out << trimmed;
  }
  return out;
}

bool ImportDialog::follow() const { return follow_->isChecked(); }

void ImportDialog::choose(bool folder) {
  const QStringList current = paths();
  const QString start = current.isEmpty() ? QDir::homePath() : current.front();
  const QString chosen = askPath(
      this, folder ? FileDialogKind::kFolder : FileDialogKind::kOpenFile,
      folder ? tr("Import the runs in a folder") : tr("Import the runs in a file"), start,
      folder ? QString() : tr("Logs (*.json *.csv *.jsonl *.db *tfevents*);;All files (*)"));
  if (!chosen.isEmpty()) setPaths({chosen});
}

void ImportDialog::relist() {
  const QStringList list = paths();
  runsFound_ = 0;
  import_->setEnabled(false);
  listing_->clear();
  if (list.isEmpty()) {
    status_->clear();
    return;
  }
  for (const QString& p : list) {
    if (!QFileInfo::exists(p)) {
      status_->setText(tr("%1 does not exist.").arg(p));
      emit listed(0);
      return;
    }
  }
  status_->setText(tr("Reading…"));
  preview_->preview(list);
}

}  // namespace parity::ui
