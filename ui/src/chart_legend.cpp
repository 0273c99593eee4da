#include <parity/ui/chart_legend.h>
#include <parity/ui/loss_chart.h>

#include <QLayout>
#include <QMouseEvent>
#include <QPainter>
#include <QStyle>
#include <algorithm>
#include <functional>

namespace parity::ui {

namespace {

constexpr int kSwatchWidth = 30;
constexpr int kGap = 6;

/// One entry: its line as drawn, then its text, word-wrapped when wider than the row.
class LegendItem : public QWidget {
 public:
  LegendItem(const LegendEntry& entry, QWidget* parent)
      : QWidget(parent), entry_(entry), text_(entry.label) {
    if (!entry.note.isEmpty()) text_ += "  " + entry.note;
    setToolTip(entry.toolTip);
    setObjectName(entry.runId != 0 ? QString("legendRun%1").arg(entry.runId)
                                   : QString("legendRank%1").arg(entry.rank));
    if (entry.runId != 0) setCursor(Qt::PointingHandCursor);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
  }

  const LegendEntry& entry() const { return entry_; }
  const QString& text() const { return text_; }

  QSize sizeHint() const override {
    const QFontMetrics fm(font());
    return {kSwatchWidth + kGap + fm.horizontalAdvance(text_) + 2, fm.height() + 4};
  }
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override {
    const QFontMetrics fm(font());
    const int textWidth = std::max(20, width - kSwatchWidth - kGap);
    return fm.boundingRect(QRect(0, 0, textWidth, 10000), Qt::TextWordWrap, text_).height() + 4;
  }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm(font());
    const QColor grey(0x9e, 0x9e, 0x9e);
    QPen pen = entry_.pen;
    pen.setWidthF(std::max(2.0, pen.widthF()));  // as drawn, a little bolder to be seen
    if (entry_.hidden) pen.setColor(grey);
    p.setPen(pen);
    const int y = 2 + fm.height() / 2;
    p.drawLine(QPointF(1, y), QPointF(kSwatchWidth - 1, y));
    p.setPen(entry_.hidden ? grey : palette().color(QPalette::WindowText));
    QFont f = font();
    f.setStrikeOut(entry_.hidden);
    p.setFont(f);
    p.drawText(QRect(kSwatchWidth + kGap, 2, width() - kSwatchWidth - kGap, height() - 2),
               Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, text_);
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
  LegendEntry entry_;
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
        y += rowHeight + 2;
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
    delete item->widget();
    delete item;
  }
  for (const LegendEntry& entry : chart_->legendEntries()) {
    auto* item = new LegendItem(entry, this);
    if (entry.runId != 0) {
      const qint64 id = entry.runId;
      item->onClick = [this, id] { chart_->setRunHidden(id, !chart_->isRunHidden(id)); };
    }
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
