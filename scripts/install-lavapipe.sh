#!/usr/bin/env bash
# Installs Mesa's lavapipe (software Vulkan) from bookworm-backports so that
# Dawn (npm `webgpu`) finds an adapter on a machine without a GPU.
# Debian 12's own Mesa (22.x) is too old for Dawn: requestAdapter() returns null.
# Usage: sudo scripts/install-lavapipe.sh   (Debian 12 only; idempotent)
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
  echo "install-lavapipe: run as root (it calls apt-get)" >&2
  exit 1
fi

sources=/etc/apt/sources.list.d/debian.sources
backports=/etc/apt/sources.list.d/bookworm-backports.sources

if [ ! -f "$backports" ]; then
  # Use the same mirror as the machine's main suite, read from its URIs: line.
  mirror=$(awk '/^URIs:/ { print $2; exit }' "$sources" 2>/dev/null || true)
  mirror=${mirror:-http://deb.debian.org/debian}
  cat >"$backports" <<SRC
Types: deb
URIs: $mirror
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  echo "install-lavapipe: added bookworm-backports from $mirror"
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq -t bookworm-backports mesa-vulkan-drivers >/dev/null
echo "install-lavapipe: $(dpkg-query -W -f='mesa-vulkan-drivers ${Version}' mesa-vulkan-drivers)"
