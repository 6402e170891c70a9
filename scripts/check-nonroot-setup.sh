#!/usr/bin/env bash
# The README's demo command as a user who is not root and has no pnpm: a copy
# of the checkout (tracked and new files, no node_modules) owned by an
# unprivileged uid, run with a HOME it can write and a PATH on which `pnpm`
# is not found, bounded in time. Needs root to switch users; verify.sh runs
# it when it is root.
set -euo pipefail
cd "$(dirname "$0")/.."
uid="${KUBEIMG_NONROOT_UID:-65534}"
limit="${KUBEIMG_NONROOT_TIMEOUT:-900}"

if [ "$(id -u)" -ne 0 ]; then
  echo "check-nonroot-setup: needs root to run as uid $uid" >&2
  exit 1
fi
command -v setpriv >/dev/null 2>&1 || {
  echo "check-nonroot-setup: setpriv (util-linux) is missing" >&2
  exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/kubeimg-nonroot-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/checkout" "$work/home" "$work/no-pnpm"
git ls-files -z --cached --others --exclude-standard |
  tar --null -T - -cf - 2>/dev/null | tar -xf - -C "$work/checkout"
# A `pnpm` that is not there: the machine's own one must not be used.
printf '#!/bin/sh\necho "pnpm: command not found" >&2\nexit 127\n' >"$work/no-pnpm/pnpm"
chmod 755 "$work/no-pnpm/pnpm"
chown -R "$uid:$uid" "$work"
chmod 755 "$work"

# A fresh user keeps the machine's network settings: proxies and extra CA certificates.
pass=()
for name in NODE_EXTRA_CA_CERTS SSL_CERT_FILE SSL_CERT_DIR HTTP_PROXY HTTPS_PROXY NO_PROXY \
  http_proxy https_proxy no_proxy npm_config_registry COREPACK_NPM_REGISTRY; do
  [ -n "${!name:-}" ] && pass+=("$name=${!name}")
done
cafile=$(npm config get cafile 2>/dev/null || true)
case "$cafile" in "" | null | undefined) ;; *) pass+=("npm_config_cafile=$cafile") ;; esac

echo "check-nonroot-setup: bash scripts/demo.sh as uid $uid (at most ${limit}s)"
status=0
timeout "$limit" setpriv --reuid="$uid" --regid="$uid" --clear-groups \
  env -i HOME="$work/home" PATH="$work/no-pnpm:/usr/local/bin:/usr/bin:/bin" \
  LANG="${LANG:-C.UTF-8}" TERM=dumb "${pass[@]}" \
  bash -c 'cd "$1" && bash scripts/demo.sh' _ "$work/checkout" >"$work/out.txt" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  tail -n 40 "$work/out.txt" >&2
  echo "check-nonroot-setup: the demo failed as uid $uid (exit $status)" >&2
  exit 1
fi
echo "check-nonroot-setup: the demo ran as uid $uid ($(wc -l <"$work/out.txt") lines of output)"
