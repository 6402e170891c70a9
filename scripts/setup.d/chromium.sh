#!/usr/bin/env bash
# Installs what the playground browser tests need, idempotently:
#   chromium  Debian's headless-capable Chromium, driven by playwright-core
#             through its executablePath (playwright never downloads a browser)
# Nothing is started here: each test launches its own headless browser with a
# fresh profile directory and no network beyond loopback.
set -euo pipefail

[ -x /usr/bin/chromium ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  sudo=sudo
  command -v sudo >/dev/null 2>&1 || {
    echo "setup chromium: need root (or sudo) to install: chromium" >&2
    exit 1
  }
else
  sudo=
fi

echo "setup chromium: installing chromium"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null

[ -x /usr/bin/chromium ] || { echo "setup chromium: chromium did not install" >&2; exit 1; }
