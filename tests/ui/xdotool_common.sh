# Sourced by the xdotool scripts (dialog_on_db_folder.sh, chart_clicks.sh): a private folder
# $dir with its own HOME (no settings, last database or export folder of the person running the
# tests), and on exit the window $pid stopped and $dir removed, keeping the exit status.
dir=$(mktemp -d)
pid=""
# cleanup [STATUS]: the trap's own status, or the one a trap before it saved (a trap must not run
# `(exit $rc)` to pass it on: under set -e a failing status ends the shell there, skipping this).
cleanup() {
  local rc=${1:-$?}
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$dir"
  exit "$rc"
}
trap cleanup EXIT
export HOME=$dir/home XDG_CONFIG_HOME=$dir/home/.config XDG_DATA_HOME=$dir/home/.local/share
mkdir -p "$HOME"

# until_ok SECONDS CMD...: runs CMD every 0.2 s until it succeeds (status 0) or SECONDS have
# passed (status 1). The scripts wait on what a person would see, never a fixed time: on a busy
# 2-core machine a redraw can take seconds, and on an idle one a fixed sleep only wastes them.
until_ok() {
  local limit=$1 i
  shift
  for ((i = 0; i < limit * 5; i++)); do
    "$@" && return 0
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
      echo "FAIL: the window exited" >&2
      return 1
    fi
    sleep 0.2
  done
  return 1
}
