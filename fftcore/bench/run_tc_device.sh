#!/bin/bash
# Device-machine script of the Tensor Core backend: builds fftcore alone with its tc tests and
# the benchmark, runs them and leaves logs in $OUT. Usage: run_tc_device.sh [tests|sanitize|bench]...
set -u
B=/tmp/b
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total --format=csv > "$OUT/device.txt" 2>&1
{ time (cmake -S fftcore -B $B -G Ninja -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release \
    > /dev/null && ninja -C $B -j16 fftcore tc_tests tc_gpu_tests fftcore_bench); } \
    > "$OUT/build.log" 2>&1 || { tail -50 "$OUT/build.log"; exit 1; }
for step in "$@"; do
  case $step in
    tests)
      timeout ${TEST_TIMEOUT:-300} $B/tc_gpu_tests 2>&1 | tee "$OUT/gpu_tests.log" | grep -E "tc-accuracy|FAILED|PASSED|Failure|error" | tail -90 ;;
    cpu)
      timeout 120 $B/tc_tests 2>&1 | tail -5 > "$OUT/cpu_tests.log" ;;
    sanitize)
      for tool in memcheck racecheck; do
        timeout 200 /usr/local/cuda/bin/compute-sanitizer --tool $tool \
          $B/tc_gpu_tests --gtest_filter=TcBehaviour.SmallSetAgainstReference \
          > "$OUT/sanitizer_$tool.log" 2>&1
        tail -4 "$OUT/sanitizer_$tool.log"
      done ;;
    bench)
      timeout 300 $B/bench/fftcore_bench "${BENCH_ARGS:-}" 2>&1 | tee "$OUT/bench.md" ;;
  esac
done
