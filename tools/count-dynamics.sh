#!/usr/bin/env bash
# Instructions per call of the dynamics benchmarks' calls, mcdyn's and its
# peers', by callgrind (independent of the machine's load): each call once
# to warm up, then N times counted (tools/bench_dynamics_count.c).
#   tools/count-dynamics.sh [BUILD_DIR [N]]    default build-test, 200
# With --cache first, instead: the data cache misses per forward-dynamics
# call of the chain at N = 100 and N = 1000 (cachegrind, simulating a
# 32 KB L1 and, as its last level, the EPYC's 512 KB L2 per core), each
# the difference of a run of 3N calls and one of N, so the set-up and the
# warm-up cancel. 64 bytes per miss over the N bodies is the traffic per
# body per call.
# Needs a build with Bullet's dynamics and MuJoCo (bench-dynamics-count).
set -euo pipefail
cd "$(dirname "$0")/.."
cache=0
[ "${1:-}" = --cache ] && { cache=1; shift; }
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
# Data references, L1 misses and L2 (512 KB) misses of CALLS calls of MODEL fwd.
cache_counts() {
  valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=524288,8,64 \
    --cachegrind-out-file=/dev/null "$exe" "$1" fwd "$2" 2>&1 >/dev/null |
    awk '/D   refs/ {r = $4} /D1  misses/ {d = $4} /LLd misses/ {l = $4}
         END {gsub(",", "", r); gsub(",", "", d); gsub(",", "", l); print r, d, l}'
}
if [ $cache = 1 ]; then
  printf '%-9s %12s %12s %12s %14s\n' model refs L1-misses L2-misses L2-bytes/body
  for bodies in 100 1000; do
    read -r r1 d1 l1 < <(cache_counts chain$bodies "$n")
    read -r r3 d3 l3 < <(cache_counts chain$bodies $((3 * n)))
    per() { echo $((($2 - $1) / (2 * n))); }
    printf '%-9s %12d %12d %12d %14d\n' chain$bodies "$(per "$r1" "$r3")" "$(per "$d1" "$d3")" \
      "$(per "$l1" "$l3")" $(($(per "$l1" "$l3") * 64 / bodies))
  done
  exit 0
fi
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
