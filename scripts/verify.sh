#!/usr/bin/env bash
# Every check the project has, in the order a failure is cheapest to find:
# types, lint, the packed packages (and the consumer check on them), the API
# docs (warnings are errors), the demo as a non-root user (when root), then
# the test suite (which runs every conformance suite that has a handler).
# Ends with one summary line.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm -s typecheck
pnpm -s lint
pnpm -s check:packages
pnpm -s docs --logLevel Warn
# The README's demo command as an unprivileged user without pnpm (needs root to switch users).
if [ "$(id -u)" -eq 0 ]; then
  bash scripts/check-nonroot-setup.sh
fi

results=.vitest-results.json
rm -f "$results"
status=0
pnpm -s exec vitest run --reporter=default --reporter=json --outputFile.json="$results" || status=$?
if [ -f "$results" ]; then
  node scripts/test-summary.mjs "$results"
fi
exit "$status"
