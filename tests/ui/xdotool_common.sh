# Sourced by the xdotool scripts (dialog_on_db_folder.sh, chart_clicks.sh): a private folder
# $dir with its own HOME (no settings, last database or export folder of the person running the
# tests), and on exit the window $pid stopped and $dir removed, keeping the exit status.
dir=$(mktemp -d)
pid=""
cleanup() {
  local rc=$?
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
