// ElidedLabel: a long status never raises its window's minimum width, is drawn cut with the
// whole text in the tooltip, and asks for no more than its preferred characters.
#include <gtest/gtest.h>
#include <parity/ui/widgets/elided_label.h>

#include <QHBoxLayout>
#include <QPushButton>
#include <QWidget>

namespace parity::ui {
namespace {

TEST(ElidedLabel, ALongTextDoesNotWidenTheWindow) {
  QWidget window;
  auto* layout = new QHBoxLayout(&window);
  layout->addWidget(new QPushButton("Prove", &window));
  auto* label = new ElidedLabel(&window);
  layout->addWidget(label, 1);
  window.resize(400, 40);
  window.show();
  const int before = window.minimumSizeHint().width();
  QString text =
      "Proving #2: 0 of 3 ended (#4 global_batch queued, #5 effective_lr queued, #6 all "
      "queued); not testable alone: dropout: dropout masks differ whenever ...";
  label->setStatusText(text + text);
  layout->activate();
  EXPECT_EQ(window.minimumSizeHint().width(), before);
  EXPECT_LE(label->sizeHint().width(), label->fontMetrics().averageCharWidth() * 60);
  EXPECT_EQ(label->text(), text + text);
  EXPECT_EQ(label->toolTip(), text + text);
  window.resize(400, 40);
  EXPECT_TRUE(label->isElided());
  label->setStatusText("2 runs");
  EXPECT_FALSE(label->isElided());
  // A plain QLabel with the same text would have widened it: the test can fail.
  auto* plain = new QLabel(text, &window);
  layout->addWidget(plain);
  plain->show();
  layout->activate();
  EXPECT_GT(window.minimumSizeHint().width(), before + 300);
}

}  // namespace
}  // namespace parity::ui
