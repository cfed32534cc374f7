#!/usr/bin/env bash
# A/B of the Tensor Core backend on the GPU machine, in one call of the device tool: this tree
# against a base commit, both built there and benchmarked in the same run (with cuFFT and the
# copy bandwidth), plus this tree's fftcore GPU tests and a sweep of the planner's split
# (FFTCORE_TC_SPLIT). Logs and tables under $OUT.
#   here:   scripts/tc_ab.sh prepare BASE     (exports BASE's fftcore to .device-build/base-src)
#   there:  OUT=... scripts/tc_ab.sh run      (carry .device-build)
# Knobs: SWEEP="17:8,9 17:9,8 ..." (size:split pairs), SKIP_TESTS=1, SKIP_BASE=1, SANITIZE=1.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}
if [[ $mode == prepare ]]; then
  base=${2:?usage: tc_ab.sh prepare BASE}
  rm -rf .device-build/base-src && mkdir -p .device-build/base-src
  git archive "$base" fftcore tests/fftcore tests/common | tar -x -C .device-build/base-src
  git rev-parse --short "$base" > .device-build/base-src/COMMIT
  echo "base $(cat .device-build/base-src/COMMIT) exported to .device-build/base-src"
  exit 0
fi
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv | tee "$OUT/device.txt"
start=$(date +%s)
cmake -S . -B build-native -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  > "$OUT/build.log" 2>&1 &&
  cmake --build build-native -j16 --target fftcore_bench fusion_bench fftcore_tests \
    fftcore_gpu_tests >> "$OUT/build.log" 2>&1 ||
  { grep -B2 -A12 -m5 -E "error|Error" "$OUT/build.log"; exit 1; }
echo "this tree built in $(( $(date +%s) - start )) s"
base_bench=""
if [[ ${SKIP_BASE:-0} != 1 && -d .device-build/base-src ]]; then
  ( cmake -S .device-build/base-src/fftcore -B build-base -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON > "$OUT/base_build.log" 2>&1 &&
    cmake --build build-base -j16 --target fftcore_bench >> "$OUT/base_build.log" 2>&1 ) &&
    base_bench=build-base/bench/fftcore_bench ||
    { echo "base build FAILED"; tail -20 "$OUT/base_build.log"; }
  echo "base $(cat .device-build/base-src/COMMIT 2>/dev/null) built: ${base_bench:-no}"
fi
rc=0
if [[ ${SKIP_TESTS:-0} != 1 ]]; then
  timeout 300 build-native/tests/fftcore_tests > "$OUT/fftcore_tests.log" 2>&1
  echo "fftcore_tests (CPU) rc $?: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/fftcore_tests.log" | tr '\n' ' ')"
  timeout 400 build-native/tests/fftcore_gpu_tests > "$OUT/fftcore_gpu_tests.log" 2>&1
  rc=$?
  echo "fftcore_gpu_tests rc $rc: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/fftcore_gpu_tests.log" | tr '\n' ' ')"
  grep -E "^\[  FAILED" "$OUT/fftcore_gpu_tests.log" | head -20
fi
if [[ ${SANITIZE:-0} == 1 ]]; then
  for tool in memcheck racecheck; do
    timeout 200 compute-sanitizer --tool $tool build-native/tests/fftcore_gpu_tests \
      --gtest_filter='TcBehaviour.SmallSetAgainstReference:TcBehaviour.InPlaceEqualsOutOfPlace:Hooks.*' \
      > "$OUT/sanitizer_$tool.log" 2>&1
    echo "compute-sanitizer $tool rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$OUT/sanitizer_$tool.log" | tr '\n' ' ')"
  done
fi
{
  timeout 150 build-native/fftcore/bench/fftcore_bench --quick --small
  if [[ -n $base_bench ]]; then
    echo; echo "## Base $(cat .device-build/base-src/COMMIT 2>/dev/null), same run"; echo
    timeout 120 "$base_bench" --quick
  fi
} > "$OUT/bench.md" 2>&1
echo "bench rc $?"
if [[ -n ${SWEEP:-} ]]; then
  for item in $SWEEP; do
    size=${item%%:*}; split=${item#*:}
    ms=$(FFTCORE_TC_SPLIT=$split timeout 30 build-native/fftcore/bench/fftcore_bench --quick \
           --tc-only --only "$size" | grep -E "^\| $size " | cut -d'|' -f5,8)
    echo "| $size | $split |$ms|"
  done > "$OUT/sweep.md"
  echo "split sweep (size | split | TC ms | % of copy):"; cat "$OUT/sweep.md"
fi
exit $rc
