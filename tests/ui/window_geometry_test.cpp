// The window's size and place as kept between sessions (#38 item 8): a geometry saved on a larger
// screen opens fitted to the screen the window opens on. The offscreen platform's screen is
// 800x600, smaller than the 1500x950 a window on a desktop monitor keeps.
#include <gtest/gtest.h>
#include <parity/ui/window/main_window.h>

#include <QGuiApplication>
#include <QLayout>
#include <QScreen>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

namespace parity::ui {
namespace {

TEST(WindowGeometry, AGeometryKeptOnALargerScreenOpensFittedToThisOne) {
  // The settings in a folder of this test's own, not the user's.
  QTemporaryDir config;
  ASSERT_TRUE(config.isValid());
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, config.path());
  const QRect free = QGuiApplication::primaryScreen()->availableGeometry();
  ASSERT_LT(free.width(), 1500);
  ASSERT_LT(free.height(), 950);
  {
    MainWindow kept;
    kept.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&kept));
    QTest::qWait(0);
    // The user made it large (on this platform a window may be larger than its screen).
    kept.setGeometry(free.left() + 300, free.top() + 200, 1500, 950);
    ASSERT_EQ(kept.size(), QSize(1500, 950)) << "the platform let the window be larger";
    kept.close();
  }
  {
    QSettings s(QSettings::IniFormat, QSettings::UserScope, "parity", "parity");
    ASSERT_FALSE(s.value("window/geometry").toByteArray().isEmpty()) << "no geometry was kept";
  }
  MainWindow restored;
  restored.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&restored));
  QTest::qWait(0);  // the fit once the frame is known comes with the next turn of the event loop
  // As large as the screen allows, or the window's own minimum where that is larger (this
  // screen is narrower than the window's least width), and starting on the screen.
  const QRect frame = restored.frameGeometry();
  const QSize least = restored.layout()->totalMinimumSize().expandedTo(restored.minimumSize());
  const QSize border = frame.size() - restored.size();
  const QSize expected = (free.size() - border).expandedTo(least) + border;
  EXPECT_LE(frame.width(), expected.width()) << "kept 1500 wide on a screen " << free.width();
  EXPECT_LE(frame.height(), expected.height()) << "kept 950 high on a screen " << free.height();
  EXPECT_GE(frame.left(), free.left());
  EXPECT_GE(frame.top(), free.top());
  EXPECT_LE(frame.left(), free.right() - std::min(frame.width(), free.width()) + 1)
      << "the window starts at x " << frame.left();
  restored.close();
}

}  // namespace
}  // namespace parity::ui
