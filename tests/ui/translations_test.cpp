// The window in Turkish (#38 §14): every string of resources/translations/parity_tr.ts has its
// translation, and the whole window made under a Turkish locale (menus, docks, tabs, buttons,
// labels, headers, tooltips) shows none of the English texts the file translates. An English or
// an unshipped locale keeps the window in English.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QTabBar>
#include <QTranslator>
#include <QXmlStreamReader>
#include <parity/ui/window/main_window.h>
#include <parity/ui/window/translations.h>

#include "test_util.h"

namespace parity::ui {
namespace {

struct Message {
  QString context, source, translation;
  bool unfinished = false;
};

std::vector<Message> readTs(const QString& path) {
  QFile file(path);
  EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
  std::vector<Message> messages;
  QXmlStreamReader xml(&file);
  QString context;
  Message m;
  while (!xml.atEnd()) {
    xml.readNext();
    if (!xml.isStartElement()) continue;
    if (xml.name() == u"name") {
      context = xml.readElementText();
    } else if (xml.name() == u"message") {
      m = Message{context, {}, {}, false};
    } else if (xml.name() == u"source") {
      m.source = xml.readElementText();
    } else if (xml.name() == u"translation") {
      m.unfinished = xml.attributes().value("type") == u"unfinished";
      if (xml.attributes().value("type") != u"vanished" &&
          xml.attributes().value("type") != u"obsolete") {
        // Plural messages hold <numerusform>s: their text is read whole.
        m.translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
        messages.push_back(m);
      }
    }
  }
  EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
  return messages;
}

QString tsPath() { return QStringLiteral(PARITY_SOURCE_DIR "/resources/translations/parity_tr.ts"); }

// A source that is only placeholders, file patterns, punctuation and names (Parity, CSV, a
// command template) is the same in Turkish.
bool tokensOnly(QString s) {
  s.remove(QRegularExpression(R"(%L?\d+|%n|\{[^}]*\}|\(\*\.\w+\)|#)"));
  s.remove(QRegularExpression(R"(\b(Parity|Model|CSV|SVG|PNG|python3|train|py|bs|lr|seed)\b)"));
  return !s.contains(QRegularExpression("[A-Za-z]"));
}

// The English texts a Turkish window must not show: each source whose translation differs
// (without its mnemonic marker, as a label shows it; a menu shows it with).
QSet<QString> englishTexts() {
  QSet<QString> texts;
  for (const Message& m : readTs(tsPath())) {
    if (m.translation == m.source || m.source.size() < 2) continue;
    texts.insert(m.source);
    QString plain = m.source;
    texts.insert(plain.replace(QRegularExpression("&(?!&)"), ""));
  }
  return texts;
}

// What a person can read in the window: its title, every menu and its entries, the docks'
// titles, and each visible tab, button, label, group, header and tooltip.
QStringList shownTexts(QMainWindow& window) {
  QStringList shown{window.windowTitle()};
  std::function<void(QMenu*)> walk = [&](QMenu* menu) {
    shown << menu->title();
    for (QAction* a : menu->actions()) {
      if (a->menu()) walk(a->menu());
      else if (!a->isSeparator()) shown << a->text() << a->toolTip();
    }
  };
  for (QAction* a : window.menuBar()->actions())
    if (a->menu()) walk(a->menu());
  for (QWidget* w : window.findChildren<QWidget*>()) {
    if (!w->isVisible()) continue;
    shown << w->toolTip();
    if (auto* dock = qobject_cast<QDockWidget*>(w)) shown << dock->windowTitle();
    if (auto* tabs = qobject_cast<QTabBar*>(w))
      for (int i = 0; i < tabs->count(); ++i) shown << tabs->tabText(i) << tabs->tabToolTip(i);
    if (auto* button = qobject_cast<QAbstractButton*>(w)) shown << button->text();
    if (auto* label = qobject_cast<QLabel*>(w)) shown << label->text();
    if (auto* group = qobject_cast<QGroupBox*>(w)) shown << group->title();
    if (auto* combo = qobject_cast<QComboBox*>(w))
      for (int i = 0; i < combo->count(); ++i) shown << combo->itemText(i);
    if (auto* view = qobject_cast<QAbstractItemView*>(w); view && view->model()) {
      for (int c = 0; c < view->model()->columnCount(); ++c)
        shown << view->model()->headerData(c, Qt::Horizontal).toString()
              << view->model()->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
    }
  }
  shown.removeAll(QString());
  return shown;
}

class Translations : public ::testing::Test {
 protected:
  void TearDown() override {
    for (QTranslator* t : qApp->findChildren<QTranslator*>()) {
      QCoreApplication::removeTranslator(t);
      delete t;
    }
  }
};

TEST_F(Translations, EveryStringOfTheTurkishFileIsTranslated) {
  const std::vector<Message> messages = readTs(tsPath());
  ASSERT_GT(messages.size(), 500u);
  for (const Message& m : messages) {
    SCOPED_TRACE(m.context.toStdString() + ": " + m.source.toStdString());
    EXPECT_FALSE(m.unfinished);
    EXPECT_FALSE(m.translation.trimmed().isEmpty());
    if (m.translation == m.source) {
      EXPECT_TRUE(tokensOnly(m.source)) << "left in English";
    }
    // The placeholders a translation must keep, each once per use.
    QRegularExpression placeholder(R"(%L?\d+|%n)");
    QStringList in, out;
    for (auto it = placeholder.globalMatch(m.source); it.hasNext();) in << it.next().captured();
    for (auto it = placeholder.globalMatch(m.translation); it.hasNext();) out << it.next().captured();
    in.sort();
    out.sort();
    out.removeDuplicates();
    in.removeDuplicates();
    EXPECT_EQ(in, out) << m.translation.toStdString();
  }
}

TEST_F(Translations, EnglishAndUnshippedLocalesStayInEnglish) {
  EXPECT_EQ(installTranslations(qApp, QLocale(QLocale::English, QLocale::UnitedStates)), "");
  EXPECT_EQ(installTranslations(qApp, QLocale(QLocale::Icelandic, QLocale::Iceland)), "");
  EXPECT_EQ(MainWindow::tr("&File"), "&File");
}

TEST_F(Translations, TheWindowInTurkishShowsNoEnglishText) {
  ASSERT_FALSE(installTranslations(qApp, QLocale(QLocale::Turkish, QLocale::Turkey)).isEmpty());
  QTemporaryDir dir;
  const QString path = dir.filePath("runs.db");
  {
    storage::Database db(path.toStdString());
    test::addFinishedRun(db, "1x64", 300, 64);
    test::addFinishedRun(db, "2x32", 300, 64);
  }
  MainWindow window({false, true});
  window.resize(1400, 900);
  window.show();
  window.openDatabase(path);
  ASSERT_TRUE(test::waitFor([&] { return window.isSettled(false); }));

  const QSet<QString> english = englishTexts();
  const QStringList shown = shownTexts(window);
  ASSERT_GT(shown.size(), 100) << "too few texts found to judge";
  QStringList left;
  for (const QString& text : shown)
    if (english.contains(text)) left << text;
  left.removeDuplicates();
  EXPECT_TRUE(left.isEmpty()) << "shown in English: " << left.join(" | ").toStdString();
  // And what is shown is the Turkish: the File menu, and Qt's own strings (a dialog's buttons).
  EXPECT_EQ(window.menuBar()->actions().front()->text(), "&Dosya");
  EXPECT_EQ(QCoreApplication::translate("QPlatformTheme", "Cancel"), u"İptal");
}

}  // namespace
}  // namespace parity::ui
