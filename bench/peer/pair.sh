#!/usr/bin/env bash
# Parity's engine against plain PyTorch DDP (bench/peer/ddp_peer.py), the same jobs side by side
# (#21): Fashion-MNIST, SGD lr 0.05, the MLP or the CNN, STEPS optimizer steps of one epoch, no
# evaluation. Each round runs Parity then the peer (alternating, so a drift in the machine's speed
# touches both), and prints per setup the medians of samples/s inside training (both count from
# the second step to the last) and of the whole job's wall time, with the ratios Parity / peer.
# Usage: bench/peer/pair.sh PARITY_CLI [ROUNDS=3] [STEPS=600] [SETUPS...]
#   SETUPS like mlp:1x64 mlp:2x32 mlp:2x64 mlp:4x16 cnn:1x64 cnn:2x32 (the default: all six)
# Needs Debian's python3-torch (the peer runs under /usr/bin/python3).
set -euo pipefail
cli=$(realpath "$1")
rounds=${2:-3}
steps=${3:-600}
shift $(($# < 3 ? $# : 3))
setups=("$@")
[ ${#setups[@]} -gt 0 ] || setups=(mlp:1x64 mlp:2x32 mlp:2x64 mlp:4x16 cnn:1x64 cnn:2x32)
peer=$(dirname "$(realpath "$0")")/ddp_peer.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
now() { date +%s.%N; }

echo "# $(date -u +%F) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds of $steps steps"
printf '%-9s %12s %12s %7s %10s %10s %7s  %s\n' setup "parity s/s" "peer s/s" ratio \
  "parity s" "peer s" ratio "final loss parity / peer"
for setup in "${setups[@]}"; do
  model=${setup%%:*}
  shape=${setup#*:}
  w=${shape%%x*}
  b=${shape#*x}
  : >"$work/p_sps" >"$work/q_sps" >"$work/p_wall" >"$work/q_wall"
  for _ in $(seq "$rounds"); do
    rm -rf "$work"/r.db*
    t0=$(now)
    "$cli" run --db "$work/r.db" --model "$model" --num-processes "$w" --per-device-batch-size "$b" \
      --epochs 1 --max-steps "$steps" --eval-every-epoch false >"$work/out" 2>&1
    t1=$(now)
    awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}' >>"$work/p_wall"
    grep -o '[0-9.]* samples/s' "$work/out" | tail -1 | cut -d' ' -f1 >>"$work/p_sps"
    ploss=$(grep -o 'final loss [0-9.]*' "$work/out" | tail -1 | cut -d' ' -f3)
    t0=$(now)
    /usr/bin/python3 "$peer" --model "$model" --nproc "$w" --bs "$b" --max-steps "$steps" >"$work/peer"
    t1=$(now)
    awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}' >>"$work/q_wall"
    sed 's/.*"samples_per_s": \([0-9.]*\).*/\1/' "$work/peer" >>"$work/q_sps"
    qloss=$(sed 's/.*"final_loss": \([0-9.]*\).*/\1/' "$work/peer")
  done
  ps=$(median <"$work/p_sps")
  qs=$(median <"$work/q_sps")
  pw=$(median <"$work/p_wall")
  qw=$(median <"$work/q_wall")
  printf '%-9s %12.0f %12.0f %7.2f %10.2f %10.2f %7.2f  %s / %.4f\n' "$setup" "$ps" "$qs" \
    "$(awk -v a="$ps" -v b="$qs" 'BEGIN {print a / b}')" "$pw" "$qw" "$(awk -v a="$pw" -v b="$qw" 'BEGIN {print a / b}')" "$ploss" "$qloss"
done
