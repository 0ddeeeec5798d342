#!/usr/bin/env bash
# Instructions per call of the dynamics benchmarks' calls, mcdyn's and its
# peers', by callgrind (independent of the machine's load): each call once
# to warm up, then N times counted (tools/bench_dynamics_count.c).
#   tools/count-dynamics.sh [BUILD_DIR [N]]    default build-test, 200
# Needs a build with Bullet's dynamics and MuJoCo (bench-dynamics-count).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-test}
n=${2:-200}
exe=$build/tools/bench-dynamics-count
[ -x "$exe" ] || { echo "count-dynamics.sh: $exe not built (needs Bullet and MuJoCo)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Instructions per call of one MODEL CALL pair, over CALLS calls (default N).
count() {
  local calls=${3:-$n} total
  valgrind --tool=callgrind --collect-atstart=no --toggle-collect=counted_calls \
    --callgrind-out-file="$out/cg" "$exe" "$1" "$2" "$calls" >/dev/null 2>"$out/log" ||
    { cat "$out/log" >&2; exit 1; }
  total=$(sed -n 's/^==[0-9]*== Collected : //p' "$out/log")
  echo $((total / calls))
}
printf '%-9s %-8s %12s %12s %8s\n' model call mcdyn peer ratio
row() { # MODEL CALL PEER_CALL
  local ours peer
  ours=$(count "$1" "$2")
  peer=$(count "$1" "$3")
  printf '%-9s %-8s %12d %12d %8.3f\n' "$1" "$2" "$ours" "$peer" \
    "$(echo "$ours / $peer" | bc -l)"
}
for chain in chain100 chain1000; do
  row $chain fwd bullet-fwd
  printf '%-9s %-8s %12d\n' $chain inv "$(count $chain inv)"
  # M(q) of a chain is O(N^2): 36 million instructions at N = 1000, so
  # fewer calls there (the count per call is as steady).
  calls=$n
  [ $chain = chain1000 ] && calls=$(((n + 9) / 10))
  printf '%-9s %-8s %12d\n' $chain M "$(count $chain M $calls)"
done
for robot in panda a1; do
  for call in fwd inv M; do row $robot $call mujoco-$call; done
done
row a1 lambda8 mujoco-lambda8
