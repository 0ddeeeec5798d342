#!/usr/bin/env bash
# Builds mcdyn and runs the main job: `mcdyn query` on the bundled 3-link
# arm, printing its mass matrix, bias forces and forward dynamics as JSON.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
[ -d build ] || meson setup build -Dbuildtype=release >/dev/null
ninja -C build >/dev/null
build/tools/mcdyn query models/arm3.urdf --q 0.3,-0.6,0.9 --qd 0.1,0.2,-0.3
