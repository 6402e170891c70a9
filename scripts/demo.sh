#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, then run the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh --no-system-packages >/dev/null
pnpm -s demo
