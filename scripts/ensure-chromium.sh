#!/usr/bin/env bash
# The browser tests' Chromium (test/web/*.browser…): Debian's package, installed only when missing, so that
# running this again costs nothing. Needs root (CI runs as root) and Debian's apt.
set -euo pipefail

if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: no chromium and no apt-get; install Chromium and set CHROMIUM_PATH" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium >/dev/null
chromium --version
