#!/usr/bin/env bash
# The replay screenshots of docs/outputs.md: the pendulum (models/pendulum12.yaml
# at t = 1.2 s, its first floor contacts), the A1 quadruped dropped upright
# (models/a1_drop_upright.yaml at t = 0.6 s), the box tower
# (models/box_tower.yaml at t = 0.5 s) and the L-shaped plate with its
# non-convex visual mesh (models/l_block.yaml at rest, t = 1.5 s), each
# simulated with --html and shot
# by Debian's headless Chromium at the page's #t= moment.
#   tools/viewer/screenshots.sh [BUILD_DIR]     (default build/)
set -euo pipefail
export OPENBLAS_NUM_THREADS=1 # spinning BLAS threads slow the box tower badly on a busy machine
cd "$(dirname "$0")/../.."
exe="${1:-build}/tools/mcdyn"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# scene:moment:simulated seconds
for shot in pendulum12:1.2:2 a1_drop_upright:0.6:1 box_tower:0.5:1 l_block:1.5:1.5; do
  IFS=: read -r scene t duration <<<"$shot"
  (cd "$dir" && "$OLDPWD/$exe" sim "$OLDPWD/models/$scene.yaml" --duration "$duration" --quiet \
    --html "$dir/$scene.html" >/dev/null)
  chromium --headless --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader \
    --window-size=960,600 --virtual-time-budget=8000 --user-data-dir="$dir/profile" \
    --screenshot="docs/replay-$scene.png" "file://$dir/$scene.html#t=$t" 2>/dev/null
  echo "docs/replay-$scene.png"
done
