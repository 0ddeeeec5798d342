#!/usr/bin/env bash
# Regenerates the plots of docs/validation.md from the bundled scenarios:
#   tools/validation-plots.sh [BUILD_DIR]      (default: build)
# Writes docs/validation/*.png. Needs gnuplot (tools/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
mcdyn="$build/tools/mcdyn"
out=docs/validation
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
solvers=(mlcp-pfb-rlm mlcp-pfb-plm mlcp-lemke mncp-rlm mncp-plm)

# Sphere on a plane, Case 1 (Sec. 6.1): every solver, with the analytic
# solution v0 = 2, mu = 0.2, g = 9.81, r = 1, m = 1.
for s in "${solvers[@]}"; do
  "$mcdyn" sim models/sphere_plane.yaml --solver "$s" --out "$tmp/sphere-$s.csv" --quiet >/dev/null
done
# Case 2 (directions at 45 and 30 degrees) with mlcp-lemke.
"$mcdyn" sim models/sphere_plane_case2.yaml --out "$tmp/case2-45.csv" --quiet >/dev/null
sed 's/direction_angle: 0.7853981633974483/direction_angle: 0.5235987755982988/' \
  models/sphere_plane_case2.yaml > models/.case2-30.yaml
"$mcdyn" sim models/.case2-30.yaml --out "$tmp/case2-30.csv" --quiet >/dev/null
rm -f models/.case2-30.yaml

# Pendulum12 (Sec. 6.2): the last link's height with every solver, 20 s.
for s in "${solvers[@]}"; do
  "$mcdyn" sim models/pendulum12.yaml --solver "$s" --out "$tmp/pend-$s.csv" --quiet >/dev/null
done

gnuplot <<GP
set datafile separator ','
set terminal pngcairo size 1100,650 noenhanced
set grid
set key outside right
v0 = 2.0; mu = 0.2; g = 9.81; tsr = 2*v0/(7*mu*g)
vx(t) = t < tsr ? v0 - mu*g*t : 5*v0/7
wy(t) = t < tsr ? 2.5*mu*g*t : 5*v0/7
ff(t) = t < tsr ? -mu*g : 0

set output '$out/sphere-velocities.png'
set title 'Sphere on a plane, Case 1: velocities (lines: 5 solvers; dashed: analytic)'
set xlabel 't [s]'; set ylabel 'm/s, rad/s'
plot for [s in "${solvers[*]}"] '$tmp/sphere-'.s.'.csv' using (column('t')):(column('ball.vx')) every ::1 with lines lw 2 title s.' v_x', \
     for [s in "${solvers[*]}"] '$tmp/sphere-'.s.'.csv' using (column('t')):(column('ball.wy')) every ::1 with lines lw 2 title s.' w_y', \
     '$tmp/sphere-mncp-plm.csv' using (column('t')):(column('ball.vy')) every ::1 with lines lw 2 title 'mncp-plm v_y', \
     '$tmp/sphere-mncp-plm.csv' using (column('t')):(column('ball.wx')) every ::1 with lines lw 2 title 'mncp-plm w_x', \
     [0:0.6] vx(x) dt 2 lw 2 lc rgb 'black' title 'analytic v_x', \
     [0:0.6] wy(x) dt 3 lw 2 lc rgb 'black' title 'analytic w_y'

set output '$out/sphere-forces.png'
set title 'Sphere on a plane, Case 1: contact forces in the contact frame (5 solvers; dashed: analytic)'
set ylabel 'N'
plot for [s in "${solvers[*]}"] '$tmp/sphere-'.s.'.csv' using (column('t')):(column('c0.Ff')) every ::1 with lines lw 2 title s.' F_f', \
     for [s in "${solvers[*]}"] '$tmp/sphere-'.s.'.csv' using (column('t')):(column('c0.Fo')) every ::1 with lines lw 2 title s.' F_o', \
     '$tmp/sphere-mncp-plm.csv' using (column('t')):(column('c0.Fn')*mu) every ::1 with lines lw 2 title 'mu F_n', \
     [0:0.6] ff(x) dt 2 lw 2 lc rgb 'black' title 'analytic F_f'

set output '$out/sphere-case2.png'
set title 'Sphere, Case 2 (mlcp-lemke): friction directions rotated from -v_t'
set ylabel 'm/s, rad/s'
plot '$tmp/case2-45.csv' using (column('t')):(column('ball.vx')) every ::1 with lines lw 2 title '45 deg v_x', \
     '$tmp/case2-45.csv' using (column('t')):(column('ball.vy')) every ::1 with lines lw 2 title '45 deg v_y', \
     '$tmp/case2-30.csv' using (column('t')):(column('ball.vx')) every ::1 with lines lw 2 title '30 deg v_x', \
     '$tmp/case2-30.csv' using (column('t')):(column('ball.vy')) every ::1 with lines lw 2 title '30 deg v_y', \
     '$tmp/case2-30.csv' using (column('t')):(column('ball.wx')) every ::1 with lines lw 2 title '30 deg w_x', \
     [0:0.6] vx(x) dt 2 lw 2 lc rgb 'black' title 'analytic v_x (aligned)'

set output '$out/pendulum12-height.png'
set title 'Twelve-link pendulum: height of the last link (5 solvers)'
set ylabel 'z [m]'
plot for [s in "${solvers[*]}"] '$tmp/pend-'.s.'.csv' using (column('t')):(column('link12.z')) every ::1 with lines lw 1.5 title s

set output '$out/pendulum12-height-2s.png'
set title 'Twelve-link pendulum: the first 2 s'
set xrange [0:2]
replot
GP
echo "wrote $out/*.png"
