#!/usr/bin/env bash
# Installs everything a fresh Debian 12 machine lacks to build and test alpa-mlir:
# the LLVM/MLIR 22 packages, CMake, Chromium (headless, for tests/report_html.rs, which renders
# the inter-op report page) and the Python venv for the JAX bridge. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libclang-22-dev clang-22
          libpolly-22-dev libzstd-dev libz3-dev libxml2-dev cmake python3-venv chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ -x python/setup-venv.sh ]; then
  python/setup-venv.sh
fi
