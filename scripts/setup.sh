#!/usr/bin/env bash
# Installs the Debian packages tcfft-pipeline builds with, when missing (Debian 12 / Ubuntu 24.04).
# CUDA 13.0 is expected at /usr/local/cuda (not installed by this script).
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config libhdf5-dev libyaml-cpp-dev libspdlog-dev libfftw3-dev
          libgtest-dev libcli11-dev hdf5-tools)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi
if [[ ! -x /usr/local/cuda/bin/nvcc ]] && ! command -v nvcc >/dev/null; then
  echo "setup: CUDA 13.0 (nvcc) not found at /usr/local/cuda; install the CUDA Toolkit" >&2
  exit 1
fi
echo "setup: all build dependencies present"
