#!/usr/bin/env bash
# Installs what Parity needs from Debian's packages, skipping what is already there.
# Run as root or with sudo. Safe to run again.
set -euo pipefail

pkgs=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libxkbcommon-dev
  # The window's translations: lrelease/lupdate and CMake's LinguistTools, and Qt's own strings
  # (its dialogs' buttons) in the user's language.
  qt6-l10n-tools qt6-tools-dev qt6-translations-l10n
  libtorch-dev libgloo-dev libopenblas0-pthread
  libsqlite3-dev sqlite3 zlib1g-dev nlohmann-json3-dev libcli11-dev libyaml-cpp-dev
  libgtest-dev libgmock-dev
  dataset-fashion-mnist
  xvfb xauth x11-apps xdotool
  locales-all
  # What the tests use beyond the build: ImageMagick's import/convert and python3 (the window's
  # xdotool scripts), iproute2 (the multi-machine tests' network namespaces). Under CI=true a test
  # whose tool is missing fails rather than skips, so this list is every test's needs.
  imagemagick python3 iproute2
  # "Your command" tests: a real PyTorch DDP job as the user's own script (the same torch 1.13 as
  # the LibTorch). Parity itself never needs Python.
  python3-torch
  # The Slurm test of "your command": a one-node cluster the test starts in a private folder.
  slurm-wlm munge
  # The report as a reader sees it (tests/app/report_render.sh): the HTML in a real headless
  # browser, the PDF turned into PNG pages by Poppler's pdftoppm.
  chromium poppler-utils
  # scripts/fuzz.sh (run by scripts/test.sh in CI): clang with libFuzzer and the sanitizers.
  clang libclang-rt-14-dev
  # The package (scripts/package.sh, tests/package): manual pages made with help2man, CPack's
  # dpkg-shlibdeps (dpkg-dev), and the checks of what it installs: desktop-file-validate,
  # appstreamcli, man --warnings (man-db, groff), file's MIME type of a database.
  help2man dpkg-dev desktop-file-utils appstream man-db groff-base file
)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#pkgs[@]} packages present"
else
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Debian's LibTorch links libblas.so.3, which the alternatives system points at the reference BLAS
# unless OpenBLAS is selected. Reference BLAS is ~50x slower on GEMM.
blas=$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || true)
case "$blas" in
  *openblas*) ;;
  *)
    alt=$(update-alternatives --list libblas.so.3-x86_64-linux-gnu 2>/dev/null | grep openblas-pthread | head -n1 || true)
    if [ -n "$alt" ]; then
      sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
      $sudo update-alternatives --set libblas.so.3-x86_64-linux-gnu "$alt"
      echo "install-deps: BLAS set to $alt"
    fi
    ;;
esac
