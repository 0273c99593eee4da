# Sourced by the xdotool scripts: require_tools TOOL... returns when every TOOL is on PATH;
# otherwise the test skips (exit 77) on a developer's machine and fails (exit 1) under CI=true,
# where scripts/install-deps.sh has installed them all and a skip would hide a test that never ran.
require_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null && continue
    if [ "${CI:-}" = true ] || [ "${CI:-}" = 1 ]; then
      echo "FAIL: $tool is not installed (CI=true: no test may skip; scripts/install-deps.sh installs it)"
      exit 1
    fi
    echo "SKIP: $tool is not installed"
    exit 77
  done
}
