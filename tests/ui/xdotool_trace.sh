# Sourced after xdotool_common.sh by the scripts that read what the window shows from its
# PARITY_TRACE_UI lines (app/gui/ui_trace.h): focus moves, tooltips, dialogs and a map of the
# visible controls with their screen rectangles. The window sits at 0,0, so they are also
# xdotool's coordinates. Needs $parity, $out and $dir; sets $pid, $win and $trace.
trace=$dir/trace.log
# The trace is kept beside the screenshots (the private folder goes on exit).
trap 'rc=$?; cp -f "$trace" "$out/${0##*/}.trace.log" 2>/dev/null; cleanup "$rc"' EXIT

# On stderr, so that a failure inside $(...) is still seen.
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# start_window ARGS...: the dashboard with ARGS, at 0,0 and 1400x900, its first map printed.
start_window() {
  PARITY_TRACE_UI=1 "$parity" "$@" >"$dir/parity.out" 2>"$trace" &
  pid=$!
  win=$(timeout 30 xdotool search --all --sync --onlyvisible --pid "$pid" --name "^Parity" | head -n1)
  [ -n "$win" ] || { cat "$trace"; fail "the window did not appear"; }
  xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus --sync "$win"
  resize_window 1400 900
}

# resize_window W H: the window at W x H, and a map of it at that size printed.
resize_window() {
  local i
  xdotool windowmove "$win" 0 0 windowsize --sync "$win" "$1" "$2"
  for ((i = 0; i < 200; i++)); do
    map | head -n1 | grep -qE ",$1,$2\$" && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$trace"; fail "the window exited"; }
    sleep 0.1
  done
  map | head -n1
  fail "no map of the window at $1x$2 within 20 s"
}

# mark: the trace's line count, to wait for what comes after it.
mark() { wc -l <"$trace"; }

# wait_line MARK REGEX [SECONDS]: the first trace line after MARK matching REGEX (status 1 if
# none came within SECONDS, default 10).
wait_line() {
  local from=$1 regex=$2 limit=${3:-10} i line
  for ((i = 0; i < limit * 10; i++)); do
    line=$(tail -n +"$((from + 1))" "$trace" | grep -m1 -E "$regex" || true)
    [ -n "$line" ] && { echo "$line"; return 0; }
    kill -0 "$pid" 2>/dev/null || { cat "$trace"; fail "the window exited"; }
    sleep 0.1
  done
  return 1
}

# focused REGEX: whether the widget that has the focus now (the last focus line) matches REGEX.
focused() { grep -a '^parity-trace: focus ' "$trace" | tail -n1 | grep -qE "$1"; }

# wait_map MARK [SECONDS]: waits for a whole map printed after MARK.
wait_map() { wait_line "$1" '^parity-trace: map-end' "${2:-10}" >/dev/null; }

# map: the last whole map's lines.
map() {
  awk '/^parity-trace: map-begin/ {on = 1; buf = ""}
       on && /^parity-trace: (map|widget|tab|label|row|legend)/ {buf = buf $0 "\n"}
       /^parity-trace: map-end/ {on = 0; last = buf}
       END {printf "%s", last}' "$trace"
}

# find_in_map REGEX: the first line of the last map matching REGEX.
find_in_map() { map | grep -m1 -E "$1" || true; }

# centre LINE: "X Y" of the middle of the first X,Y,W,H rectangle in LINE.
centre() {
  echo "$1" | grep -oE '[0-9-]+,[0-9-]+,[0-9]+,[0-9]+' | head -n1 |
    awk -F, '{printf "%d %d\n", $1 + $3 / 2, $2 + $4 / 2}'
}

# rect LINE: "X Y W H" of the first rectangle in LINE.
rect() { echo "$1" | grep -oE '[0-9-]+,[0-9-]+,[0-9]+,[0-9]+' | head -n1 | tr , ' '; }

# click_on REGEX: a left click in the middle of the last map's first line matching REGEX.
click_on() {
  local line
  line=$(find_in_map "$1")
  [ -n "$line" ] || { map; fail "nothing in the window matches /$1/"; }
  read -r x y < <(centre "$line")
  xdotool mousemove --sync "$x" "$y" click 1
}

# shot NAME: the whole screen (tooltips and dialogs are windows of their own), within 20 s.
shot() {
  local file="$out/$1.png"
  timeout 20 import -window root "$file" || fail "no screenshot ($1)"
  kill -0 "$pid" 2>/dev/null || { cat "$trace"; fail "the window exited"; }
  echo "$file"
}

# windows: how many named windows of the window's process are mapped (the window and its
# dialogs; tooltips and popups have no name).
windows() {
  local w n=0
  for w in $(xdotool search --onlyvisible --pid "$pid" 2>/dev/null); do
    [ -n "$(xdotool getwindowname "$w" 2>/dev/null)" ] && n=$((n + 1))
  done
  echo "$n"
}
