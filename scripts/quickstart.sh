#!/usr/bin/env bash
# README command (a): install what is missing, build, make the bundled default input (once) and
# run the main job (configs/default.yaml). Re-running replaces out/default_result.h5.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
if [[ ! -f data/default_input.h5 ]]; then
  build/data/tcfft-datagen tones --out data/default_input.h5
fi
mkdir -p out
build/app/tcfft-pipeline configs/default.yaml --set output.overwrite=true "$@"
echo "results: out/default_result.h5 (datasets /filtered and /psd); h5dump -A out/default_result.h5"
