#!/usr/bin/env bash
# The sweep benchmark of docs/performance.md, "Sweeps": runs a sweep with
# --jobs 1, --jobs 2, under mpirun -n 1 and under mpirun -n 2, ROUNDS
# times, and prints for each run its wall seconds, the CPU seconds (user +
# sys) of every mcdyn process (each rank through /usr/bin/time) and of the
# whole command (mpirun and its ranks), the "running" line of mcdyn sweep
# (from the first case started to the last row in: the throughput without
# the job's start-up), the sum of the summary's cpu column (the CPU seconds
# of the cases themselves, on whichever thread or rank: what two workers
# cost against one, apart from the machine's load and the waits) and the
# load average before it.
#   tools/sweep_bench.sh [MCDYN [SWEEP [ROUNDS]]]
# defaults: build-test/tools/mcdyn, models/sweep_a1_bench.yaml, 2 rounds.
# MPIRUN_ARGS adds mpirun options (e.g. "--mca pml ob1 --mca btl self,vader"),
# SWEEP_ARGS options of mcdyn sweep (e.g. "--costs EARLIER.csv", an
# absolute path: the runs are in a temporary directory).
set -euo pipefail
cd "$(dirname "$0")/.."
exe=$(realpath "${1:-build-test/tools/mcdyn}")
sweep=$(realpath "${2:-models/sweep_a1_bench.yaml}")
rounds=${3:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Each process's CPU into cpu.RANK (cpu.0 without MPI).
cat > timed.sh <<'SH'
#!/bin/sh
exec /usr/bin/time -o "cpu.${OMPI_COMM_WORLD_RANK:-0}" -f "%e %U %S" "$@"
SH
chmod +x timed.sh
read -r -a mpirun_args <<< "${MPIRUN_ARGS:-}"
read -r -a sweep_args <<< "${SWEEP_ARGS:-}"
bench() {
  local name=$1
  shift
  rm -f cpu.*
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -o cpu.all -f "%e %U %S" "$@" > out.txt
  local ranks="" r
  for r in cpu.[0-9]*; do
    ranks+=$(awk '{printf " %.2f", $2 + $3}' "$r")
  done
  local cases
  cases=$(awk -F, 'NR > 2 { s += $NF } END { printf "%.2f", s }' b.csv)
  awk -v n="$name" -v l="$load" -v ranks="$ranks" -v cases="$cases" \
    -v run="$(grep '^running' out.txt | cut -c19-)" \
    '{printf "%-16s wall %6.2f  cpu all %6.2f  cpu per process%s  cases cpu %s  load %s  running %s\n", n, $1, $2 + $3, ranks, cases, l, run}' cpu.all
}
echo "# $(basename "$sweep"), $exe, $(nproc) cores"
for ((k = 1; k <= rounds; k++)); do
  bench "jobs 1" ./timed.sh "$exe" sweep "$sweep" --out b.csv --jobs 1 "${sweep_args[@]}"
  bench "jobs 2" ./timed.sh "$exe" sweep "$sweep" --out b.csv --jobs 2 "${sweep_args[@]}"
  bench "mpirun -n 1" mpirun -n 1 "${mpirun_args[@]}" ./timed.sh "$exe" sweep "$sweep" --out b.csv "${sweep_args[@]}"
  bench "mpirun -n 2" mpirun -n 2 --oversubscribe "${mpirun_args[@]}" ./timed.sh "$exe" sweep "$sweep" --out b.csv "${sweep_args[@]}"
done
