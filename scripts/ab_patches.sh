#!/usr/bin/env bash
# A/B of stacked patches on the GPU machine, in one call of the device tool: builds this tree's
# fftcore_bench, then applies each patch on top of the ones before (patch -p1; a patch file's
# leading text is skipped) and saves the bench binary after each, then times every binary in
# rotation, ROUNDS rounds, so that all are measured in the same run. Logs under $OUT:
# ab.md (raw rows, one "### round R binary bK" header per run) and ab_summary.md (min-max ms per
# row and binary). Patches are given relative to the repository root; "-R:FILE" reverses FILE.
#   OUT=... scripts/ab_patches.sh fftcore/experiments/a.patch fftcore/experiments/b.patch
# Knobs: C2C="2^13,4096x4096" (--tc-only rows), REAL="2^16" (--real rows, empty: none; the
# default includes 2-D real rows, which session 46 left out and a Stockham change slowed),
# ROUNDS=3, BUILD_DIR=build-ab, TESTS="gtest filter" (fftcore_gpu_tests on the last stage).
# On a warm machine the copied sources keep older times than a previous call's objects: the
# script starts from a fresh BUILD_DIR unless KEEP_BUILD=1.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=${BUILD_DIR:-build-ab}; ROUNDS=${ROUNDS:-3}
C2C=${C2C:-2^13,2^15,2^16,2^20,2^22,2^24,512x512,1024x1024,2048x2048,4096x4096}
REAL=${REAL-2^14,2^15,2^16,2^20,2^22,2^25,2^27,1024x1024,2048x2048}
T0=$(date +%s); el() { echo $(( $(date +%s) - T0 )); }
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$OUT/device.txt" 2>&1
cat "$OUT/device.txt"
[[ ${KEEP_BUILD:-0} == 1 ]] || rm -rf "$B"
mkdir -p "$B/ab-bins"
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
bld() {
  cmake --build "$B" -j"$(nproc)" --target "$@" >> "$OUT/build.log" 2>&1 ||
    { grep -B2 -A12 -m5 error "$OUT/build.log"; exit 1; }
}
bld fftcore_bench
cp "$B/fftcore/bench/fftcore_bench" "$B/ab-bins/b0"
echo "b0: this tree, built at $(el) s"
n=0
for p in "$@"; do
  n=$((n + 1))
  if [[ $p == -R:* ]]; then
    patch -s -p1 -R < "${p#-R:}" || { echo "reverse patch ${p#-R:} FAILED"; exit 1; }
  else
    patch -s -p1 < "$p" || { echo "patch $p FAILED"; exit 1; }
  fi
  bld fftcore_bench
  cp "$B/fftcore/bench/fftcore_bench" "$B/ab-bins/b$n"
  echo "b$n: + $p, built at $(el) s"
done
for round in $(seq "$ROUNDS"); do
  for k in $(seq 0 "$n"); do
    echo "### round $round binary b$k"
    timeout 120 "$B/ab-bins/b$k" --quick --tc-only --only "$C2C" | grep -E '^\| (2\^|[0-9]+x)'
    if [[ -n $REAL ]]; then
      timeout 120 "$B/ab-bins/b$k" --quick --tc-only --real --only "$REAL" |
        grep -E '^\| (2\^|[0-9]+x)' | awk -F'|' 'NF == 12'
    fi
  done
done > "$OUT/ab.md" 2>&1
echo "timed at $(el) s"
python3 - "$OUT/ab.md" "$n" > "$OUT/ab_summary.md" <<'PY'
import collections, re, sys
rows = collections.defaultdict(list)
cur = None
for line in open(sys.argv[1]):
    m = re.match(r'### round \d+ binary (b\d+)', line)
    if m:
        cur = m.group(1)
        continue
    f = [x.strip() for x in line.split('|')[1:-1]]
    if len(f) > 6 and f[6].endswith('%'):
        rows[(f[0], 'C2C')].append((cur, float(f[3])))
    elif len(f) == 10:
        rows[(f[0], 'R2C')].append((cur, float(f[2])))
        rows[(f[0], 'C2R')].append((cur, float(f[8])))
bins = ['b%d' % k for k in range(int(sys.argv[2]) + 1)]
print('| row | ' + ' | '.join(bins) + ' |')
print('|---|' + '---|' * len(bins))
for (name, kind), vals in rows.items():
    cells = []
    for b in bins:
        v = [ms for bb, ms in vals if bb == b]
        cells.append('%.3f-%.3f' % (min(v), max(v)) if v else '')
    print('| %s %s | ' % (kind, name) + ' | '.join(cells) + ' |')
PY
cat "$OUT/ab_summary.md"
rc=0
if [[ -n ${TESTS:-} ]]; then
  bld fftcore_gpu_tests
  timeout "${TEST_TIMEOUT:-300}" "$B/tests/fftcore_gpu_tests" --gtest_filter="$TESTS" > "$OUT/tests.log" 2>&1
  rc=$?
  echo "fftcore_gpu_tests ($TESTS) rc $rc at $(el) s: $(grep -E '^\[  (PASSED|FAILED)' "$OUT/tests.log" | tr '\n' ' ')"
fi
exit $rc
