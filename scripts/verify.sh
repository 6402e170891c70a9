#!/usr/bin/env bash
# Every check the project has, in the order a failure is cheapest to find:
# types, lint, the packed packages (and the consumer check on them), the API
# report (every change to the public surface is reviewed), the API docs
# (warnings are errors), the demo as a non-root user (when root), then the two
# test projects: `unit` (which runs every conformance suite that has a
# handler) and `integration` (real registry and redis servers, the built
# program, the browser). Ends with one summary line over both.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm -s typecheck
pnpm -s lint
pnpm -s check:packages
pnpm -s api:check
pnpm -s docs --logLevel Warn
# The README's demo command as an unprivileged user without pnpm (needs root to switch users).
if [ "$(id -u)" -eq 0 ]; then
  bash scripts/check-nonroot-setup.sh
fi

status=0
reports=()
for project in unit integration; do
  results=".vitest-results.$project.json"
  rm -f "$results"
  reports+=("$results")
  pnpm -s exec vitest run --project "$project" --reporter=default --reporter=json \
    --outputFile.json="$results" || status=1
done
node scripts/test-summary.mjs "${reports[@]}" || status=1
exit "$status"
