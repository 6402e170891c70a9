#!/usr/bin/env bash
# Installs what this project needs on a fresh machine, idempotently:
# the pinned pnpm, the locked dependencies, and the system packages the
# tests use. Safe to run again; does nothing that is already done.
# `--no-system-packages` skips the system packages (scripts/setup.d/): the
# demo needs none of them, so it also runs where apt cannot.
set -euo pipefail
system_packages=1
[ "${1:-}" = "--no-system-packages" ] && system_packages=0
cd "$(dirname "$0")/.."

pnpm_version=$(node -p 'require("./package.json").packageManager.split("@")[1]')

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "kubeimg needs Node.js 20 or newer (found $(node --version))" >&2
  exit 1
fi

if [ "$(pnpm --version 2>/dev/null || true)" != "$pnpm_version" ]; then
  echo "bootstrap: installing pnpm@$pnpm_version"
  npm install --global --no-fund --no-audit "pnpm@$pnpm_version" >/dev/null
fi

pnpm install --frozen-lockfile --prefer-offline

[ "$system_packages" -eq 1 ] || exit 0
for step in scripts/setup.d/*.sh; do
  [ -e "$step" ] || continue
  bash "$step"
done
