#include <parity/ui/chart/chart_legend.h>
#include <parity/ui/chart/loss_chart.h>

#include <QCoreApplication>
#include <QLayout>
#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <functional>

namespace parity::ui {

namespace {

constexpr int kSwatchWidth = 30;
constexpr int kRankSwatch = 34;
constexpr int kGap = 6;
const QColor kHiddenGrey(0x9e, 0x9e, 0x9e);

/// One entry: its line as drawn, then its text, word-wrapped when wider than the row; or, for
/// the per-rank view, one item naming every rank's line style ("ranks ┄ 0 ╌ 1").
class LegendItem : public QWidget {
 public:
  LegendItem(std::vector<LegendEntry> entries, QWidget* parent)
      : QWidget(parent), entries_(std::move(entries)) {
    const LegendEntry& first = entries_.front();
    if (isRanks()) {
      text_ = tr("ranks");
      QStringList tips;
      for (const LegendEntry& e : entries_) {
        text_ += " " + QString::number(e.rank);
        tips << e.toolTip;
      }
      setToolTip(tips.join("\n"));
      setObjectName("legendRanks");
    } else {
      text_ = first.label;
      if (!first.note.isEmpty()) text_ += "  " + first.note;
      setToolTip(first.toolTip);
      setObjectName(QString("legendRun%1").arg(first.runId));
      setCursor(Qt::PointingHandCursor);
    }
  }

  bool isRanks() const { return entries_.front().rank >= 0; }
  const QString& text() const { return text_; }

  QSize sizeHint() const override {
    const QFontMetrics fm(font());
    if (isRanks()) {
      int width = fm.horizontalAdvance(tr("ranks"));
      for (const LegendEntry& e : entries_)
        width += kGap + kRankSwatch + 3 + fm.horizontalAdvance(QString::number(e.rank));
      return {width + 2, fm.height() + 2};
    }
    return {kSwatchWidth + kGap + fm.horizontalAdvance(text_) + 2, fm.height() + 2};
  }
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override {
    if (isRanks()) return sizeHint().height();
    const QFontMetrics fm(font());
    const int textWidth = std::max(20, width - kSwatchWidth - kGap);
    return fm.boundingRect(QRect(0, 0, textWidth, 10000), Qt::TextWordWrap, text_).height() + 2;
  }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm(font());
    const int lineY = 1 + fm.height() / 2;
    const QColor text = palette().color(QPalette::WindowText);
    const QColor faint = palette().color(QPalette::PlaceholderText);
    auto swatch = [&](const LegendEntry& e, int x, int length) {
      QPen pen = e.pen;
      // A run's line a little bolder than drawn, to be seen; a rank's as drawn, so that its
      // dashes read as on the chart.
      if (e.rank < 0) pen.setWidthF(std::max(2.0, pen.widthF()));
      if (e.hidden) pen.setColor(kHiddenGrey);
      p.setPen(pen);
      p.drawLine(QPointF(x + 1, lineY), QPointF(x + length - 1, lineY));
    };
    if (isRanks()) {
      p.setPen(faint);
      int x = 0;
      const QString caption = tr("ranks");
      p.drawText(QPoint(x, 1 + fm.ascent()), caption);
      x += fm.horizontalAdvance(caption);
      for (const LegendEntry& e : entries_) {
        x += kGap;
        swatch(e, x, kRankSwatch);
        x += kRankSwatch + 3;
        const QString number = QString::number(e.rank);
        p.setPen(text);
        p.drawText(QPoint(x, 1 + fm.ascent()), number);
        x += fm.horizontalAdvance(number);
      }
      return;
    }
    const LegendEntry& e = entries_.front();
    swatch(e, 0, kSwatchWidth);
    QFont f = font();
    f.setStrikeOut(e.hidden);
    p.setFont(f);
    const QRect area(kSwatchWidth + kGap, 1, width() - kSwatchWidth - kGap, height() - 1);
    if (e.note.isEmpty() || fm.horizontalAdvance(text_) > area.width()) {
      p.setPen(e.hidden ? kHiddenGrey : text);
      p.drawText(area, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, text_);
      return;
    }
    // On one line: the label, then its note, fainter.
    p.setPen(e.hidden ? kHiddenGrey : text);
    p.drawText(area, Qt::AlignLeft | Qt::AlignTop, e.label);
    p.setPen(e.hidden ? kHiddenGrey : faint);
    p.drawText(area.adjusted(fm.horizontalAdvance(e.label + "  "), 0, 0, 0),
               Qt::AlignLeft | Qt::AlignTop, e.note);
  }
  void mouseReleaseEvent(QMouseEvent* event) override {
    if (event->button() == Qt::LeftButton && rect().contains(event->position().toPoint()) &&
        onClick) {
      onClick();
    }
  }

