#!/usr/bin/env bash
# Installs the Debian packages mcdyn needs to build, test and plot, if any
# are missing, and three.js for the replay page (npm ci in tools/viewer,
# pinned by its package-lock.json). Needs root (or sudo) only when
# something must be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(
  build-essential pkg-config meson ninja-build   # toolchain
  liblapack-dev libxml2-dev libyaml-dev           # library dependencies
  libbullet-dev                                   # collision (bullet-float64)
  libassimp-dev                                   # collision mesh files (STL, OBJ, DAE, ...)
  libsuitesparse-dev                              # sparse Cholesky, QR and LU (CHOLMOD, SPQR, KLU)
  libhdf5-dev python3-h5py                        # trajectory log (src/io/log_h5.c), its reader
  python3-dev python3-cffi python3-numpy python3-pytest  # Python package (python/) and its tests
  check                                           # unit tests
  libmujoco-dev libsiconos-numerics-dev libfclib-dev  # test oracles and benchmark peers
  libopenmpi-dev openmpi-bin                      # `mcdyn sweep` across machines (meson option mpi)
  gnuplot-nox                                     # PNG plots
  clang-format                                    # format check (tests/format)
  clang libclang-rt-14-dev                        # libFuzzer targets (tools/fuzz.sh)
  chromium                                        # the replay page's browser test (tests/viewer)
)
# npm fetches three.js for the replay page (tools/viewer). Debian's npm
# conflicts with a nodejs that bundles its own npm: take Debian's only
# when there is no npm at all.
command -v npm >/dev/null || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
# three.js at the version of the lock file, unless it is there already.
lock_version=$(sed -n '/"node_modules\/three"/,/version/s/.*"version": "\(.*\)".*/\1/p' tools/viewer/package-lock.json)
have_version=$(sed -n 's/^  "version": "\(.*\)".*/\1/p' tools/viewer/node_modules/three/package.json 2>/dev/null || true)
if [ "$have_version" != "$lock_version" ]; then
  echo "fetching three.js $lock_version for the replay page: npm ci in tools/viewer" >&2
  npm ci --prefix tools/viewer --no-audit --no-fund >&2 ||
    echo "npm ci failed (offline?): mcdyn builds without three.js and \`mcdyn view\` says how to get it" >&2
fi
