#!/usr/bin/env bash
# Kivy and OpenCV wheels need a few shared libraries that a bare Debian lacks.
# As root we install them; otherwise we stop and print the exact command to run.
set -euo pipefail
packages=(libgl1 libegl1 libgl1-mesa-dri libmtdev1 libglib2.0-0)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "Installing system libraries: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "Missing system libraries: ${missing[*]}" >&2
  echo "Run:  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
