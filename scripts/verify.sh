#!/usr/bin/env bash
# Every check the project has, in the order a failure is cheapest to find:
# types, lint, the packed packages, the API docs (warnings are errors), then
# the test suite (which runs every conformance suite that has a handler).
# Ends with one summary line.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm -s typecheck
pnpm -s lint
pnpm -s check:packages
pnpm -s docs --logLevel Warn

results=.vitest-results.json
rm -f "$results"
status=0
pnpm -s exec vitest run --reporter=default --reporter=json --outputFile.json="$results" || status=$?
if [ -f "$results" ]; then
  node scripts/test-summary.mjs "$results"
fi
exit "$status"
