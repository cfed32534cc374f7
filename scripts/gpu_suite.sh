#!/usr/bin/env bash
# One call on the GPU machine (the device tool): build, the whole test suite, the main job on
# the GPU, compute-sanitizer on the Tensor Core tests and the fftcore benchmark. Logs go to $OUT.
# Needs .device-data/data (a copy of ../shared/data) carried along, since ../shared does not travel.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
if [[ ! -d ../shared/data && -d .device-data/data ]]; then
  mkdir -p ../shared && cp -r .device-data/data ../shared/
fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$OUT/device.txt"
start=$(date +%s)
if cmake -S . -B build-native -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
     > "$OUT/configure.log" 2>&1; then
  cmake --build build-native -j16 > "$OUT/build.log" 2>&1 ||
    { grep -B2 -A10 -m5 error "$OUT/build.log"; exit 1; }
  echo "native build on $(. /etc/os-release; echo "$PRETTY_NAME"): $(( $(date +%s) - start )) s"
  rm -rf build && ln -s build-native build
else
  # The machine lacks some -dev package: run the tree built on Debian 12 instead
  # (scripts/collect_device_libs.sh), whose tests hold the absolute path /work/main.
  echo "native configure FAILED on $(. /etc/os-release; echo "$PRETTY_NAME"):"
  grep -m3 -E "Could NOT find|not found|Error" "$OUT/configure.log"
  [[ -d .device-build ]] || { echo "no .device-build carried"; exit 1; }
  mkdir -p /work && { [[ -e /work/main ]] || ln -s "$PWD" /work/main; }
  rm -rf build && ln -s .device-build build
  export LD_LIBRARY_PATH="$PWD/.device-libs:${LD_LIBRARY_PATH:-}"
  echo "using the prebuilt tree (Debian 12 build) with carried libraries"
fi
ctest --test-dir build --output-on-failure -j4 --timeout 400 > "$OUT/ctest.log" 2>&1
ctest_rc=$?
grep -E "tests passed|tests failed|Total Test time" "$OUT/ctest.log"
grep -E "^\s+[0-9]+ - .*(Failed|Timeout|Exception)" "$OUT/ctest.log" | head -20
grep -h "MEASURED" build/Testing/Temporary/LastTest.log 2>/dev/null | sort -u | head -40 > "$OUT/measured.txt"
cat "$OUT/measured.txt"
if [[ "${SKIP_MAIN:-0}" != 1 ]]; then
  mkdir -p out
  build/data/tcfft-datagen tones --out data/default_input.h5 --force >/dev/null
  build/app/tcfft-pipeline configs/default.yaml --set output.overwrite=true --device gpu \
    2>&1 | tail -12 | tee "$OUT/main_job_gpu.log"
fi
if [[ "${SANITIZE:-1}" == 1 && -x build/tests/fftcore_gpu_tests ]]; then
  for tool in memcheck racecheck; do
    timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 build/tests/fftcore_gpu_tests \
      --gtest_filter="${SANITIZE_FILTER:-*Sanit*}" > "$OUT/sanitizer_$tool.log" 2>&1
    echo "compute-sanitizer $tool: rc $? ($(grep -c 'ERROR SUMMARY: 0' "$OUT/sanitizer_$tool.log") clean summaries)"
  done
fi
if [[ "${BENCH:-1}" == 1 && -x build/fftcore/bench/fftcore_bench ]]; then
  timeout 300 build/fftcore/bench/fftcore_bench > "$OUT/bench.md" 2>&1
  echo "bench rc $?"; tail -60 "$OUT/bench.md"
fi
exit $ctest_rc
