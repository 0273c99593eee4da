#include <parity/ui/window/translations.h>

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace parity::ui {

QString installTranslations(QCoreApplication* app, const QLocale& locale) {
  if (locale.language() == QLocale::English || locale.language() == QLocale::C) return {};
  auto* own = new QTranslator(app);
  // QTranslator::load(locale, ...) tries each of the locale's UI languages: tr_TR, then tr.
  if (!own->load(locale, "parity", "_", ":/i18n")) {
    delete own;
    return {};
  }
  QCoreApplication::installTranslator(own);
  // Qt's own strings: QMessageBox's and QFileDialog's buttons, the context menus of editors.
  auto* qt = new QTranslator(app);
  if (qt->load(locale, "qtbase", "_", QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
    QCoreApplication::installTranslator(qt);
  } else {
    delete qt;
  }
  return own->language();
}

}  // namespace parity::ui
