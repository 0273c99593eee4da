#pragma once
/// The window in its user's language: Parity's own strings (resources/translations/parity_*.ts,
/// compiled into the library as :/i18n/parity_LANG.qm) and Qt's (its standard dialogs' buttons,
/// from the system's Qt translations), chosen from the locale; English where none is shipped.
/// Thread affinity: the GUI thread, before the first window is made.

#include <QLocale>
#include <QString>

class QCoreApplication;

namespace parity::ui {

/// Installs the translators for `locale` into `app` (kept as its children). Returns the language
/// loaded for Parity's own strings ("tr"), or empty when it runs in English (no translation for
/// `locale`, or an English locale).
QString installTranslations(QCoreApplication* app, const QLocale& locale = QLocale::system());

}  // namespace parity::ui
