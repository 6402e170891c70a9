#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, then run the demo.
# The set-up is quiet when it works and shown in full when it does not.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${KUBEIMG_USER_PREFIX:-$HOME/.local}/bin:$PATH"
log=$(mktemp)
if ! bash scripts/bootstrap.sh --no-system-packages >"$log" 2>&1; then
  cat "$log" >&2
  rm -f "$log"
  echo "demo: the set-up failed (its output is above)" >&2
  exit 1
fi
rm -f "$log"
pnpm -s demo
