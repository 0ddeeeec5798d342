#!/usr/bin/env bash
# Installs the Debian packages mcdyn needs to build, test and plot, if any
# are missing. Needs root (or sudo) only when something must be installed.
set -euo pipefail
packages=(
  build-essential pkg-config meson ninja-build   # toolchain
  liblapack-dev libxml2-dev libyaml-dev           # library dependencies
  libbullet-dev                                   # collision (bullet-float64)
  libassimp-dev                                   # collision mesh files (STL, OBJ, DAE, ...)
  libsuitesparse-dev                              # sparse Cholesky and QR (CHOLMOD, SPQR)
  libhdf5-dev python3-h5py                        # trajectory log (src/io/log_h5.c), its reader
  python3-dev python3-cffi python3-numpy python3-pytest  # Python package (python/) and its tests
  check                                           # unit tests
  libmujoco-dev libsiconos-numerics-dev libfclib-dev  # test oracles and benchmark peers
  libopenmpi-dev openmpi-bin                      # `mcdyn sweep` across machines (meson option mpi)
  gnuplot-nox                                     # PNG plots
  clang-format                                    # format check (tests/format)
  clang libclang-rt-14-dev                        # libFuzzer targets (tools/fuzz.sh)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
