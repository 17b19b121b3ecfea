#!/usr/bin/env bash
# Installs redis-server (Debian package) for the @partner-print/ratelimit Redis store tests and bench,
# which start their own throwaway server on 127.0.0.1. Does nothing when it is already installed.
# (tools/ci/system-deps.sh installs it together with the other system packages the tests use.)
set -euo pipefail
command -v redis-server >/dev/null 2>&1 && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "redis-server is missing: install it with your package manager" >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends redis-server >/dev/null
redis-server --version
