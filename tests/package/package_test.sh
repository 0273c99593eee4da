#!/usr/bin/env bash
# The Debian package as a user gets it: CPack builds it from this build (packaging/), dpkg installs
# it into a fresh root (its own dpkg database, no chroot), and the installed programs run from
# there alone (LD_LIBRARY_PATH unset, the build tree not on PATH): --version everywhere,
# parity-cli demo on a small share of Fashion-MNIST, show with the recorded version, the window's
# screenshot of the database it made. The desktop entry, the AppStream file and the manual pages
# validate; the package's dependencies are real packages this machine has; dpkg -r leaves nothing.
# Usage: package_test.sh BUILD_DIR VERSION GUI(ON|OFF)
# Exit 77 (skipped) when a tool is missing, except under CI=true, where that fails.
set -euo pipefail
build=$1 version=$2 gui=$3

fail() {
  echo "package_test: FAIL: $*" >&2
  exit 1
}
need=(cpack dpkg dpkg-deb dpkg-checkbuilddeps desktop-file-validate appstreamcli man file)
for tool in "${need[@]}"; do
  if ! command -v "$tool" >/dev/null; then
    [ "${CI:-}" = true ] && fail "$tool is missing (scripts/install-deps.sh installs it)"
    echo "package_test: $tool is missing (scripts/install-deps.sh installs it); skipped"
    exit 77
  fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/parity-package-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
SECONDS=0
step() { echo "package_test: [${SECONDS}s] $*"; }

step "cpack"
(cd "$build" && cpack --config CPackConfig.cmake -B "$tmp/out" >"$tmp/cpack.log" 2>&1) ||
  { cat "$tmp/cpack.log" >&2; fail "cpack failed"; }
deb="$tmp/out/parity_${version}_$(dpkg --print-architecture).deb"
[ -f "$deb" ] || fail "no $(basename "$deb"): $(ls "$tmp/out")"
echo "package_test: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB"
dpkg-deb --field "$deb" Package Version Depends Recommends

step "the dependencies"
depends=$(dpkg-deb --field "$deb" Depends)
# dpkg-shlibdeps found what the programs link; the data is named by hand.
for expected in libsqlite3-0 libtorch libqt6core6 dataset-fashion-mnist; do
  if [ "$expected" = libqt6core6 ] && [ "$gui" != ON ]; then continue; fi
  [[ "$depends" == *"$expected"* ]] || fail "Depends has no $expected: $depends"
done
# Every dependency names a package this machine has, at a version that satisfies it.
dpkg-checkbuilddeps -I -d "$depends" /dev/null || fail "Depends is not satisfied here: $depends"

step "what the package holds"
dpkg-deb --contents "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$tmp/contents"
# What may be installed: the programs, their manual pages, the desktop entry, icons and AppStream
# file, the README, and the folders above them. Nothing of tests/ (fixtures, data) or the build.
allowed=(
  '/' '/usr/' '/usr/(bin|share)/' '/usr/bin/parity(-cli|-worker)?'
  '/usr/share/(applications|metainfo|man|man/man1|icons|doc|doc/parity)/'
  '/usr/share/applications/parity\.desktop' '/usr/share/metainfo/[a-z0-9._]+\.metainfo\.xml'
  '/usr/share/icons/hicolor/.*' '/usr/share/man/man1/parity(-cli|-worker)?\.1\.gz'
  '/usr/share/doc/parity/README\.md'
)
pattern="^($(IFS='|'; echo "${allowed[*]}"))\$"
unexpected=$(grep -vE "$pattern" "$tmp/contents" || true)
[ -z "$unexpected" ] || fail "the package holds files it should not: $unexpected"
programs=(parity-cli parity-worker)
[ "$gui" = ON ] && programs+=(parity)
for p in "${programs[@]}"; do
  grep -qx "/usr/bin/$p" "$tmp/contents" || fail "no /usr/bin/$p"
  grep -qx "/usr/share/man/man1/$p.1.gz" "$tmp/contents" || fail "no manual page for $p"
done

step "dpkg --install into a fresh root"
root="$tmp/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
# The fresh root has none of the libraries (the host's are used to run the programs, and the
# check above holds Depends to them): --force-depends. --force-not-root: CI need not be root.
# --path-include: a container's dpkg.cfg.d may exclude manual pages or docs; this root keeps all.
dpkg_root=(dpkg --root="$root" --log="$tmp/dpkg.log" --force-not-root --path-include='*')
"${dpkg_root[@]}" --force-depends --install "$deb" >"$tmp/dpkg-install.log" 2>&1 ||
  { cat "$tmp/dpkg-install.log" >&2; fail "dpkg --install failed"; }

