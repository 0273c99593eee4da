#pragma once
/// Saves a chart view as PNG (at the screen's device pixel ratio, or a given scale) or SVG
/// (vector, through QSvgGenerator): one widget, or several drawn one under another at their own
/// sizes (the plot above its whole legend, which on screen may scroll).
/// Thread affinity: UI thread.

#include <QList>
#include <QString>

class QWidget;

namespace parity::ui {

/// Returns an empty string on success, else what went wrong (path included).
QString saveWidgetPng(QWidget* widget, const QString& path, double scale = 2.0);
QString saveWidgetSvg(QWidget* widget, const QString& path, const QString& title);
QString saveStackPng(const QList<QWidget*>& stack, const QString& path, double scale = 2.0);
QString saveStackSvg(const QList<QWidget*>& stack, const QString& path, const QString& title);

}  // namespace parity::ui
