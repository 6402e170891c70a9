#!/usr/bin/env bash
# The full test suite on a fresh machine: install what is missing, then run
# every check. `.ci/run` calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${KUBEIMG_USER_PREFIX:-$HOME/.local}/bin:$PATH"
bash scripts/bootstrap.sh
bash scripts/verify.sh
