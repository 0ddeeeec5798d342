#!/usr/bin/env bash
# Builds mcdyn and runs the main job: the twelve-link pendulum of Mylapilli &
# Jain (2017, Sec. 6.2) falling onto the floor and into a wall for 20 s with
# frictional contact (MNCP, exact Coulomb cone) and Newton's restitution as
# in the paper (which creates energy at some impacts, Kane's paradox: the
# summary's energy line shows the change), writing the trajectory to
# out/pendulum12.csv, a plot of the last link's height to
# out/pendulum12.png and a 3D replay to out/pendulum12.html (open it in a
# browser; docs/outputs.md, "The replay page").
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
[ -d build ] || meson setup build -Dbuildtype=release >/dev/null
ninja -C build >/dev/null
mkdir -p out
build/tools/mcdyn sim models/pendulum12.yaml --out out/pendulum12.csv --plot out/pendulum12.png \
  --html out/pendulum12.html
