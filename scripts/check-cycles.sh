#!/usr/bin/env bash
# Fails on any import cycle: between the top-level modules of a crate, or between the files of one
# directory module (scripts/modcycles.py reads `crate::…` and `super::…` paths; tests left out).
# Checks the product (src) and every crate of the workspace (crates/*/src).
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for dir in src crates/*/src; do
  if ! out=$(python3 scripts/modcycles.py "$dir"); then
    echo "import cycles in $dir:" >&2
    printf '%s\n' "$out" | sed 's/^/  /' >&2
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "no import cycles in src or crates/*/src"
exit "$status"
