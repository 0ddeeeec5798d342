#!/bin/sh
# A test whose optional dependency is missing: says why and exits 77, which
# meson counts as SKIP, so the summary shows it instead of dropping it.
echo "SKIP: $*"
exit 77
