#!/usr/bin/env bash
# Installs what this project needs on a fresh machine, idempotently:
# the pinned pnpm, the locked dependencies, and the system packages the
# tests use. Safe to run again; does nothing that is already done.
# `--no-system-packages` skips the system packages (scripts/setup.d/): the
# demo needs none of them, so it also runs where apt cannot.
#
# pnpm comes from corepack where Node ships it, else from npm into a prefix
# the user owns ($HOME/.local): never `npm install --global` into the system prefix, which needs
# root on most machines. Either way its command lands in $HOME/.local/bin,
# which the callers (demo.sh, test.sh) put on PATH.
set -euo pipefail
system_packages=1
[ "${1:-}" = "--no-system-packages" ] && system_packages=0
cd "$(dirname "$0")/.."

user_prefix="${KUBEIMG_USER_PREFIX:-$HOME/.local}"
export PATH="$user_prefix/bin:$PATH"
# corepack must fetch the pinned pnpm without asking.
export COREPACK_ENABLE_DOWNLOAD_PROMPT=0

pnpm_version=$(node -p 'require("./package.json").packageManager.split("@")[1]')

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "kubeimg needs Node.js 20 or newer (found $(node --version))" >&2
  exit 1
fi

pnpm_ok() { [ "$(pnpm --version 2>/dev/null || true)" = "$pnpm_version" ]; }

if ! pnpm_ok; then
  mkdir -p "$user_prefix/bin"
  if command -v corepack >/dev/null 2>&1; then
    echo "bootstrap: pnpm@$pnpm_version through corepack (shim in $user_prefix/bin)"
    corepack enable --install-directory "$user_prefix/bin" pnpm || true
  fi
  if ! pnpm_ok && command -v corepack >/dev/null 2>&1; then
    # corepack could not fetch or verify it (an old corepack, a registry mirror):
    # take its shims away again so npm's pnpm can take their place.
    echo "bootstrap: corepack could not provide pnpm@$pnpm_version; falling back to npm"
    corepack disable --install-directory "$user_prefix/bin" pnpm || true
  fi
  if ! pnpm_ok; then
    echo "bootstrap: installing pnpm@$pnpm_version with npm into $user_prefix"
    npm install --global --prefix "$user_prefix" --no-fund --no-audit --loglevel=error "pnpm@$pnpm_version"
  fi
  if ! pnpm_ok; then
    echo "bootstrap: could not install pnpm@$pnpm_version (found: $(pnpm --version 2>&1 || true))" >&2
    exit 1
  fi
fi

pnpm install --frozen-lockfile --prefer-offline

[ "$system_packages" -eq 1 ] || exit 0
for step in scripts/setup.d/*.sh; do
  [ -e "$step" ] || continue
  if ! bash "$step"; then
    echo "bootstrap: $step could not install its system packages; the test suite needs them: run it as root (or with sudo), see the README" >&2
    exit 1
  fi
done
