#!/usr/bin/env bash
# The gradient allreduce overlapped with the backward against the sync after it (#21), the same
# jobs as bench/peer/pair.sh (Fashion-MNIST, SGD, STEPS optimizer steps of one epoch, no
# evaluation), in one run: each round runs every arm once, one after the other, so a drift in the
# machine's speed touches all of them. Prints per setup and arm the median samples/s inside
# training and the final losses (the arms must agree to the bit), then every sample.
# Arms: off = PARITY_OVERLAP=0 (the sync after the backward); on = PARITY_OVERLAP=1 with the default
# 25 MB buckets; on-small = PARITY_OVERLAP=1 PARITY_BUCKET_KB=$SMALL_KB (256: the MLP's gradient in
# two buckets, so one of them can travel while the first layer's gradient is computed).
# Usage: bench/engine/overlap_pair.sh PARITY_CLI [ROUNDS=3] [STEPS=400] [SETUPS...]
#   SETUPS like mlp:2x32 mlp:2x64 mlp:4x16 cnn:2x32 (the default: these four)
set -euo pipefail
cli=$(realpath "$1")
rounds=${2:-3}
steps=${3:-400}
shift $(($# < 3 ? $# : 3))
setups=("$@")
[ ${#setups[@]} -gt 0 ] || setups=(mlp:2x32 mlp:2x64 mlp:4x16 cnn:2x32)
small_kb=${SMALL_KB:-256}
arms=(off on on-small)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

run_arm() {  # arm model w b
  local overlap=0 kb=
  case $1 in
    on) overlap=1 ;;
    on-small) overlap=1 kb=$small_kb ;;
  esac
  rm -rf "$work"/r.db*
  PARITY_OVERLAP=$overlap PARITY_BUCKET_KB=$kb "$cli" run --db "$work/r.db" --model "$2" \
    --num-processes "$3" --per-device-batch-size "$4" --epochs 1 --max-steps "$steps" \
    --eval-every-epoch false >"$work/out" 2>&1
  grep -o '[0-9.]* samples/s' "$work/out" | tail -1 | cut -d' ' -f1 >>"$work/$1_sps"
  grep -o 'final loss [0-9.]*' "$work/out" | tail -1 | cut -d' ' -f3 >"$work/$1_loss"
}

echo "# $(date -u '+%F %H:%M') UTC, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg);" \
  "$rounds rounds of $steps steps; on-small = ${small_kb} KB buckets"
printf '%-9s %10s %10s %10s %8s %8s  %s\n' setup "off s/s" "on s/s" "small s/s" "on/off" \
  "small/off" "final loss off / on / small"
for setup in "${setups[@]}"; do
  model=${setup%%:*}
  shape=${setup#*:}
  for arm in "${arms[@]}"; do : >"$work/${arm}_sps"; done
  for _ in $(seq "$rounds"); do
    for arm in "${arms[@]}"; do run_arm "$arm" "$model" "${shape%%x*}" "${shape#*x}"; done
  done
  off=$(median <"$work/off_sps")
  on=$(median <"$work/on_sps")
  small=$(median <"$work/on-small_sps")
  printf '%-9s %10.0f %10.0f %10.0f %8.2f %8.2f  %s / %s / %s\n' "$setup" "$off" "$on" "$small" \
    "$(awk -v a="$on" -v b="$off" 'BEGIN {print a / b}')" \
    "$(awk -v a="$small" -v b="$off" 'BEGIN {print a / b}')" \
    "$(cat "$work/off_loss")" "$(cat "$work/on_loss")" "$(cat "$work/on-small_loss")"
  for arm in "${arms[@]}"; do echo "#   $setup $arm: $(sort -g "$work/${arm}_sps" | tr '\n' ' ')"; done
done
echo "# load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