step "the installed programs, from the installed files only"
# A fresh home (the Fashion-MNIST cache is decoded into it too: nothing from the build tree).
export HOME="$tmp/home" XDG_DATA_HOME="$tmp/home/data" XDG_CONFIG_HOME="$tmp/home/config"
export XDG_CACHE_HOME="$tmp/home/cache" XDG_RUNTIME_DIR="$tmp/runtime"
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
unset LD_LIBRARY_PATH PARITY_CLI PARITY_WORKER PARITY_DATA_CACHE
host_path=$PATH
export PATH=/usr/bin:/bin QT_QPA_PLATFORM=offscreen
bin="$root/usr/bin"
for p in "${programs[@]}"; do
  got=$("$bin/$p" --version) || fail "$p --version exited $?"
  [ "$got" = "$p $version" ] || fail "$p --version printed '$got', not '$p $version'"
done
db="$tmp/demo.db"
"$bin/parity-cli" demo --db "$db" --train-samples 1280 --epochs 1 --quiet >"$tmp/demo.log" 2>&1 ||
  { cat "$tmp/demo.log" >&2; fail "the installed parity-cli demo failed"; }
grep -Eq '2x32 \(equivalent\) +equivalent' "$tmp/demo.log" ||
  { cat "$tmp/demo.log" >&2; fail "the demo's 2x32 is not equivalent to its 1x64"; }
# The ranks were the installed parity-worker: the launcher found it beside itself.
show=$("$bin/parity-cli" show 1 --db "$db")
grep -qx "recorded by Parity $version" <<<"$show" || fail "show 1 does not say the version: $show"
mime=$(file --brief --mime-type "$db")
[ "$mime" = application/vnd.sqlite3 ] || fail "a database is $mime to a file manager"
if [ "$gui" = ON ]; then
  # As a file manager opens it: `parity FILE.db`.
  "$bin/parity" --screenshot "$tmp/shot.png" --timeout 60 "$db" >"$tmp/gui.log" 2>&1 ||
    { cat "$tmp/gui.log" >&2; fail "the installed parity could not open $db"; }
  [ -s "$tmp/shot.png" ] || fail "parity saved no screenshot"
fi

step "the desktop entry, the AppStream metadata, the manual pages"
if [ "$gui" = ON ]; then
  desktop="$root/usr/share/applications/parity.desktop"
  desktop-file-validate "$desktop" >"$tmp/desktop.log" 2>&1 || true
  [ ! -s "$tmp/desktop.log" ] || { cat "$tmp/desktop.log" >&2; fail "desktop-file-validate"; }
  grep -q '^MimeType=.*application/vnd.sqlite3;' "$desktop" || fail "no MimeType for .db files"
  grep -q '^Exec=parity %f$' "$desktop" || fail "the desktop entry does not pass the file"
  metainfo=$(ls "$root"/usr/share/metainfo/*.metainfo.xml)
  appstreamcli validate --no-net --strict "$metainfo" || fail "appstreamcli validate $metainfo"
  grep -q '<launchable type="desktop-id">parity.desktop</launchable>' "$metainfo" ||
    fail "the AppStream file does not launch parity.desktop"
  [ -f "$root/usr/share/icons/hicolor/scalable/apps/parity.svg" ] || fail "no scalable icon"
fi
for p in "${programs[@]}"; do
  page="$root/usr/share/man/man1/$p.1.gz"
  # man-db's own check: groff's warnings on stderr, the page rendered to nothing.
  MANWIDTH=80 man --warnings -E UTF-8 -l "$page" >"$tmp/man.txt" 2>"$tmp/man.err" ||
    fail "man -l $page exited $?"
  [ ! -s "$tmp/man.err" ] || { cat "$tmp/man.err" >&2; fail "man --warnings on $p.1"; }
  grep -q "$p $version" "$tmp/man.txt" || fail "$p.1 does not carry version $version"
  grep -q "^OPTIONS" "$tmp/man.txt" || fail "$p.1 has no OPTIONS"
done
# parity-cli's page has every verb's own --help.
MANWIDTH=80 man -l "$root/usr/share/man/man1/parity-cli.1.gz" >"$tmp/cli.txt" 2>/dev/null
verbs=$("$bin/parity-cli" --help | sed -n '/^[Ss][Uu][Bb][Cc][Oo][Mm][Mm][Aa][Nn][Dd][Ss]:/,$p' |
  sed -nE 's/^  ([a-z][a-z0-9-]*) .*/\1/p')
[ -n "$verbs" ] || fail "parity-cli --help lists no verbs"
for verb in $verbs; do
  grep -q "Usage: parity-cli $verb " "$tmp/cli.txt" || fail "parity-cli.1 lacks '$verb --help'"
done

step "dpkg --remove"
export PATH=$host_path  # dpkg wants ldconfig and start-stop-daemon (sbin)
"${dpkg_root[@]}" --remove parity >"$tmp/dpkg-remove.log" 2>&1 ||
  { cat "$tmp/dpkg-remove.log" >&2; fail "dpkg --remove failed"; }
left=$(cd "$root" && find . -mindepth 1 -not -path './var' -not -path './var/lib' \
  -not -path './var/lib/dpkg' -not -path './var/lib/dpkg/*')
[ -z "$left" ] || fail "dpkg --remove left: $left"
step "passed"
