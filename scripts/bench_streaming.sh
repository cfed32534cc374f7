#!/usr/bin/env bash
# Streaming executor benchmark (issue 5) on the GPU machine: floors (HDF5 read/write, pinned
# H2D/D2H, GPU work) vs tcfft-pipeline end to end with 3 and 1 slots, and CuPy + h5py.
#   BENCH_GIB=1 scripts/bench_streaming.sh     # quick try (1 GiB per job); default 8 GiB
# Env: TCFFT_PIPELINE (default build/app/tcfft-pipeline), BENCH_DIR (default /tmp/tcfft-bench;
# needs ~4 x BENCH_GIB GiB of disk), PRECISION (fp16 | fp32). Needs python3 with numpy, h5py
# and cupy. Writes the table to stdout (tee it into $OUT on the device machine).
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
python3 scripts/bench_streaming.py
