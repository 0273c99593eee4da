#include "ui_trace.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QDockWidget>
#include <QEvent>
#include <QGraphicsView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QTabBar>
#include <QTableView>
#include <cstdio>

namespace parity::app {

namespace {

/// One line of text, quoted: line breaks as " | ", double quotes as single ones.
QString quoted(QString text) {
  text.replace("\r\n", " | ").replace('\n', " | ").replace('"', '\'');
  return '"' + text + '"';
}

QString plain(QString text) { return text.remove('&'); }

QString rect(const QWidget* w, QRect r) {
  r.moveTopLeft(w->mapToGlobal(r.topLeft()));
  return QString("%1,%2,%3,%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

void print(const QString& line) {
  std::fprintf(stderr, "parity-trace: %s\n", qPrintable(line));
  std::fflush(stderr);
}

}  // namespace

UiTrace::UiTrace(QWidget* window) : QObject(window), window_(window) {
  mapTimer_.setSingleShot(true);
  mapTimer_.setInterval(300);
  connect(&mapTimer_, &QTimer::timeout, this, &UiTrace::printMap);
  connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
    if (now) onFocus(now);
  });
  // Rows that come, go or change: map again.
  for (auto* view : window_->findChildren<QAbstractItemView*>()) {
    if (!view->model()) continue;
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved}) {
      connect(view->model(), signal, this, &UiTrace::requestMap);
    }
    connect(view->model(), &QAbstractItemModel::modelReset, this, &UiTrace::requestMap);
    connect(view->model(), &QAbstractItemModel::dataChanged, this, &UiTrace::requestMap);
  }
  qApp->installEventFilter(this);
}

/// Names a widget as a person reads it: its label, its own text, its placeholder or objectName.
static QString nameOf(const QWidget* w, const QWidget* window) {
  for (const QLabel* label : window->findChildren<QLabel*>()) {
    if (label->buddy() == w && !label->text().isEmpty()) {
      return plain(label->text()).remove(QRegularExpression(":$"));
    }
  }
  if (const auto* b = qobject_cast<const QAbstractButton*>(w); b && !b->text().isEmpty())
    return plain(b->text());
  if (!w->objectName().isEmpty()) return w->objectName();
  if (const auto* e = qobject_cast<const QLineEdit*>(w); e && !e->placeholderText().isEmpty())
    return e->placeholderText();
  if (const auto* c = qobject_cast<const QComboBox*>(w)) return c->currentText();
  return {};
}

/// The dock a widget sits in ("runsDock"), "central" elsewhere in the window, "-" outside it.
static QString areaOf(const QWidget* w, const QWidget* window) {
  for (const QWidget* p = w; p; p = p->parentWidget()) {
    if (const auto* dock = qobject_cast<const QDockWidget*>(p)) return dock->objectName();
    if (p == window) return "central";
    if (p->isWindow()) return "dialog";
  }
  return "-";
}

void UiTrace::onFocus(QWidget* now) {
  print(QString("focus %1 %2 %3 %4")
            .arg(areaOf(now, window_), now->metaObject()->className(), quoted(nameOf(now, window_)),
                 rect(now, now->rect())));
  requestMap();  // a focused field may have been scrolled into view: where everything is now
}

bool UiTrace::eventFilter(QObject* watched, QEvent* event) {
  const auto type = event->type();
  if (type != QEvent::Show && type != QEvent::Hide && type != QEvent::Resize &&
      type != QEvent::Paint && type != QEvent::Move) {
    return false;
  }
  auto* w = qobject_cast<QWidget*>(watched);
  if (!w) return false;
  // A tooltip's label is reused: a new text is repainted, not shown again.
  if (w->objectName() == QLatin1String("qtooltip_label")) {
    static QString last;
    static QElapsedTimer shown;
    const QString text = static_cast<QLabel*>(w)->text();
    if (type == QEvent::Hide && !last.isEmpty()) {
      last.clear();
      print(QString("tooltip-hidden %1 ms after its last text").arg(shown.elapsed()));
    } else if (type == QEvent::Paint && text != last) {
      last = text;
      shown.start();
      print("tooltip " + quoted(text));
    }
    return false;
  }
  if (type == QEvent::Paint) return false;
  // A tabbed dock brought to the front is moved into sight, not shown: map it where it is now.
  if (type == QEvent::Move) {
    if (qobject_cast<QDockWidget*>(w) && w->window() == window_) requestMap();
    return false;
  }
  if (type == QEvent::Show) {
    if (auto* menu = qobject_cast<QMenu*>(w)) print("menu " + quoted(plain(menu->title())));
  }
  if (type == QEvent::Show && w->isWindow() && w != window_) {
    if (auto* box = qobject_cast<QMessageBox*>(w)) {
      const QAbstractButton* def = box->defaultButton();
      print(QString("dialog %1 %2 default=%3")
                .arg(quoted(box->windowTitle()), quoted(box->text()),
                     quoted(def ? plain(def->text()) : QString())));
      // Laid out once shown: where its buttons are, for a click.
      QTimer::singleShot(300, box, [box] {
        for (const QAbstractButton* b : box->buttons()) {
          print(QString("button %1 %2").arg(quoted(plain(b->text())), rect(b, b->rect())));
        }
      });
    } else if (qobject_cast<QDialog*>(w)) {
      print(QString("dialog %1 \"\" default=\"\"").arg(quoted(w->windowTitle())));
    }
  }
  const bool moved =
      w == window_ ? type != QEvent::Hide : type != QEvent::Resize && w->window() == window_;
  if (moved) requestMap();
  return false;
}

