#!/usr/bin/env bash
# Installs Debian's chromium for the real-browser tests (test/web): headless
# Chromium with --enable-unsafe-webgpu gives a SwiftShader WebGPU adapter on a
# machine without a GPU. Playwright never downloads a browser here.
# Usage: sudo scripts/install-chromium.sh   (Debian; idempotent)
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  echo "install-chromium: $(/usr/bin/chromium --version 2>/dev/null || echo 'already installed')"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-chromium: run as root (it calls apt-get)" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
echo "install-chromium: $(/usr/bin/chromium --version)"
