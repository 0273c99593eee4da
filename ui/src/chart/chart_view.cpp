#include <parity/ui/chart/chart_view.h>

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QRubberBand>
#include <QWheelEvent>
#include <cmath>

namespace parity::ui {

ChartView::ChartView(QChart* chart, QWidget* parent)
    : QChartView(chart, parent), band_(new QRubberBand(QRubberBand::Rectangle, this)) {
  setRubberBand(QChartView::NoRubberBand);
  setRenderHint(QPainter::Antialiasing, true);
  setFocusPolicy(Qt::StrongFocus);
  setDragMode(QGraphicsView::NoDrag);
  setMouseTracking(true);
  setToolTip(
      tr("Drag: zoom to a box · right-drag: pan · wheel: zoom x (Shift: y) · "
         "double-click: reset"));
}

void ChartView::mousePressEvent(QMouseEvent* event) {
  origin_ = last_ = event->position().toPoint();
  if (event->button() == Qt::LeftButton) {
    drag_ = Drag::kZoom;
    band_->setGeometry(QRect(origin_, QSize()));
    band_->show();
  } else if (event->button() == Qt::RightButton || event->button() == Qt::MiddleButton) {
    drag_ = Drag::kPan;
    setCursor(Qt::ClosedHandCursor);
  }
  event->accept();
}

void ChartView::mouseMoveEvent(QMouseEvent* event) {
  const QPoint pos = event->position().toPoint();
  if (drag_ == Drag::kZoom) {
    band_->setGeometry(QRect(origin_, pos).normalized());
  } else if (drag_ == Drag::kPan) {
    emit panRequested(QPointF(pos - last_));
  } else {
    emit hovered(event->position());
  }
  last_ = pos;
  event->accept();
}

void ChartView::mouseReleaseEvent(QMouseEvent* event) {
  if (drag_ == Drag::kZoom) {
    band_->hide();
    const QRect rect = QRect(origin_, event->position().toPoint()).normalized();
    // A click or a sliver is not a zoom.
    if (rect.width() > 4 && rect.height() > 4) emit zoomRectRequested(QRectF(rect));
  }
  drag_ = Drag::kNone;
  unsetCursor();
  event->accept();
}

void ChartView::mouseDoubleClickEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) emit resetRequested();
  event->accept();
}

void ChartView::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (steps == 0) return;
  const double factor = std::pow(0.85, steps);
  const bool yOnly = event->modifiers() & Qt::ShiftModifier;
  emit zoomRequested(yOnly ? 1.0 : factor, yOnly ? factor : 1.0, event->position());
  event->accept();
}

void ChartView::keyPressEvent(QKeyEvent* event) {
  const QRectF plot = chart()->plotArea();
  const double dx = plot.width() / 10, dy = plot.height() / 10;
  switch (event->key()) {
    case Qt::Key_Left:
      emit panRequested({dx, 0});
      break;
    case Qt::Key_Right:
      emit panRequested({-dx, 0});
      break;
    case Qt::Key_Up:
      emit panRequested({0, dy});
      break;
    case Qt::Key_Down:
      emit panRequested({0, -dy});
      break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      emit zoomRequested(0.8, 1.0, plot.center());
      break;
    case Qt::Key_Minus:
      emit zoomRequested(1.25, 1.0, plot.center());
      break;
    case Qt::Key_Home:
      emit resetRequested();
      break;
    default:
      QChartView::keyPressEvent(event);
      return;
  }
  event->accept();
}

bool ChartView::event(QEvent* event) {
  // Over the plot the hover values are the tooltip; the help text is for the rest of the view.
  if (event->type() == QEvent::ToolTip) {
    const QPoint pos = static_cast<QHelpEvent*>(event)->pos();
    if (chart()->plotArea().contains(chart()->mapFromScene(mapToScene(pos)))) return true;
  }
  return QChartView::event(event);
}

bool ChartView::viewportEvent(QEvent* event) {
  // The tooltip event reaches the viewport first, where QGraphicsView asks the scene, which has
  // no item tooltips and hides the text: the hover values went away a second after the mouse
  // came to rest. Over the plot they stay until the mouse moves.
  if (event->type() == QEvent::ToolTip) {
    const QPoint pos = static_cast<QHelpEvent*>(event)->pos();
    if (chart()->plotArea().contains(chart()->mapFromScene(mapToScene(pos)))) {
      event->accept();
      return true;
    }
    event->ignore();  // elsewhere: the view's own help text (event() below)
    return false;
  }
  return QChartView::viewportEvent(event);
}

void ChartView::resizeEvent(QResizeEvent* event) {
  QChartView::resizeEvent(event);
  emit resized();
}

}  // namespace parity::ui
