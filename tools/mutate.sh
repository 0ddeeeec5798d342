#!/usr/bin/env bash
# Mutation campaign over the committed tree (tools/mutate.py explains;
# docs/testing.md records the latest result). Not part of CI: about an hour.
set -euo pipefail
cd "$(dirname "$0")/.."
exec /usr/bin/python3 tools/mutate.py "$@"
