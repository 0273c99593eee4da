// The Experiment form's "Trains: your command" (#19) with QT_QPA_PLATFORM=offscreen: the command's
// fields show only in that mode (and the engine's data and model fields only outside it), the
// preview expands each setup's values as parity-cli will, a template that cannot run keeps
// Launch off with its reason, and the setups take the command.
#include <gtest/gtest.h>
#include <parity/ui/experiment/experiment_form.h>
#include <parity/ui/setups/setup_presets.h>
#include <parity/ui/setups/setups_model.h>
#include <parity/ui/setups/setups_panel.h>

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>

#include "test_util.h"

namespace parity::ui {
namespace {

config::RunConfig setup(const char* label, int processes, int64_t batch) {
  config::RunConfig c;
  c.label = label;
  c.num_processes = processes;
  c.per_device_batch_size = batch;
  return c;
}

TEST(CommandForm, TheCommandsFieldsAndPreviewOnlyInCommandMode) {
  ExperimentForm form;
  form.show();
  form.setCommandSetups({setup("1x32", 1, 32), setup("2x16", 2, 16)});
  auto* trainer = qobject_cast<QComboBox*>(form.editor("trainer"));
  auto* command = qobject_cast<QLineEdit*>(form.editor("command"));
  ASSERT_TRUE(trainer && command);
  EXPECT_FALSE(command->isVisibleTo(&form));
  EXPECT_TRUE(form.editor("dataset")->isVisibleTo(&form));
  EXPECT_TRUE(form.commandProblem().isEmpty());

  trainer->setCurrentIndex(1);
  EXPECT_TRUE(command->isVisibleTo(&form));
  EXPECT_FALSE(form.editor("dataset")->isVisibleTo(&form));
  EXPECT_FALSE(form.editor("model")->isVisibleTo(&form));
  EXPECT_TRUE(form.editor("lr")->isVisibleTo(&form));
  EXPECT_TRUE(form.commandProblem().contains("Type the command"))
      << form.commandProblem().toStdString();

  command->setFocus();
  QTest::keyClicks(command, "python3 t.py --bs {per_device_batch_size} --w {num_processes}");
  EXPECT_TRUE(form.commandProblem().isEmpty()) << form.commandProblem().toStdString();
  EXPECT_EQ(form.commandPreviewText(),
            "1x32: python3 t.py --bs 32 --w 1\n2x16: python3 t.py --bs 16 --w 2");
  QTest::keyClicks(command, " {batch}");
  EXPECT_TRUE(form.commandProblem().contains("unknown placeholder {batch}"))
      << form.commandProblem().toStdString();

  command->setText("python3 t.py --bs {per_device_batch_size}");
  emit command->editingFinished();
  auto* capture = qobject_cast<QComboBox*>(form.editor("capture"));
  ASSERT_NE(capture, nullptr);
  EXPECT_TRUE(capture->isVisibleTo(&form));
  capture->setCurrentIndex(capture->findData("trainer-state"));
  const config::RunConfig c = form.config(setup("1x32", 1, 32));
  EXPECT_EQ(c.command, "python3 t.py --bs {per_device_batch_size}");
  EXPECT_EQ(c.capture, "trainer-state");
  trainer->setCurrentIndex(0);
  EXPECT_TRUE(form.config(setup("1x32", 1, 32)).command.empty()) << "the engine keeps none of it";
  EXPECT_TRUE(form.editor("dataset")->isVisibleTo(&form));
}

// In the Setups panel a command that cannot run keeps Launch off and says why; a good one lets
// every setup launch with it.
TEST(CommandForm, LaunchWaitsForACommandThatCanRun) {
  SetupsModel model;
  for (const auto& p : presets()) model.addSetup(p.setup);
  SetupsPanel panel(&model);
  panel.show();
  auto* form = panel.findChild<ExperimentForm*>();
  ASSERT_NE(form, nullptr);
  auto* trainer = qobject_cast<QComboBox*>(form->editor("trainer"));
  auto* command = qobject_cast<QLineEdit*>(form->editor("command"));
  trainer->setCurrentIndex(1);
  ASSERT_TRUE(test::waitFor([&] { return !panel.launchButton()->isEnabled(); }));
  command->setText("python3 t.py --bs {per_device_batch_size}");
  emit command->textEdited(command->text());
  emit command->editingFinished();
  ASSERT_TRUE(test::waitFor([&] { return panel.launchButton()->isEnabled(); }));
  for (int r = 0; r < model.rowCount(); ++r)
    EXPECT_EQ(model.config(r).command, "python3 t.py --bs {per_device_batch_size}");
  EXPECT_TRUE(form->commandPreviewText().contains("1x256: python3 t.py --bs 256"))
      << form->commandPreviewText().toStdString();
}

}  // namespace
}  // namespace parity::ui
