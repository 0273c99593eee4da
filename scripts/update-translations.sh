#!/usr/bin/env bash
# Updates resources/translations/*.ts from the window's sources with Qt's lupdate: new strings are
# added unfinished, strings no longer in the code marked obsolete, translations kept. Then
# translate what is unfinished (Qt Linguist, or the file by hand) and rebuild; ui.translations
# fails while any string is unfinished. Usage: scripts/update-translations.sh [LANG...] (default:
# every .ts there; a new LANG, e.g. de_DE, starts a new file).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
lupdate=$(command -v lupdate || true)
[ -n "$lupdate" ] || lupdate=/usr/lib/qt6/bin/lupdate
[ -x "$lupdate" ] || { echo "update-translations: lupdate not found (Debian package qt6-l10n-tools)" >&2; exit 1; }
langs=("$@")
if [ ${#langs[@]} -eq 0 ]; then
  for ts in resources/translations/parity_*.ts; do l=${ts##*/parity_}; langs+=("${l%.ts}"); done
fi
# The include roots let lupdate see each class's namespace (contexts are "parity::ui::MainWindow",
# as tr() names them at run time); the axis names and the facts
# dialog's names are the engine's, marked QT_TRANSLATE_NOOP.
includes=()
for d in ui/include engine/*/include storage/include; do includes+=(-I "$d"); done
for lang in "${langs[@]}"; do
  "$lupdate" -locations relative -no-obsolete ui app/gui engine/analysis/src/axis.cpp \
    engine/config/include/parity/config/run_facts.h "${includes[@]}" \
    -extensions cpp,h -target-language "$lang" -ts "resources/translations/parity_$lang.ts"
done
