#!/usr/bin/env bash
# Configures and builds into ./build (CUDA architecture 90 unless CUDA_ARCH says otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" >/dev/null
cmake --build build -j "$(nproc)"
