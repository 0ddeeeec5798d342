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

# Cone complementarity vs the exact cone on the same sphere: ccp-pgs on
# Case 1 (delta_K = 0: it hops) and models/ccp_sphere_plane.yaml (started at
# the numerical gap mu dt v0, delta_K = 1 cm: it glides).
"$mcdyn" sim models/sphere_plane.yaml --solver ccp-pgs --out "$tmp/sphere-ccp-pgs.csv" --quiet >/dev/null
"$mcdyn" sim models/ccp_sphere_plane.yaml --out "$tmp/sphere-ccp-glide.csv" --quiet >/dev/null

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

set output '$out/sphere-ccp.png'
set terminal pngcairo size 1100,900 noenhanced
set key inside right top
set multiplot layout 3,1 title 'Sphere, Case 1: cone complementarity (ccp-pgs) vs the exact Coulomb cone (mncp-plm)'
set xrange [0:0.6]
set title 'height of the centre above its resting height'
set ylabel 'z - r [mm]'
plot '$tmp/sphere-mncp-plm.csv' using (column('t')):((column('ball.z')-1)*1000) every ::1 with lines lw 2 title 'mncp-plm', \
     '$tmp/sphere-ccp-pgs.csv' using (column('t')):((column('ball.z')-1)*1000) every ::1 with lines lw 2 title 'ccp-pgs, delta_K = 0', \
     '$tmp/sphere-ccp-glide.csv' using (column('t')):((column('ball.z')-1)*1000) every ::1 with lines lw 2 title 'ccp-pgs, delta_K = 1 cm, from mu dt v0'
set title 'normal velocity'
set ylabel 'v_z [m/s]'
plot '$tmp/sphere-mncp-plm.csv' using (column('t')):(column('ball.vz')) every ::1 with lines lw 2 title 'mncp-plm', \
     '$tmp/sphere-ccp-pgs.csv' using (column('t')):(column('ball.vz')) every ::1 with lines lw 2 title 'ccp-pgs, delta_K = 0', \
     '$tmp/sphere-ccp-glide.csv' using (column('t')):(column('ball.vz')) every ::1 with lines lw 2 title 'ccp-pgs, delta_K = 1 cm, from mu dt v0'
set title 'sliding velocity'
set ylabel 'v_x [m/s]'
plot '$tmp/sphere-mncp-plm.csv' using (column('t')):(column('ball.vx')) every ::1 with lines lw 2 title 'mncp-plm', \
     '$tmp/sphere-ccp-pgs.csv' using (column('t')):(column('ball.vx')) every ::1 with lines lw 2 title 'ccp-pgs, delta_K = 0', \
     '$tmp/sphere-ccp-glide.csv' using (column('t')):(column('ball.vx')) every ::1 with lines lw 2 title 'ccp-pgs, delta_K = 1 cm, from mu dt v0', \
     [0:0.6] vx(x) dt 2 lw 2 lc rgb 'black' title 'analytic (Coulomb)'
unset multiplot
GP
# Box on the ground (Peiret et al. 2017, Table 1): the non-singular friction
# LCP with Lemke and block pivoting at dt = 10 ms and 1 ms, and Lemke with
# the phantom inertia rho lowered from 1e-2 to 1e-4 kg (the same path).
for dt in 0.01 0.001; do
  for s in nslcp-lemke nslcp-judice; do
    "$mcdyn" sim models/box_ground.yaml --solver "$s" --dt "$dt" --out "$tmp/box-$s-$dt.csv" --quiet >/dev/null
  done
  sed 's/rho: 1e-2/rho: 1e-4/' models/box_ground.yaml > models/.box_ground-rho.yaml
  "$mcdyn" sim models/.box_ground-rho.yaml --dt "$dt" --out "$tmp/box-rho4-$dt.csv" --quiet >/dev/null
  rm -f models/.box_ground-rho.yaml