 public:
  std::function<void()> onClick;  ///< a callback, not a signal: this class has no moc

 private:
  static QString tr(const char* text) { return QCoreApplication::translate("parity::ui::LegendItem", text); }
  std::vector<LegendEntry> entries_;
  QString text_;
};

/// Lays its items out left to right, wrapping onto more rows (Qt's flow layout example).
class FlowLayout : public QLayout {
 public:
  explicit FlowLayout(QWidget* parent) : QLayout(parent) { setContentsMargins(4, 2, 4, 2); }
  ~FlowLayout() override {
    while (QLayoutItem* item = takeAt(0)) delete item;
  }
  void addItem(QLayoutItem* item) override { items_.append(item); }
  int count() const override { return static_cast<int>(items_.size()); }
  QLayoutItem* itemAt(int i) const override { return items_.value(i); }
  QLayoutItem* takeAt(int i) override {
    return i >= 0 && i < items_.size() ? items_.takeAt(i) : nullptr;
  }
  Qt::Orientations expandingDirections() const override { return {}; }
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override { return arrange(QRect(0, 0, width, 0), false); }
  void setGeometry(const QRect& rect) override {
    QLayout::setGeometry(rect);
    arrange(rect, true);
  }
  QSize sizeHint() const override {
    int width = 0;
    for (QLayoutItem* item : items_) width += item->sizeHint().width() + 2 * kGap;
    return {width, heightForWidth(std::max(width, 200))};
  }
  QSize minimumSize() const override {
    int width = 0;
    for (QLayoutItem* item : items_)
      width = std::max(width, std::min(200, item->sizeHint().width()));
    const QMargins m = contentsMargins();
    return {width + m.left() + m.right(), 0};
  }

 private:
  int arrange(const QRect& rect, bool place) const {
    const QMargins m = contentsMargins();
    const QRect area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom());
    int x = area.x(), y = area.y(), rowHeight = 0;
    for (QLayoutItem* item : items_) {
      const int w = std::min(item->sizeHint().width(), std::max(1, area.width()));
      const int h = item->hasHeightForWidth() ? item->heightForWidth(w) : item->sizeHint().height();
      if (x > area.x() && x + w > area.right() + 1) {
        x = area.x();
        y += rowHeight + 1;
        rowHeight = 0;
      }
      if (place) item->setGeometry(QRect(x, y, w, h));
      x += w + 2 * kGap;
      rowHeight = std::max(rowHeight, h);
    }
    return y + rowHeight - rect.y() + m.bottom();
  }
  QList<QLayoutItem*> items_;
};

}  // namespace

ChartLegend::ChartLegend(LossChart* chart, QWidget* parent) : QWidget(parent), chart_(chart) {
  setObjectName("chartLegend");
  new FlowLayout(this);
  QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  policy.setHeightForWidth(true);
  setSizePolicy(policy);
  connect(chart_, &LossChart::legendChanged, this, &ChartLegend::rebuild);
  rebuild();
}

void ChartLegend::rebuild() {
  QLayout* flow = layout();
  while (QLayoutItem* item = flow->takeAt(0)) {
    // Later: this may run inside the clicked item's own mouse handler.
    QWidget* old = item->widget();
    old->hide();
    old->setObjectName(QString());
    old->deleteLater();
    delete item;
  }
  std::vector<LegendEntry> ranks;
  for (const LegendEntry& entry : chart_->legendEntries()) {
    if (entry.rank >= 0) {
      ranks.push_back(entry);
      continue;
    }
    auto* item = new LegendItem({entry}, this);
    const qint64 id = entry.runId;
    item->onClick = [this, id] { chart_->setRunHidden(id, !chart_->isRunHidden(id)); };
    flow->addWidget(item);
    item->show();
  }
  if (!ranks.empty()) {
    auto* item = new LegendItem(ranks, this);
    flow->addWidget(item);
    item->show();
  }
  setVisible(!chart_->legendEntries().empty());
  updateGeometry();
}

std::vector<QWidget*> ChartLegend::items() const {
  std::vector<QWidget*> out;
  for (int i = 0; i < layout()->count(); ++i) out.push_back(layout()->itemAt(i)->widget());
  return out;
}

QString ChartLegend::itemText(const QWidget* item) {
  const auto* legendItem = dynamic_cast<const LegendItem*>(item);
  return legendItem ? legendItem->text() : QString();
}

int ChartLegend::heightForWidth(int width) const { return layout()->heightForWidth(width); }

QSize ChartLegend::sizeHint() const {
  return {QWidget::sizeHint().width(), heightForWidth(width() > 0 ? width() : 800)};
}

QSize ChartLegend::minimumSizeHint() const {
  return {100, heightForWidth(width() > 0 ? width() : 800)};
}

}  // namespace parity::ui
