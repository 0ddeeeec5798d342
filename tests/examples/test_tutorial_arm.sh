#!/usr/bin/env bash
# docs/tutorial.md, "A tracking arm in C": the build is installed into a
# temporary DESTDIR (the page's `meson install`, staged), then the commands
# between the page's "tutorial-arm" markers run verbatim in an empty
# directory, with MCDYN set to this checkout (the page's MCDYN= line is
# replaced) and pkg-config pointed at the staged install. Checks that the
# example passed its own assertions and that the picture was written.
#
#   test_tutorial_arm.sh BUILD_DIR SOURCE_DIR EXTRA_CFLAGS MESON
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 BUILD_DIR SOURCE_DIR EXTRA_CFLAGS MESON" >&2; exit 2; }
build_dir=$1 source_dir=$2 extra_cflags=$3 meson=$4
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcdyn-tutorial.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$meson" install -C "$build_dir" --destdir "$tmp/root" --no-rebuild --quiet >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log" >&2; fail "meson install --destdir failed"; }
pc=$(find "$tmp/root" -name mcdyn.pc -path '*/pkgconfig/*' | head -n 1)
lib=$(find "$tmp/root" -name 'libmcdyn.so*' | head -n 1)
[ -n "$pc" ] && [ -n "$lib" ] || fail "mcdyn.pc or libmcdyn.so not installed"
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$tmp/root"
export LD_LIBRARY_PATH="$(dirname "$lib")"
export CFLAGS="$extra_cflags"

page="$source_dir/docs/tutorial.md"
sed -n '/<!-- tutorial-arm: begin -->/,/<!-- tutorial-arm: end -->/p' "$page" |
  grep -v -e '^<!--' -e '^```' >"$tmp/commands.sh"
grep -q '^MCDYN=' "$tmp/commands.sh" || fail "no MCDYN= line between the markers of $page"
sed -i "s|^MCDYN=.*|MCDYN='$source_dir'|" "$tmp/commands.sh"
echo "running:" && cat "$tmp/commands.sh"
mkdir "$tmp/work"
(cd "$tmp/work" && bash -euo pipefail "$tmp/commands.sh") >"$tmp/run.log" 2>&1 ||
  { cat "$tmp/run.log" >&2; fail "the tutorial's commands failed"; }
cat "$tmp/run.log"
grep -q '^position error: RMS' "$tmp/run.log" || fail "panda_osc printed no error line"
[ -s "$tmp/work/panda_osc.png" ] || fail "no panda_osc.png written"
echo "PASS"
