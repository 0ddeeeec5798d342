#!/usr/bin/env bash
# docs/tutorial.md, "A standing quadruped": the build is installed into a
# temporary DESTDIR (the page's `meson install`, staged), then the commands
# between the page's "tutorial-quadruped" markers run verbatim, in order, in
# an empty directory, with MCDYN set to this checkout (the page's MCDYN=
# line is replaced), the staged `mcdyn` first on PATH and pkg-config
# pointed at the staged install. Checks that the YAML shown between the
# "tutorial-quadruped-yaml" markers is models/a1_stand.yaml without its
# comment lines, that the query printed the A1's 12 joints, that `mcdyn sim`
# ran without a solver failure and wrote its CSV and plot, that the height
# printed by the page's awk is steady within 1 cm (the figure the page
# quotes), and that the C program passed its own check.
#
#   test_tutorial_quadruped.sh BUILD_DIR SOURCE_DIR EXTRA_CFLAGS MESON
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 BUILD_DIR SOURCE_DIR EXTRA_CFLAGS MESON" >&2; exit 2; }
build_dir=$1 source_dir=$2 extra_cflags=$3 meson=$4
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcdyn-tutorial-quadruped.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$meson" install -C "$build_dir" --destdir "$tmp/root" --no-rebuild --quiet >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log" >&2; fail "meson install --destdir failed"; }
pc=$(find "$tmp/root" -name mcdyn.pc -path '*/pkgconfig/*' | head -n 1)
lib=$(find "$tmp/root" -name 'libmcdyn.so*' | head -n 1)
exe=$(find "$tmp/root" -name mcdyn -path '*/bin/*' -type f | head -n 1)
[ -n "$pc" ] && [ -n "$lib" ] && [ -n "$exe" ] || fail "mcdyn.pc, libmcdyn.so or bin/mcdyn not installed"
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$tmp/root"
export LD_LIBRARY_PATH="$(dirname "$lib")" PATH="$(dirname "$exe"):$PATH"
export CFLAGS="$extra_cflags"

page="$source_dir/docs/tutorial.md"
sed -n '/<!-- tutorial-quadruped-yaml: begin -->/,/<!-- tutorial-quadruped-yaml: end -->/p' "$page" |
  grep -v -e '^<!--' -e '^```' >"$tmp/page.yaml"
grep -v -e '^[[:space:]]*#' "$source_dir/models/a1_stand.yaml" >"$tmp/file.yaml"
diff -u "$tmp/file.yaml" "$tmp/page.yaml" || fail "the page's YAML is not models/a1_stand.yaml"

sed -n '/<!-- tutorial-quadruped: begin -->/,/<!-- tutorial-quadruped: end -->/p' "$page" |
  grep -v -e '^<!--' -e '^```' >"$tmp/commands.sh"
grep -q '^MCDYN=' "$tmp/commands.sh" || fail "no MCDYN= line between the markers of $page"
sed -i "s|^MCDYN=.*|MCDYN='$source_dir'|" "$tmp/commands.sh"
echo "running:" && cat "$tmp/commands.sh"
mkdir "$tmp/work"
(cd "$tmp/work" && bash -euo pipefail "$tmp/commands.sh") >"$tmp/run.log" 2>&1 ||
  { cat "$tmp/run.log" >&2; fail "the tutorial's commands failed"; }
cat "$tmp/run.log"
grep -q '"joint_names":\["base","FR_hip_joint".*"RL_calf_joint"\]' "$tmp/run.log" ||
  fail "the query did not list the A1's joints"
grep -q '^solver failures *0$' "$tmp/run.log" || fail "mcdyn sim reported solver failures"
[ -s "$tmp/work/a1_stand.csv" ] && [ -s "$tmp/work/a1_stand.png" ] || fail "no CSV or plot written"
read -r lo hi < <(sed -n 's/^trunk height over the last second: \([0-9.]*\) \.\. \([0-9.]*\) m$/\1 \2/p' "$tmp/run.log")
[ -n "${lo:-}" ] || fail "the awk line printed no height"
awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(hi - lo < 0.01 && lo > 0.2) }' ||
  fail "the YAML run's trunk height $lo .. $hi m is not steady within 1 cm above 0.2 m"
grep -q '^a1_stand: trunk height over the last second' "$tmp/run.log" || fail "a1_stand printed no height"
echo "PASS"
