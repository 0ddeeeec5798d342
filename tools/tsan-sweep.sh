#!/usr/bin/env bash
# ThreadSanitizer over `mcdyn sweep` on two threads (docs/scale-out.md,
# "Thread safety"): builds tools/mcdyn in build-tsan/ (-Db_sanitize=thread:
# the library, its C++ collision file and the tool instrumented; Bullet,
# OpenBLAS, HDF5, libxml2, libyaml and OpenMPI are Debian's, not) and runs
#   - the A1 landing (contacts, LAPACK) with HDF5 trajectories, --jobs 2;
#   - the ball grid with an HDF5 summary and CSV trajectories, --jobs 2;
#   - a sweep with a failing case, --jobs 2;
#   - under mpirun (when built with MPI) the ball grid on 2 ranks of 2
#     threads each (the other ranks' chunk inbox).
# Any report fails it (exit 1); the reports are kept in build-tsan/tsan/.
# Third-party reports are suppressed by tools/tsan.supp, which says why.
# Not in the test suite: the build takes minutes and the runs are ~10x
# slower than release.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dir=build-tsan
if [ ! -d "$dir" ]; then
  meson setup "$dir" -Dbuildtype=debugoptimized -Db_sanitize=thread >/dev/null
fi
ninja -C "$dir" -j2 tools/mcdyn
exe=$root/$dir/tools/mcdyn
logs=$root/$dir/tsan
rm -rf "$logs"
mkdir -p "$logs"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export OPENBLAS_NUM_THREADS=1
export TSAN_OPTIONS="suppressions=$root/tools/tsan.supp:halt_on_error=0:second_deadlock_stack=1:log_path=$logs/report:print_suppressions=0:exitcode=0"
data=$root/tests/sweep/data
# The ball grid again, writing CSV trajectories (atomic_file, the file lock).
cat > ball_traj.yaml <<YAML
scenario: $root/models/sphere_plane.yaml
set: {duration: 0.1}
grid:
  contact.mu: [0.1, 0.3, 0.5]
  robots[0].qd.ball[0]: [1, 2]
record: {columns: [ball.x], trajectories: traj_ball}
YAML
run() {
  echo "== mcdyn sweep $*"
  "$exe" sweep "$@" >/dev/null
}
run "$data/threads_a1.yaml" --out a1.csv --jobs 2
run "$data/grid.yaml" --out ball.csv --h5 ball.h5 --jobs 2
run ball_traj.yaml --out ball_traj.csv --jobs 2
run "$data/failing.yaml" --out failing.csv --jobs 2
if command -v mpirun >/dev/null && grep -q MCDYN_HAVE_MPI "$root/$dir/compile_commands.json"; then
  echo "== mpirun -n 2 mcdyn sweep grid.yaml --jobs 2"
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    mpirun -n 2 --oversubscribe --bind-to none -x TSAN_OPTIONS -x OPENBLAS_NUM_THREADS \
    "$exe" sweep "$data/grid.yaml" --out ball_mpi.csv --jobs 2 >/dev/null
fi
reports=$(cat "$logs"/report.* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer' || true)
echo "$reports ThreadSanitizer reports (in $logs)"
[ "$reports" -eq 0 ]
