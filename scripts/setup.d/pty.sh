#!/usr/bin/env bash
# Installs what the pseudo-terminal tests of the CLI need, idempotently:
#   bsdutils  util-linux's `script`, which runs the built `kubeimg` under a
#             real pseudo-terminal so its terminal output is tested as a
#             user sees it, not through a fake isTTY flag.
set -euo pipefail

command -v script >/dev/null 2>&1 && exit 0

if [ "$(id -u)" -ne 0 ]; then
  sudo=sudo
  command -v sudo >/dev/null 2>&1 || {
    echo "setup pty: need root (or sudo) to install: bsdutils (util-linux script)" >&2
    exit 1
  }
else
  sudo=
fi

echo "setup pty: installing bsdutils"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends bsdutils >/dev/null
command -v script >/dev/null 2>&1 || {
  echo "setup pty: bsdutils installed but script is still missing" >&2
  exit 1
}
