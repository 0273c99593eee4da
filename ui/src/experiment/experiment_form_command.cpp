// ExperimentForm: "Trains: your command" — the user's own training command instead of Parity's
// engine: its template, working folder and environment, and a live preview of what each setup
// will run (the same expansion parity-cli does: launch/command_template.h).
#include <parity/launch/command_template.h>
#include <parity/launch/launch_error.h>
#include <parity/ui/experiment/experiment_form.h>
#include <parity/ui/widgets/file_dialogs.h>

#include <QComboBox>
#include <QFontDatabase>
#include <QLabel>
#include <QLineEdit>
#include <QSet>

#include "experiment_form_p.h"

namespace parity::ui {

using namespace experiment;

void ExperimentForm::addCommandFields() {
  trainer_->addItem(tr("Parity's engine"));
  trainer_->addItem(tr("your command"));
  trainer_->setObjectName("trainer");
  command_->setObjectName("command");
  command_->setPlaceholderText(
      tr("python3 train.py --bs {per_device_batch_size} --lr {learning_rate} --seed {seed}"));
  workdir_->setPlaceholderText(tr("the folder Parity was started in"));
  commandEnv_->setPlaceholderText(tr("NAME=VALUE, NAME=VALUE"));
  commandPreview_->setObjectName("commandPreview");
  commandPreview_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  addField("trainer", tr("Trains"), trainer_,
           tr("Parity's engine, or your own training program run once per setup"));
  QStringList names;
  for (const std::string& p : launch::command_placeholders())
    names << QString("{%1}").arg(p.c_str());
  addField("command", tr("Command"), command_,
           tr("Run without a shell; each value is one argument. Placeholders: %1. It prints "
              "PARITY {\"step\": N, \"loss\": L} lines (README: Your own training command).")
               .arg(names.join(", ")));
  addField("workdir", tr("Working folder"),
           pathRow(workdir_, tr("Choose the folder the command runs in"),
                   &ExperimentForm::browseWorkdir));
  addField("command_env", tr("Environment"), commandEnv_,
           tr("Variables set for the command, NAME=VALUE separated by commas"));
  capture_->addItem(tr("auto: PARITY lines, else its files"), "auto");
  capture_->addItem(tr("PARITY lines on stdout"), "stdout");
  capture_->addItem(tr("trainer_state.json under {run_dir}"), "trainer-state");
  capture_->addItem(tr("TensorBoard files under {run_dir}"), "tensorboard");
  addField("capture", tr("Losses from"), capture_,
           tr("Where the command's losses come from: its PARITY lines, or the files it writes "
              "under {run_dir}, followed while it runs"));
  addField("command_preview", tr("Each setup runs"), commandPreview_);
  connect(capture_, &QComboBox::currentIndexChanged, this, [this] {
    if (!loading_) changed();
  });
  connect(trainer_, &QComboBox::currentIndexChanged, this, [this] {
    if (loading_) return;
    updateVisibility();
    refreshCommand();
    changed();
  });
  for (QLineEdit* e : {command_, workdir_, commandEnv_}) {
    // The preview follows each keystroke; the setups take the value when the edit is done.
    connect(e, &QLineEdit::textEdited, this, &ExperimentForm::refreshCommand);
    connect(e, &QLineEdit::editingFinished, this, [this] {
      if (!loading_) changed();
    });
  }
}

bool ExperimentForm::commandMode() const { return trainer_->currentIndex() == 1; }

void ExperimentForm::applyCommandMode() {
  static const QSet<QString> kCommandFields = {
      "trainer", "command", "workdir", "command_env", "capture", "command_preview", "lr"};
  const bool command = commandMode();
  for (const QString& f : fieldNames()) {
    if (f == "trainer") continue;
    const bool ofCommand = kCommandFields.contains(f) && f != "lr";
    if (command && !kCommandFields.contains(f)) setFieldVisible(f, false);
    if (ofCommand) setFieldVisible(f, command);
  }
}

void ExperimentForm::setCommandSetups(const std::vector<config::RunConfig>& setups) {
  commandSetups_ = setups;
  refreshCommand();
}

QString ExperimentForm::commandPreviewText() const { return commandPreview_->text(); }

void ExperimentForm::refreshCommand() {
  QString problem, text;
  if (commandMode()) {
    if (command_->text().trimmed().isEmpty()) {
      problem = tr("Type the command that trains one setup (Command, on the Experiment tab)");
    } else {
      std::vector<config::RunConfig> setups = commandSetups_;
      if (setups.empty()) setups.push_back(previewSetup_);
      QStringList lines;
      try {
        const auto words = launch::split_command(command_->text().toStdString());
        for (const config::RunConfig& s : setups) {
          launch::CommandContext context;
          context.run_dir = "<database>.logs/run-N";
          context.main_process_port = 29500;
          const auto expanded =
              launch::expand_command(words, launch::command_values(config(s), context));
          lines << QString::fromStdString(s.label + ": " + launch::quote_command(expanded));
        }
        text = lines.join('\n');
      } catch (const launch::LaunchError& e) {
        problem = tr("The command cannot run: %1").arg(QString::fromUtf8(e.what()));
      }
    }
  }
  commandPreview_->setText(problem.isEmpty() ? text : problem);
  commandPreview_->setStyleSheet(problem.isEmpty() ? "" : "color: #c62828;");
  if (problem != commandProblem_) {
    commandProblem_ = problem;
    emit commandProblemChanged();
  }
}

void ExperimentForm::browseWorkdir() {
  const QString path =
      askPath(this, FileDialogKind::kFolder, tr("The command's working folder"), workdir_->text());
  if (path.isEmpty()) return;
  workdir_->setText(path);
  refreshCommand();
  emit workdir_->editingFinished();
}

}  // namespace parity::ui
