#!/usr/bin/env bash
# Prepares a prebuilt tree for the GPU machine when it lacks the -dev packages: copies the shared
# libraries the binaries in build/ need (not glibc, libstdc++ or CUDA, which the machine has) into
# .device-libs, and a slim copy of build/ (no object files) into .device-build. Both are ignored
# by git and travel with the device tool's `carry`.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .device-libs .device-build && mkdir -p .device-libs
bins=$(find build -maxdepth 4 -type f -perm -u+x \( -name '*_tests' -o -name 'tcfft-*' -o -name 'fftcore_bench' \))
for b in $bins; do
  ldd "$b" | awk '/=>/ {print $3}'
done | sort -u | grep -v -E '/(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s)\.so|/usr/local/cuda' |
  while read -r lib; do cp -L "$lib" .device-libs/; done
rsync -a --exclude='*.o' --exclude='CMakeFiles' --exclude='*.a' build/ .device-build/
du -sh .device-libs .device-build
