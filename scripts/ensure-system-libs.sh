#!/usr/bin/env bash
# What a bare Debian 12 lacks for this project: the venv module (Debian ships it apart),
# and the shared libraries that the Kivy and OpenCV wheels load.
# As root we install them; otherwise we stop and print the exact command to run.
set -euo pipefail
packages=(libgl1 libegl1 libgl1-mesa-dri libmtdev1 libglib2.0-0)
python3 -c 'import venv, ensurepip' 2>/dev/null || packages+=(python3-venv)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "Installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "Missing system packages: ${missing[*]}" >&2
  echo "Run:  sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
