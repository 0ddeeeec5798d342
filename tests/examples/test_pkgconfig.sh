#!/usr/bin/env bash
# The installed mcdyn as a user sees it: installs the build into a temporary
# DESTDIR, runs the installed `mcdyn` command from there (a prefix the
# dynamic loader does not know: it must find libmcdyn by its rpath), checks
# mcdyn.pc and the installed headers, then compiles
# tools/examples/double_pendulum.c with `pkg-config --cflags --libs mcdyn`
# only and runs it against the installed shared library.
#
#   test_pkgconfig.sh BUILD_DIR SOURCE_DIR CC EXTRA_CFLAGS VERSION MESON PKG_CONFIG
#
# EXTRA_CFLAGS carries the sanitizer flags of a sanitizer build (empty
# otherwise). Exits 0 on success, 1 with a message on the first failure.
set -euo pipefail

if [ $# -ne 7 ]; then
  echo "usage: $0 BUILD_DIR SOURCE_DIR CC EXTRA_CFLAGS VERSION MESON PKG_CONFIG" >&2
  exit 2
fi
build_dir=$1 source_dir=$2 cc=$3 extra_cflags=$4 version=$5 meson=$6 pkg_config=$7

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcdyn-pkgconfig.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# 1. install the current build (no rebuild: meson test has just built it)
"$meson" install -C "$build_dir" --destdir "$tmp/root" --no-rebuild --quiet >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log" >&2; fail "meson install --destdir failed"; }

pc=$(find "$tmp/root" -name mcdyn.pc -path '*/pkgconfig/*' | head -n 1)
[ -n "$pc" ] || fail "no pkgconfig/mcdyn.pc installed"
lib=$(find "$tmp/root" -name 'libmcdyn.so*' | head -n 1)
[ -n "$lib" ] || fail "no libmcdyn.so installed"
echo "installed: ${pc#"$tmp/root"}, ${lib#"$tmp/root"}"

# 1b. the installed command, run without LD_LIBRARY_PATH (the test
#     environment points it at the build directory): it must load the
#     installed libmcdyn through its rpath
exe=$(find "$tmp/root" -name mcdyn -type f -perm -u+x | head -n 1)
[ -n "$exe" ] || fail "no mcdyn command installed"
loaded=$(env -u LD_LIBRARY_PATH ldd "$exe" | awk '/libmcdyn/ {print $3}')
if [ -z "$loaded" ] || [ "$(readlink -f "$loaded")" != "$(readlink -f "$lib")" ]; then
  fail "the installed ${exe#"$tmp/root"} loads '$loaded', not the installed ${lib#"$tmp/root"}"
fi
env -u LD_LIBRARY_PATH "$exe" --help >"$tmp/help.log" 2>&1 ||
  { cat "$tmp/help.log" >&2; fail "the installed mcdyn --help failed"; }
env -u LD_LIBRARY_PATH "$exe" query "$source_dir/models/arm3.urdf" >"$tmp/query.json" 2>&1 ||
  { cat "$tmp/query.json" >&2; fail "the installed mcdyn query failed"; }
grep -q '"nq":3' "$tmp/query.json" || { cat "$tmp/query.json" >&2; fail "unexpected query output"; }
echo "installed command: ${exe#"$tmp/root"} runs (--help, query)"

# 2. pkg-config against the staged tree: PKG_CONFIG_SYSROOT_DIR prefixes the
#    -I and -L paths of mcdyn.pc with the DESTDIR
pc_dir=$(dirname "$pc")
export PKG_CONFIG_PATH="$pc_dir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_SYSROOT_DIR="$tmp/root"
pc_version=$("$pkg_config" --modversion mcdyn) || fail "pkg-config cannot read mcdyn.pc"
[ "$pc_version" = "$version" ] || fail "mcdyn.pc version '$pc_version', project version '$version'"
cflags=$("$pkg_config" --cflags mcdyn)
libs=$("$pkg_config" --libs mcdyn)
static_libs=$("$pkg_config" --libs --static mcdyn)
echo "pkg-config --cflags: $cflags"
echo "pkg-config --libs: $libs"
echo "pkg-config --libs --static: $static_libs"

# Libs: the library, and libm (the inline functions of spatial.h call sqrt,
# sin, cos, atan2 from the user's own object files)
[[ " $libs " == *" -lmcdyn "* ]] || fail "pkg-config --libs lacks -lmcdyn: $libs"
[[ " $libs " == *" -lm "* ]] ||
  fail "pkg-config --libs lacks -lm (spatial.h's inline functions call libm from user code): $libs"
# Libs.private / Requires.private: what a static link needs
for want in -lmcdyn -lm -llapack -lxml2; do
  [[ " $static_libs " == *" $want "* ]] || fail "pkg-config --libs --static lacks $want: $static_libs"
done

# 3. every public header is installed and compiles on its own
incdir=$("$pkg_config" --variable=includedir mcdyn)
incdir="$tmp/root${incdir#"$tmp/root"}" # some pkg-config versions do not apply the sysroot here
headers=("$source_dir"/include/mcdyn/*.h)
for h in "${headers[@]}"; do
  h=$(basename "$h")
  [ -f "$incdir/mcdyn/$h" ] || fail "include/mcdyn/$h is not installed (looked in $incdir/mcdyn)"
  printf '#include <mcdyn/%s>\nint main(void) { return 0; }\n' "$h" >"$tmp/header.c"
  # shellcheck disable=SC2086 # cc and the flags are word lists
  $cc -std=c11 -Wall -Wextra -pedantic -Werror $cflags -c "$tmp/header.c" -o "$tmp/header.o" ||
    fail "the installed mcdyn/$h does not compile on its own"
done
echo "headers: ${#headers[@]} installed and self-contained"

# 4. the example, compiled with pkg-config's flags only, run against the
#    installed library
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Wextra -Werror -O2 $extra_cflags "$source_dir/tools/examples/double_pendulum.c" \
  $cflags $libs -o "$tmp/double_pendulum" ||
  fail "cc double_pendulum.c \$(pkg-config --cflags --libs mcdyn) failed"
# the program must load the installed libmcdyn, not the one in the build dir
lib_dir=$(dirname "$lib")
export LD_LIBRARY_PATH="$lib_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
loaded=$(ldd "$tmp/double_pendulum" | awk '/libmcdyn/ {print $3}')
if [ -z "$loaded" ] || [ "$(readlink -f "$loaded")" != "$(readlink -f "$lib")" ]; then
  fail "the program loads '$loaded', not the installed ${lib#"$tmp/root"}"
fi
"$tmp/double_pendulum" >"$tmp/run.log" 2>&1 ||
  { cat "$tmp/run.log" >&2; fail "the pkg-config-built double_pendulum failed"; }
grep -q '^all checks passed$' "$tmp/run.log" || { cat "$tmp/run.log" >&2; fail "unexpected output"; }
tail -n 3 "$tmp/run.log"
echo "PASS"
