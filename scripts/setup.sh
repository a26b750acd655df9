#!/usr/bin/env bash
# Installs the Debian packages cs349 needs; does nothing when they are present.
set -euo pipefail

packages=(
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  clang-22 libclang-rt-22-dev lld-22 cmake ninja-build libgtest-dev googletest
  zlib1g-dev libzstd-dev libedit-dev libcurl4-openssl-dev libxml2-dev python3
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "setup: installing ${missing[*]}" >&2
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
