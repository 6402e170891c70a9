#!/usr/bin/env bash
# The full test suite on a fresh machine: install what is missing, then run
# every check. `.ci/run` calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/verify.sh
