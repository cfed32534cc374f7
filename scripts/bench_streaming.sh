#!/usr/bin/env bash
# Streaming executor benchmark (issue 5) on the GPU machine: floors (HDF5 read warm and cold,
# HDF5 write warm and with fsync, pinned H2D/D2H, GPU work alone on device-resident data) vs
# tcfft-pipeline end to end (3 slots, 1 slot, 3 slots with the input evicted), and CuPy + h5py.
#   BENCH_GIB=1 scripts/bench_streaming.sh     # quick try (1 GiB per job); default 8 GiB
# Needs build/app/tcfft-pipeline and build/app/tcfft-gpu-work-bench, python3 with numpy, h5py
# and cupy. Env (see scripts/bench_streaming.py): BENCH_DIR (default /tmp/tcfft-bench; about
# 3 x BENCH_GIB GiB of disk), PRECISION (fp16 | fp32), BENCH_BUDGET_S (default 400: the CuPy
# runs are skipped when they would not fit), BENCH_CUPY (auto | 1 | 0). At 8 GiB the whole
# benchmark takes about 3-5 minutes on an H200 machine. Writes a markdown table to stdout, one
# row per figure as soon as it is measured (tee it into $OUT on the device machine).
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
python3 scripts/bench_streaming.py
