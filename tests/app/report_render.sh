#!/usr/bin/env bash
# The report as a reader sees it (#34): the demo's four runs, then `parity-cli report` to HTML,
# PDF and CSV. The HTML is opened by a real headless browser (Debian's Chromium): its DOM holds
# the SVG curves (4 loss curves, 3 deltas, the parting marks) and its screenshot is not blank;
# the PDF is turned into PNG pages by Poppler's pdftoppm and checked the same way. Bad input
# (an unknown run, a folder that cannot be written, a name no writer knows) fails with exit 2,
# one clear line, and leaves no file.
# Usage: report_render.sh PARITY_CLI   (chromium, poppler-utils, imagemagick: install-deps)
# PARITY_REPORT_SHOTS=DIR keeps the screenshot and the first PDF page there.
set -euo pipefail
cli=$1
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
skip() {
  if [ "${CI:-}" = "true" ]; then fail "$* (CI=true: a test never skips)"; fi
  echo "SKIP: $*"
  exit 77
}
for tool in chromium pdftoppm convert identify; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (scripts/install-deps.sh)"
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export HOME=$dir  # chromium's profile, the demo's defaults

"$cli" demo --db "$dir/d.db" --out "$dir/curves.csv" --train-samples 6400 -q >"$dir/demo.out" 2>&1 ||
  fail "the demo failed: $(tail -5 "$dir/demo.out")"

# --- the writers ---------------------------------------------------------------------------------
for ext in html pdf csv; do
  "$cli" report --db "$dir/d.db" -r 1 2 3 4 --ema 0.9 --rel-tolerance 0.01 --out "$dir/r.$ext" \
    2>"$dir/err.$ext" || fail "report --out r.$ext failed: $(cat "$dir/err.$ext")"
  grep -q "wrote the report of 3 runs vs run 1 to $dir/r.$ext" "$dir/err.$ext" ||
    fail "report did not say what it wrote: $(cat "$dir/err.$ext")"
done
html=$dir/r.html
[ "$(grep -c '<svg' "$html")" = 2 ] || fail "the HTML does not hold two plots"
grep -q '<script' "$html" && fail "the HTML needs a script"
grep -Eq '(src|href)="(https?:)?//' "$html" && fail "the HTML reaches the network"
# The CSV report is export --report's, byte for byte (export's verdict has the default options).
"$cli" report --db "$dir/d.db" -r 1 2 3 4 --out "$dir/r.csv" 2>/dev/null
"$cli" export --db "$dir/d.db" --report --reference 1 --runs 2,3,4 --out "$dir/export.csv" 2>/dev/null
cmp -s "$dir/r.csv" "$dir/export.csv" || fail "report's CSV differs from export --report's"
head -c 5 "$dir/r.pdf" | grep -q '%PDF-' || fail "r.pdf is not a PDF"

# --- the HTML in a real browser ------------------------------------------------------------------
browser=(chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
  --user-data-dir="$dir/chromium")
timeout 120 "${browser[@]}" --dump-dom "file://$html" >"$dir/dom.html" 2>"$dir/chromium.err" ||
  fail "chromium could not open the report: $(tail -3 "$dir/chromium.err")"
curves=$(grep -o '<path class="curve"' "$dir/dom.html" | wc -l)
[ "$curves" = 7 ] || fail "the browser's DOM has $curves curve paths, not 4 loss curves + 3 deltas"
grep -q '<circle class="mark"' "$dir/dom.html" || fail "no parting point is marked"
grep -q 'different' "$dir/dom.html" || fail "the verdict is not in the page"
timeout 120 "${browser[@]}" --screenshot="$dir/html.png" --window-size=1000,1600 "file://$html" \
  >/dev/null 2>>"$dir/chromium.err" || fail "chromium took no screenshot: $(tail -3 "$dir/chromium.err")"

# Not blank: many colours (the curves' among them) and a spread of grey levels.
not_blank() {
  local png=$1 what=$2 colours spread red
  colours=$(identify -format '%k' "$png")
  spread=$(convert "$png" -colorspace Gray -format '%[fx:int(1000*standard_deviation)]' info:)
  # Pixels near the palette's red (#d62728: run 3, the unscaled lr).
  red=$(convert "$png" -fuzz 12% -fill black -opaque '#d62728' -fill white +opaque black \
    -colorspace Gray -format '%[fx:int(100000*(1-mean))]' info:)
  [ "$colours" -gt 50 ] || fail "$what looks blank: $colours colours"
  [ "$spread" -gt 50 ] || fail "$what looks blank: grey spread $spread/1000"
  [ "$red" -gt 20 ] || fail "$what shows no red curve ($red/100000 of its pixels)"
  echo "$what: $colours colours, grey spread $spread/1000, red curve $red/100000 of the pixels"
}
not_blank "$dir/html.png" "the HTML's screenshot"

# --- the PDF as pages ----------------------------------------------------------------------------
pdftoppm -r 60 -png "$dir/r.pdf" "$dir/page"
pages=$(ls "$dir"/page-*.png | wc -l)
[ "$pages" -ge 2 ] || fail "the PDF has $pages page(s)"
first=$(ls "$dir"/page-*.png | head -1)
size=$(identify -format '%wx%h' "$first")
[ "$size" = "496x702" ] || fail "the PDF's page is $size at 60 dpi, not A4 (496x702)"
not_blank "$first" "the PDF's first page"
echo "the PDF: $pages A4 pages"

if [ -n "${PARITY_REPORT_SHOTS:-}" ]; then
  cp "$dir/html.png" "$PARITY_REPORT_SHOTS/report-html.png"
  cp "$first" "$PARITY_REPORT_SHOTS/report-pdf-page1.png"
fi

# --- bad input: a clear error, exit 2, nothing written -------------------------------------------
expect_refusal() {
  local out=$1 words=$2 rc=0
  shift 2
  "$cli" report --db "$dir/d.db" "$@" --out "$out" >/dev/null 2>"$dir/refused" || rc=$?
  [ "$rc" = 2 ] || fail "report $* --out $out: exit $rc, not 2: $(cat "$dir/refused")"
  grep -q "$words" "$dir/refused" || fail "report $* --out $out said: $(cat "$dir/refused")"
  [ "$(wc -l <"$dir/refused")" = 1 ] || fail "more than one line: $(cat "$dir/refused")"
  [ ! -e "$out" ] || fail "$out was written"
}
expect_refusal "$dir/u.html" "no run 9 in" -r 1 2 9
expect_refusal "$dir/u.html" "no run 7 in" -r 7
expect_refusal "$dir/missing/u.html" "cannot write $dir/missing/u.html" -r 1
expect_refusal "/proc/u.html" "cannot write /proc/u.html" -r 1
expect_refusal "$dir/u.docx" "must end in" -r 1
ls -a "$dir" | grep -q '^\.u\.' && fail "a temporary file was left"
echo "ok"
