#!/usr/bin/env bash
# Installs skopeo, idempotently: the platform integration tests use it as a
# second, independent producer of a multi-platform image (it copies an OCI
# image layout into the real registry the tests start). Nothing is started.
set -euo pipefail

[ -x /usr/bin/skopeo ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  sudo=sudo
  command -v sudo >/dev/null 2>&1 || {
    echo "setup skopeo: need root (or sudo) to install skopeo" >&2
    exit 1
  }
else
  sudo=
fi

echo "setup skopeo: installing skopeo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends skopeo >/dev/null
[ -x /usr/bin/skopeo ] || { echo "setup skopeo: skopeo did not install" >&2; exit 1; }
