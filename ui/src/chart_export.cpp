#include <parity/ui/chart_export.h>

#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

namespace parity::ui {

QString saveWidgetPng(QWidget* widget, const QString& path, double scale) {
  QImage image(widget->size() * scale, QImage::Format_ARGB32_Premultiplied);
  image.setDevicePixelRatio(scale);
  image.fill(Qt::white);
  {
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    widget->render(&painter);
  }
  if (!image.save(path, "PNG")) {
    return QObject::tr("Could not write %1: check that the folder exists and is writable.")
        .arg(QFileInfo(path).absoluteFilePath());
  }
  return {};
}

QString saveWidgetSvg(QWidget* widget, const QString& path, const QString& title) {
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(widget->size());
  svg.setViewBox(QRect(QPoint(0, 0), widget->size()));
  svg.setTitle(title);
  svg.setDescription(QObject::tr("Loss curves exported by Parity"));
  QPainter painter;
  if (!painter.begin(&svg)) {
    return QObject::tr("Could not write %1: check that the folder exists and is writable.")
        .arg(QFileInfo(path).absoluteFilePath());
  }
  painter.setRenderHint(QPainter::Antialiasing);
  widget->render(&painter);
  painter.end();
  return {};
}

}  // namespace parity::ui
