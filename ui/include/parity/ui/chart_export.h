#pragma once
/// Saves a chart view as PNG (at the screen's device pixel ratio, or a given scale) or SVG
/// (vector, through QSvgGenerator). Thread affinity: UI thread.

#include <QString>

class QWidget;

namespace parity::ui {

/// Returns an empty string on success, else what went wrong (path included).
QString saveWidgetPng(QWidget* widget, const QString& path, double scale = 2.0);
QString saveWidgetSvg(QWidget* widget, const QString& path, const QString& title);

}  // namespace parity::ui
