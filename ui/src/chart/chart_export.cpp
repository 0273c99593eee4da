#include <parity/ui/chart/chart_export.h>

#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>
#include <algorithm>

namespace parity::ui {

namespace {

QSize stackSize(const QList<QWidget*>& stack) {
  QSize size;
  for (const QWidget* w : stack) {
    size.setWidth(std::max(size.width(), w->width()));
    size.setHeight(size.height() + w->height());
  }
  return size;
}

void paintStack(QPainter& painter, const QList<QWidget*>& stack) {
  painter.setRenderHint(QPainter::Antialiasing);
  int y = 0;
  for (QWidget* w : stack) {
    w->render(&painter, QPoint(0, y));
    y += w->height();
  }
}

QString cannotWrite(const QString& path) {
  return QObject::tr("Could not write %1: check that the folder exists and is writable.")
      .arg(QFileInfo(path).absoluteFilePath());
}

}  // namespace

QString saveWidgetPng(QWidget* widget, const QString& path, double scale) {
  return saveStackPng({widget}, path, scale);
}

QString saveWidgetSvg(QWidget* widget, const QString& path, const QString& title) {
  return saveStackSvg({widget}, path, title);
}

QString saveStackPng(const QList<QWidget*>& stack, const QString& path, double scale) {
  QImage image(stackSize(stack) * scale, QImage::Format_ARGB32_Premultiplied);
  image.setDevicePixelRatio(scale);
  image.fill(Qt::white);
  {
    QPainter painter(&image);
    paintStack(painter, stack);
  }
  return image.save(path, "PNG") ? QString() : cannotWrite(path);
}

QString saveStackSvg(const QList<QWidget*>& stack, const QString& path, const QString& title) {
  const QSize size = stackSize(stack);
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(size);
  svg.setViewBox(QRect(QPoint(0, 0), size));
  svg.setTitle(title);
  svg.setDescription(QObject::tr("Loss curves exported by Parity"));
  QPainter painter;
  if (!painter.begin(&svg)) return cannotWrite(path);
  paintStack(painter, stack);
  painter.end();
  return {};
}

}  // namespace parity::ui
