#!/usr/bin/env bash
# Installs what the shared-state integration tests need, idempotently:
#   redis-server  the real server the @kubeimg/redis and webhook tests start
# Nothing is started here and nothing is left running: the tests start their
# own redis-server on a free loopback port with their own config. On a
# machine where apt would start the package's service, policy-rc.d keeps it
# down, and a unit that runs anyway is stopped and disabled (it would listen
# on :6379 for everyone).
set -euo pipefail

stop_service() {
  if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet redis-server 2>/dev/null; then
    $sudo systemctl disable --now redis-server >/dev/null 2>&1 || true
  fi
  if [ -x /etc/init.d/redis-server ] && /etc/init.d/redis-server status >/dev/null 2>&1; then
    $sudo /etc/init.d/redis-server stop >/dev/null 2>&1 || true
  fi
  return 0
}

if [ "$(id -u)" -ne 0 ]; then
  sudo=sudo
else
  sudo=
fi

if [ -x /usr/bin/redis-server ]; then
  stop_service
  exit 0
fi
if [ -n "$sudo" ] && ! command -v sudo >/dev/null 2>&1; then
  echo "setup redis: need root (or sudo) to install: redis-server" >&2
  exit 1
fi

echo "setup redis: installing redis-server"
# Keep the package's own service from starting (exit 101 = "action forbidden").
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
  $sudo chmod 755 "$policy"
  created_policy=1
fi
cleanup() { [ "$created_policy" -eq 1 ] && $sudo rm -f "$policy"; return 0; }
trap cleanup EXIT

export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends redis-server >/dev/null

stop_service
[ -x /usr/bin/redis-server ] || { echo "setup redis: redis-server did not install" >&2; exit 1; }
