#!/usr/bin/env bash
# Every C/C++ source and header follows the committed .clang-format.
#   check_format.sh SOURCE_ROOT CLANG_FORMAT
set -euo pipefail
root=$1
clang_format=$2
cd "$root"
bad=0
while IFS= read -r -d '' f; do
  if ! "$clang_format" --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "not formatted: $f (run: clang-format -i $f)"
    bad=$((bad + 1))
  fi
done < <(find include src tools tests -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) -print0)
echo "$bad file(s) not formatted"
[ "$bad" -eq 0 ]
