#!/usr/bin/env bash
# README command (b): install what is missing, build, run the whole test suite. GPU tests skip
# (visibly) without a CUDA device; on a GPU machine they run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)" "$@"