done
gnuplot <<GP
set datafile separator ','
set terminal pngcairo size 1100,800 noenhanced
set grid
set output '$out/box-ground.png'
set multiplot layout 2,2 title 'Box on the ground (Peiret et al. 2017, Table 1): non-singular friction LCP'
do for [dt in "0.01 0.001"] {
  set title 'centre of mass path, dt = '.dt.' s'
  set xlabel 'x [m]'; set ylabel 'y [m]'; set key bottom right
  plot '$tmp/box-nslcp-lemke-'.dt.'.csv' using (column('box.x')):(column('box.y')) every ::1 with lines lw 3 title 'nslcp-lemke, rho = 1e-2', \
       '$tmp/box-nslcp-judice-'.dt.'.csv' using (column('box.x')):(column('box.y')) every ::1 with lines lw 2 dt 2 title 'nslcp-judice, rho = 1e-2', \
       '$tmp/box-rho4-'.dt.'.csv' using (column('box.x')):(column('box.y')) every ::1 with lines lw 1 title 'nslcp-lemke, rho = 1e-4'
}
do for [dt in "0.01 0.001"] {
  set title 'speed and spin, dt = '.dt.' s'
  set xlabel 't [s]'; set ylabel 'm/s, rad/s'; set key top right
  plot '$tmp/box-nslcp-lemke-'.dt.'.csv' using (column('t')):(sqrt(column('box.vx')**2+column('box.vy')**2)) every ::1 with lines lw 2 title '|v|', \
       '$tmp/box-nslcp-lemke-'.dt.'.csv' using (column('t')):(column('box.wz')) every ::1 with lines lw 2 title 'w_z'
}
unset multiplot
GP

# Impact laws (docs/validation.md, "Impact laws"): the spinning sphere, the
# rocking block, the three-ball cradle and the pendulum's first 2 s, with
# each law.
laws=(newton maxdiss stronge)
"$mcdyn" sim models/impact_sphere_spin.yaml --out "$tmp/spin.csv" --quiet >/dev/null
for l in "${laws[@]}"; do
  "$mcdyn" sim models/rocking_block.yaml --impact-law "$l" --out "$tmp/rock-$l.csv" --quiet >/dev/null
  "$mcdyn" sim models/pendulum12.yaml --impact-law "$l" --duration 2 --out "$tmp/pimp-$l.csv" \
    --quiet >/dev/null
done
for f in cradle_3balls cradle_3balls_gap; do
  "$mcdyn" sim models/$f.yaml --out "$tmp/$f.csv" --quiet >/dev/null
done

gnuplot <<GP
set datafile separator ','
set terminal pngcairo size 1100,650 noenhanced
set grid
set key outside right
set xlabel 't [s]'

set output '$out/impact-sphere-spin.png'
set title 'Sphere with backspin dropped on a rough plane (stronge, mu 0.2, e 0.5); dashed: closed form'
set ylabel 'm/s, rad/s'
plot '$tmp/spin.csv' using (column('t')):(column('ball.vx')) every ::1 with lines lw 2 title 'v_x', \
     '$tmp/spin.csv' using (column('t')):(column('ball.vz')) every ::1 with lines lw 2 title 'v_z', \
     '$tmp/spin.csv' using (column('t')):(column('ball.wy')) every ::1 with lines lw 2 title 'w_y', \
     [0.017:0.1] 0.1 dt 2 lw 2 lc rgb 'black' title 'v_x+ = 0.1', \
     [0.017:0.1] 1.5 dt 3 lw 2 lc rgb 'black' title 'v_z+ = 1.5', \
     [0.017:0.1] -7.75 dt 4 lw 2 lc rgb 'black' title 'w_y+ = -7.75'

set output '$out/impact-rocking-block.png'
set title 'Rocking block (b/h = 0.2, e = 0, mu = 1): angular velocity, three impact laws'
set ylabel 'w_y [rad/s]'
plot for [l in "${laws[*]}"] '$tmp/rock-'.l.'.csv' using (column('t')):(column('block.wy')) every ::1 with lines lw 2 title l

set output '$out/impact-cradle.png'
set title "Three-ball Newton's cradle, stronge, e = 1: touching (solid) and 1 mm apart (dashed)"
set ylabel 'v_x [m/s]'
plot for [b in "a b c"] '$tmp/cradle_3balls.csv' using (column('t')):(column(b.'_ball.vx')) every ::1 with lines lw 2 title b.' touching', \
     for [b in "a b c"] '$tmp/cradle_3balls_gap.csv' using (column('t')):(column(b.'_ball.vx')) every ::1 with lines dt 2 lw 2 title b.' 1 mm apart'

set output '$out/impact-pendulum12.png'
set title 'Twelve-link pendulum (mu 0.5, e 0.7): height of the last link, three impact laws'
set ylabel 'z [m]'
plot for [l in "${laws[*]}"] '$tmp/pimp-'.l.'.csv' using (column('t')):(column('link12.z')) every ::1 with lines lw 2 title l
GP
echo "wrote $out/*.png"
