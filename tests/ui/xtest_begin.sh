# Sourced first by the xdotool scripts that read the window's PARITY_TRACE_UI lines:
#   . "$here/xtest_begin.sh" PARITY PARITY_CLI OUT TOOL...
# sets $parity, $cli and $out, skips the test (exit 77; under CI=true it fails) when a TOOL is
# not installed, makes OUT,
# and sources xdotool_common.sh (private $dir and HOME, cleanup) and xdotool_trace.sh. Needs $here.
parity=$1 cli=$2 out=$3
shift 3
# shellcheck source=require_tools.sh
. "$here/require_tools.sh"
require_tools "$@"
mkdir -p "$out"
# shellcheck source=xdotool_common.sh
. "$here/xdotool_common.sh"
# shellcheck source=xdotool_trace.sh
. "$here/xdotool_trace.sh"
