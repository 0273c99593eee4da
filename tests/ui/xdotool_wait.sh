# Sourced by the xdotool scripts that wait on a condition instead of a fixed sleep:
#   until_true SECONDS COMMAND...: runs COMMAND every 0.2 s until it succeeds (status 0), or
#   returns 1 after SECONDS.
until_true() {
  local limit=$1 i
  shift
  for ((i = 0; i < limit * 5; i++)); do
    "$@" && return 0
    sleep 0.2
  done
  return 1
}
