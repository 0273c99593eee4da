# Sourced first by the xdotool scripts that read the window's PARITY_TRACE_UI lines:
#   . "$here/xtest_begin.sh" PARITY PARITY_CLI OUT TOOL...
# sets $parity, $cli and $out, skips the test (exit 77) when a TOOL is not installed, makes OUT,
# and sources xdotool_common.sh (private $dir and HOME, cleanup) and xdotool_trace.sh. Needs $here.
parity=$1 cli=$2 out=$3
shift 3
for tool in "$@"; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
mkdir -p "$out"
# shellcheck source=xdotool_common.sh
. "$here/xdotool_common.sh"
# shellcheck source=xdotool_trace.sh
. "$here/xdotool_trace.sh"
