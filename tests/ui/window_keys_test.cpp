// The keyboard in the whole window: no two things shown at once answer the same Alt+letter
// (Alt+R focused "Per-rank" instead of opening the Runs menu; Alt+L was Log y and Launch), no two
// items of one menu share one; Ctrl+1/2/3 bring the tabbed docks forward; View > Reset layout
// docks a floated panel again.
#include <gtest/gtest.h>
#include <parity/ui/window/main_window.h>

#include <QAbstractButton>
#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <map>

#include "test_util.h"

namespace parity::ui {
namespace {

// The letter after a single '&' ("Per-ran&k" -> 'k'), or 0.
QChar mnemonic(const QString& text) {
  for (int i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != '&') continue;
    if (text[i + 1] == '&') {
      ++i;
      continue;
    }
    return text[i + 1].toLower();
  }
  return QChar();
}

// Every Alt+letter the window answers now: the menu bar's and those of the shown widgets.
std::multimap<QChar, QString> windowMnemonics(MainWindow& window) {
  std::multimap<QChar, QString> out;
  auto add = [&](const QString& text) {
    if (const QChar m = mnemonic(text); !m.isNull()) out.insert({m, text});
  };
  for (QAction* a : window.menuBar()->actions()) add(a->text());
  for (QWidget* w : window.findChildren<QWidget*>()) {
    if (!w->isVisibleTo(&window) || !w->isEnabled() || w->visibleRegion().isEmpty()) continue;
    if (auto* b = qobject_cast<QAbstractButton*>(w)) add(b->text());
    if (auto* l = qobject_cast<QLabel*>(w); l && l->buddy()) add(l->text());
    if (auto* bar = qobject_cast<QTabBar*>(w))
      for (int i = 0; i < bar->count(); ++i) add(bar->tabText(i));
  }
  return out;
}

std::string clashes(const std::multimap<QChar, QString>& marks) {
  std::string out;
  for (auto it = marks.begin(); it != marks.end(); ++it) {
    if (marks.count(it->first) > 1) out += it->second.toStdString() + "; ";
  }
  return out;
}

TEST(WindowKeys, NoTwoShownThingsShareAMnemonicNorTwoItemsOfAMenu) {
  MainWindow window({false, true});
  window.resize(1400, 900);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  auto* tabs = window.findChild<QDockWidget*>("setupsDock")->findChild<QTabWidget*>();
  ASSERT_NE(tabs, nullptr);
  for (int tab = 0; tab < tabs->count(); ++tab) {
    tabs->setCurrentIndex(tab);
    for (const char* dock : {"runsDock", "equivalentDock", "compareDock"}) {
      window.findChild<QDockWidget*>(dock)->raise();
      QCoreApplication::processEvents();
      const auto marks = windowMnemonics(window);
      EXPECT_GE(marks.size(), 8u);
      EXPECT_EQ(clashes(marks), "") << "setup tab " << tab << ", " << dock << " in front";
    }
  }
  for (QAction* top : window.menuBar()->actions()) {
    std::multimap<QChar, QString> marks;
    for (QAction* a : top->menu()->actions())
      if (const QChar m = mnemonic(a->text()); !m.isNull()) marks.insert({m, a->text()});
    EXPECT_EQ(clashes(marks), "") << top->text().toStdString();
  }
}

TEST(WindowKeys, CtrlDigitsBringTheDocksForwardAndResetLayoutDocksThemAgain) {
  MainWindow window({false, true});
  window.resize(1400, 900);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  auto* runs = window.findChild<QDockWidget*>("runsDock");
  auto* compare = window.findChild<QDockWidget*>("compareDock");
  auto* equivalent = window.findChild<QDockWidget*>("equivalentDock");
  QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
  ASSERT_TRUE(test::waitFor([&] { return !compare->visibleRegion().isEmpty(); }));
  EXPECT_TRUE(compare->widget()->isEnabled());
  EXPECT_TRUE(compare->isAncestorOf(QApplication::focusWidget()));
  QTest::keyClick(&window, Qt::Key_2, Qt::ControlModifier);
  ASSERT_TRUE(test::waitFor([&] { return !equivalent->visibleRegion().isEmpty(); }));
  QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
  ASSERT_TRUE(test::waitFor([&] { return !runs->visibleRegion().isEmpty(); }));

  runs->setFloating(true);
  compare->hide();
  window.removeDockWidget(equivalent);
  QAction* reset = nullptr;
  for (QAction* top : window.menuBar()->actions())
    for (QAction* a : top->menu()->actions())
      if (a->text().remove('&') == "Reset layout") reset = a;
  ASSERT_NE(reset, nullptr);
  reset->trigger();
  QCoreApplication::processEvents();
  EXPECT_FALSE(runs->isFloating());
  EXPECT_TRUE(compare->isVisible());
  EXPECT_TRUE(equivalent->isVisible());
  EXPECT_EQ(window.dockWidgetArea(runs), Qt::BottomDockWidgetArea);
  EXPECT_EQ(window.dockWidgetArea(equivalent), Qt::BottomDockWidgetArea);
  const auto tabbed = window.tabifiedDockWidgets(runs);
  EXPECT_TRUE(tabbed.contains(compare) && tabbed.contains(equivalent)) << tabbed.size();
}

}  // namespace
}  // namespace parity::ui