// Quiet for 300 ms, or at most a second after the first request (a live chart's legend shows
// and hides entries on every redraw).
void UiTrace::requestMap() {
  if (!mapTimer_.isActive()) {
    pending_.start();
  } else if (pending_.elapsed() > 1000) {
    return;
  }
  mapTimer_.start();
}

void UiTrace::printMap() {
  if (!window_->isVisible()) return;
  print(QString("map-begin %1").arg(rect(window_, window_->rect())));
  for (QWidget* w : window_->findChildren<QWidget*>()) {
    if (!w->isVisible()) continue;
    const QString area = areaOf(w, window_);
    if (auto* bar = qobject_cast<QTabBar*>(w)) {
      print(QString("widget %1 QTabBar %2 %3 hint=%4")
                .arg(area,
                     quoted(bar->currentIndex() >= 0 ? plain(bar->tabText(bar->currentIndex()))
                                                     : QString()),
                     rect(w, w->rect()))
                .arg(w->sizeHint().width()));
      for (int i = 0; i < bar->count(); ++i) {
        print(QString("tab %1 %2").arg(quoted(plain(bar->tabText(i))), rect(bar, bar->tabRect(i))));
      }
      continue;
    }
    // A chart legend's entry: where it is, and how much of it shows (the legend scrolls).
    if (w->objectName().startsWith("legendRun") || w->objectName() == "legendRanks") {
      print(QString("legend %1 %2 %3 visible=%4")
                .arg(w->objectName(), quoted(w->toolTip().section('\n', 0, 0)), rect(w, w->rect()),
                     rect(w, w->visibleRegion().boundingRect())));
      continue;
    }
    if (auto* label = qobject_cast<QLabel*>(w)) {
      const QString name = label->objectName().isEmpty() ? QString("-") : label->objectName();
      if (!name.startsWith("qt_") && (name != "-" || !label->text().isEmpty())) {
        print(QString("label %1 %2 %3 %4")
                  .arg(area, name, rect(w, w->rect()), quoted(plain(label->text()))));
      }
      continue;
    }
    // An editor inside a combo or spin box is part of it.
    if (qobject_cast<QLineEdit*>(w) && (qobject_cast<QComboBox*>(w->parentWidget()) ||
                                        qobject_cast<QAbstractSpinBox*>(w->parentWidget()))) {
      continue;
    }
    if (!qobject_cast<QAbstractButton*>(w) && !qobject_cast<QComboBox*>(w) &&
        !qobject_cast<QAbstractSpinBox*>(w) && !qobject_cast<QLineEdit*>(w) &&
        !qobject_cast<QAbstractItemView*>(w) && !qobject_cast<QGraphicsView*>(w)) {
      continue;
    }
    // Tool buttons of a dock's title, the tab bar's scrollers: not controls of the panels.
    if (w->objectName().startsWith("qt_") || qobject_cast<QTabBar*>(w->parentWidget())) continue;
    // A box's value, to see what changed it (the wheel, a key).
    QString value;
    if (const auto* combo = qobject_cast<const QComboBox*>(w))
      value = " value=" + quoted(combo->currentText());
    else if (const auto* spin = qobject_cast<const QAbstractSpinBox*>(w))
      value = " value=" + quoted(spin->text());
    print(
        QString("widget %1 %2 %3 %4 hint=%5")
            .arg(area, w->metaObject()->className(), quoted(nameOf(w, window_)), rect(w, w->rect()))
            .arg(w->sizeHint().width()) +
        value);
    auto* view = qobject_cast<QAbstractItemView*>(w);
    if (!view || !view->model()) continue;
    const QAbstractItemModel* model = view->model();
    for (int row = 0; row < std::min(model->rowCount(), 10); ++row) {
      // The row's rectangle is its label's (a table's second column), its text every column's.
      const int labelColumn = qobject_cast<QTableView*>(view) && model->columnCount() > 1 ? 1 : 0;
      const QRect r = view->visualRect(model->index(row, labelColumn));
      if (!r.intersects(view->viewport()->rect())) continue;
      QStringList cells;
      for (int c = 0; c < model->columnCount(); ++c) {
        cells << model->index(row, c).data().toString();
      }
      print(QString("row %1 %2 %3 %4")
                .arg(nameOf(view, window_))
                .arg(row)
                .arg(quoted(cells.join(" ; ")), rect(view->viewport(), r)));
    }
  }
  print("map-end");
}

}  // namespace parity::app
