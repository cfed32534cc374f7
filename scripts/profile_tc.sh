#!/usr/bin/env bash
# Device-machine helper: compute-sanitizer (memcheck, racecheck) on the Tensor Core tests and an
# Nsight Compute summary of the pass kernel for a few sizes. Needs a built tree in build/.
# Usage: OUT=... scripts/profile_tc.sh [sanitize] [ncu]   (SIZES="2^12,2^20,512x512")
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
gpu_tests=build/tests/fftcore_gpu_tests
for step in "$@"; do
  case $step in
    sanitize)
      for tool in memcheck racecheck; do
        timeout "${SAN_TIMEOUT:-100}" /usr/local/cuda/bin/compute-sanitizer --tool $tool \
          "$gpu_tests" --gtest_filter='TcBehaviour.SmallSetAgainstReference:TcBehaviour.InPlaceEqualsOutOfPlace' \
          > "$OUT/sanitizer_$tool.log" 2>&1
        echo "compute-sanitizer $tool rc $?: $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$OUT/sanitizer_$tool.log" | tr '\n' ' ')"
      done ;;
    ncu)
      IFS=, read -ra sizes <<< "${SIZES:-2^12,2^20,512x512}"
      for s in "${sizes[@]}"; do
        f="$OUT/ncu_${s//^/_}.txt"
        timeout 120 ncu --kernel-name regex:pass_kernel --launch-skip 0 --launch-count 3 \
          --section SpeedOfLight --section Occupancy --section LaunchStats \
          --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats \
          --section ComputeWorkloadAnalysis \
          build/fftcore/bench/fftcore_bench --quick --only "$s" > "$f" 2>&1
        echo "ncu $s rc $?"
        grep -E "pass_kernel|Duration|Memory Throughput|DRAM Throughput|Achieved Occupancy|Registers Per|Stall|Issue Slots Busy|L1/TEX Hit|Bank|Theoretical Occ|Block Limit|Warp Cycles Per Issued|Executed Ipc A" "$f" | head -60
      done ;;
  esac
done
