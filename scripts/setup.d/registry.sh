#!/usr/bin/env bash
# Installs what the registry integration tests need, idempotently:
#   docker-registry  CNCF distribution 2.8.2, the real registry the tests start
#   apache2-utils    htpasswd, to write bcrypt htpasswd files in the tests
#   openssl          self-signed certificates for the TLS tests
# Nothing is started here: the tests start their own registry on a free
# loopback port with their own config. The package's systemd unit is never
# needed; on a machine where apt would start it, policy-rc.d keeps it down.
set -euo pipefail

need=()
[ -x /usr/bin/docker-registry ] || need+=(docker-registry)
command -v htpasswd >/dev/null 2>&1 || need+=(apache2-utils)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
[ "${#need[@]}" -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  sudo=sudo
  command -v sudo >/dev/null 2>&1 || {
    echo "setup registry: need root (or sudo) to install: ${need[*]}" >&2
    exit 1
  }
else
  sudo=
fi

echo "setup registry: installing ${need[*]}"
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
$sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null

# Should a systemd unit exist and be running anyway, stop it: it listens on :5000 for everyone.
if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet docker-registry 2>/dev/null; then
  $sudo systemctl disable --now docker-registry >/dev/null 2>&1 || true
fi
[ -x /usr/bin/docker-registry ] || { echo "setup registry: docker-registry did not install" >&2; exit 1; }
