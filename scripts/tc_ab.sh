#!/usr/bin/env bash
# A/B of the Tensor Core backend on the GPU machine, in one call of the device tool: this tree
# against a base commit, both built there and benchmarked in the same run (with cuFFT and the
# copy bandwidth), plus this tree's fftcore GPU tests and a sweep of the planner's split
# (FFTCORE_TC_SPLIT). Logs and tables under $OUT.
#   here:   scripts/tc_ab.sh prepare BASE     (exports BASE's fftcore to .device-build/base-src)
#   there:  OUT=... scripts/tc_ab.sh run      (carry .device-build)
# Knobs: SWEEP="2^17:8,9 2^17:9,8 ..." (size:split pairs), COLSWEEP="2^20:4,14 ..." (size:
# FFTCORE_TC_COLUMNS pairs), TILESWEEP="2^15:0 ..." (size: FFTCORE_TC_STRIDED_TILE pairs),
# SKIP_TESTS=1, SKIP_BASE=1, SANITIZE=1
# (SAN_FILTER: gtest filter, SAN_TIMEOUT: seconds per tool),
# NCU="2^10 2^20" (Nsight Compute sections of the register-chained pass at those sizes; NCU_COUNT
# kernels each, NCU_EXTRA more ncu arguments).
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
      -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON > "$OUT/build.log" 2>&1 &&
    cmake --build build-base -j16 --target fftcore_bench >> "$OUT/build.log" 2>&1 ) &&
    base_bench=build-base/bench/fftcore_bench ||
    { echo "base build FAILED"; tail -20 "$OUT/build.log"; }
  echo "base $(cat .device-build/base-src/COMMIT 2>/dev/null) built: ${base_bench:-no}"
fi
rc=0
if [[ ${SKIP_TESTS:-0} != 1 ]]; then
  timeout 300 build-native/tests/fftcore_tests > "$OUT/tests.log" 2>&1
  echo "fftcore_tests (CPU) rc $?: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/tests.log" | tr '\n' ' ')"
  timeout 400 build-native/tests/fftcore_gpu_tests > "$OUT/gpu_tests.log" 2>&1
  rc=$?
  echo "fftcore_gpu_tests rc $rc: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/gpu_tests.log" | tr '\n' ' ')"
  grep -E "^\[  FAILED" "$OUT/gpu_tests.log" | head -20
  cat "$OUT/gpu_tests.log" >> "$OUT/tests.log" && rm "$OUT/gpu_tests.log"
fi
if [[ ${SANITIZE:-0} == 1 ]]; then
  for tool in memcheck racecheck; do
    timeout "${SAN_TIMEOUT:-200}" compute-sanitizer --tool $tool build-native/tests/fftcore_gpu_tests \
      --gtest_filter="${SAN_FILTER:-TcBehaviour.SmallSetAgainstReference:TcBehaviour.InPlaceEqualsOutOfPlace:Hooks.*:TcSmallPass.PartialTiles*}" \
      > "$OUT/sanitizer_one.log" 2>&1
    echo "compute-sanitizer $tool rc $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$OUT/sanitizer_one.log" | tr '\n' ' ')"
    { echo "### $tool"; cat "$OUT/sanitizer_one.log"; } >> "$OUT/sanitizer.log"; rm "$OUT/sanitizer_one.log"
  done
fi
{
  timeout 200 build-native/fftcore/bench/fftcore_bench --quick --small --real
  if [[ -n $base_bench ]]; then
    echo; echo "## Base $(cat .device-build/base-src/COMMIT 2>/dev/null), same run"; echo
    timeout 120 "$base_bench" --quick
  fi
} > "$OUT/bench.md" 2>&1
echo "bench rc $?"
# sweep VAR "size:value ..." FILE TITLE: one timed row per item with VAR=value in the environment.
sweep() {
  local var=$1 items=$2 file=$3 title=$4 item size value ms
  for item in $items; do
    size=${item%%:*}; value=${item#*:}
    ms=$(env "$var=$value" timeout 30 build-native/fftcore/bench/fftcore_bench --quick \
           --tc-only --only "$size" | grep -F "| $size |" | head -1 | cut -d'|' -f5,8)
    echo "| $size | $value |$ms|"
  done > "$OUT/$file"
  echo "$title"; cat "$OUT/$file"
}
[[ -n ${SWEEP:-} ]] && sweep FFTCORE_TC_SPLIT "$SWEEP" sweep.md "split sweep (size | split | TC ms | % of copy):"
# COLSWEEP="2^20:4,14 ...": FFTCORE_TC_COLUMNS per size
[[ -n ${COLSWEEP:-} ]] && sweep FFTCORE_TC_COLUMNS "$COLSWEEP" colsweep.md \
  "column sweep (size | columns,elements | TC ms | % of copy):"
# TILESWEEP="2^15:0 ...": FFTCORE_TC_STRIDED_TILE per size
[[ -n ${TILESWEEP:-} ]] && sweep FFTCORE_TC_STRIDED_TILE "$TILESWEEP" tilesweep.md \
  "strided tile sweep (size | log2 max tile | TC ms | % of copy):"
if [[ -n ${NCU:-} ]]; then  # NCU="2^10 2^20": Nsight Compute on the register-chained pass
  for size in $NCU; do  # NCU_COUNT kernels from the third launch on; NCU_EXTRA more sections
    echo "### $size"
    # shellcheck disable=SC2086
    timeout 150 ncu --kernel-name regex:fast_pass_kernel --launch-skip 2 --launch-count "${NCU_COUNT:-1}" \
      --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats \
      --section LaunchStats --section InstructionStats ${NCU_EXTRA:-} \
      --metrics smsp__inst_executed.sum,dram__bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum \
      build-native/fftcore/bench/fftcore_bench --quick --tc-only --only "$size" 2>&1 | grep -vE "^==PROF==|^\| "
  done > "$OUT/ncu.txt" 2>&1
  grep -E "^### |Duration|DRAM Throughput|Compute \(SM\) Throughput|Registers Per|Achieved Occupancy|Issue Slots Busy|No Eligible|Eligible Warps|Warp Cycles Per Issued|inst_executed|dram__bytes|Stall" "$OUT/ncu.txt" | head -60
fi
exit $rc
