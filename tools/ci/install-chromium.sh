#!/usr/bin/env sh
# Installs Debian's chromium for the docs browser test (playwright-core drives /usr/bin/chromium).
# Idempotent: does nothing when chromium is already installed.
set -eu
if command -v chromium >/dev/null 2>&1; then
  echo "chromium already installed: $(chromium --version 2>/dev/null || echo unknown)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
chromium --version
