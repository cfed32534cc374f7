#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Streaming executor benchmark (issue 5): floors vs end-to-end, on one GPU machine.

For each job ((a) a float32 series through fft -> bandpass -> ifft, (b) float32 512x512 images
through a 2-D Gaussian low-pass) it measures, on the same run:
  1. HDF5 read of the input alone and write of the output alone (h5py, frame-sized chunks;
     page cache warm, and cold when /proc/sys/vm/drop_caches is writable),
  2. pinned H2D and D2H of the same bytes (CuPy, frame-sized copies),
  3. the GPU work alone: the busy time of the device steps in tcfft-pipeline --profile,
then tcfft-pipeline end to end with 3 slots and with 1 slot, and the same job in a few lines
of CuPy + h5py. Prints a table: floors, largest floor, end-to-end, ratio to the largest floor.
Sizes: BENCH_GIB (default 8) GiB of float32 input per job. Inputs are written in chunks.
"""
import os
import re
import subprocess
import sys
import time

import cupy as cp
import h5py
import numpy as np

GIB = float(os.environ.get("BENCH_GIB", "8"))
PIPELINE = os.environ.get("TCFFT_PIPELINE", "build/app/tcfft-pipeline")
WORK = os.environ.get("BENCH_DIR", "/tmp/tcfft-bench")
PRECISION = os.environ.get("PRECISION", "fp16")
FRAME_BYTES = 64 << 20
os.makedirs(WORK, exist_ok=True)


def drop_caches():
    try:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
        return True
    except OSError:
        return False


def make_series(path, n):
    if os.path.exists(path):
        return
    rng = np.random.default_rng(1)
    step = 1 << 24
    with h5py.File(path + ".tmp", "w") as f:
        d = f.create_dataset("x", (n,), dtype="f4", chunks=(1 << 20,))
        for s in range(0, n, step):
            k = min(step, n - s)
            t = np.arange(s, s + k) / 1000.0
            d[s:s + k] = (np.sin(2 * np.pi * 120 * t) + rng.standard_normal(k)).astype("f4")
    os.rename(path + ".tmp", path)


def make_images(path, count):
    if os.path.exists(path):
        return
    rng = np.random.default_rng(2)
    with h5py.File(path + ".tmp", "w") as f:
        d = f.create_dataset("img", (count, 512, 512), dtype="f4", chunks=(1, 512, 512))
        for s in range(0, count, 64):
            k = min(64, count - s)
            d[s:s + k] = rng.standard_normal((k, 512, 512)).astype("f4")
    os.rename(path + ".tmp", path)


def read_floor(path, name, rows_per_frame):
    with h5py.File(path, "r") as f:
        d = f[name]
        out = np.empty((rows_per_frame,) + d.shape[1:], dtype=d.dtype) if d.ndim > 1 else None
        start = time.perf_counter()
        n = d.shape[0]
        step = rows_per_frame if d.ndim > 1 else FRAME_BYTES // 4
        for s in range(0, n, step):
            if out is not None and s + step <= n:
                d.read_direct(out, np.s_[s:s + step])
            else:
                _ = d[s:s + step]
        return time.perf_counter() - start


def write_floor(shape, rows_per_frame):
    path = os.path.join(WORK, "write_floor.h5")
    block = np.ones((rows_per_frame,) + tuple(shape[1:]), dtype="f4") if len(shape) > 1 else \
        np.ones(FRAME_BYTES // 4, dtype="f4")
    start = time.perf_counter()
    with h5py.File(path, "w") as f:
        d = f.create_dataset("y", shape, dtype="f4", chunks=True)
        step = block.shape[0]
        for s in range(0, shape[0], step):
            k = min(step, shape[0] - s)
            d[s:s + k] = block[:k]
    seconds = time.perf_counter() - start
    os.remove(path)
    return seconds


def copy_floors(total_bytes):
    host = cp.cuda.alloc_pinned_memory(FRAME_BYTES)
    dev = cp.cuda.alloc(FRAME_BYTES)
    stream = cp.cuda.Stream(non_blocking=True)
    frames = max(1, int(total_bytes // FRAME_BYTES))
    times = []
    for kind in (cp.cuda.runtime.memcpyHostToDevice, cp.cuda.runtime.memcpyDeviceToHost):
        src, dst = (host.ptr, dev.ptr) if kind == cp.cuda.runtime.memcpyHostToDevice else \
            (dev.ptr, host.ptr)
        stream.synchronize()
        start = time.perf_counter()
        for _ in range(frames):
            cp.cuda.runtime.memcpyAsync(dst, src, FRAME_BYTES, kind, stream.ptr)
        stream.synchronize()
        times.append((time.perf_counter() - start) * total_bytes / (frames * FRAME_BYTES))
    return times


def run_pipeline(config, slots, profile=False):
    cmd = [PIPELINE, config, "--quiet", "--set", f"run.slots={slots}"] + (["--profile"] if profile else [])
    start = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
    return seconds, r.stdout


def gpu_busy(profile_text):
    """Sum of the busy times of the device steps (between H2D and D2H) in --profile output."""
    busy = 0.0
    inside = False
    for line in profile_text.splitlines():
        m = re.match(r"\s+(.+?)\s+\d+ x, busy\s+([0-9.]+) s", line)
        if not m:
            continue
        name = m.group(1).strip()
        if name == "H2D":
            inside = True
        elif name == "D2H":
            inside = False
        elif inside:
            busy += float(m.group(2))
    return busy


def cupy_job(path, name, rows_per_frame, out_path, kernel):
    start = time.perf_counter()
    with h5py.File(path, "r") as f, h5py.File(out_path, "w") as g:
        d = f[name]
        o = g.create_dataset("y", d.shape, dtype="f4", chunks=True)
        step = rows_per_frame
        for s in range(0, d.shape[0], step):
            x = cp.asarray(d[s:s + step])
            o[s:s + step] = cp.asnumpy(kernel(x))
    return time.perf_counter() - start


def write_config(path, body):
    with open(path, "w") as f:
        f.write(body)


def bench(label, input_path, name, shape, rows_per_frame, stages, kernel):
    total = int(np.prod(shape)) * 4
    config = os.path.join(WORK, label + ".yaml")
    out = os.path.join(WORK, label + "_out.h5")
    extra = "segment: 1048576, sample_rate: 1000, " if len(shape) == 1 else ""
    write_config(config, f"input: {{path: {input_path}, dataset: /{name}, {extra}"
                         f"rows_per_frame: {rows_per_frame}}}\n"
                         f"output: {{path: {out}, overwrite: true}}\n"
                         f"run: {{device: gpu, precision: {PRECISION}}}\nstages:\n{stages}")
    frame_items = rows_per_frame if len(shape) > 1 else rows_per_frame * (1 << 20)
    _ = read_floor(input_path, name, frame_items)  # warm the page cache
    read_warm = read_floor(input_path, name, frame_items)
    read_cold = read_floor(input_path, name, frame_items) if drop_caches() else None
    _ = read_floor(input_path, name, frame_items)
    write = write_floor(shape, frame_items)
    h2d, d2h = copy_floors(total)
    _, prof = run_pipeline(config, 3, profile=True)
    gpu = gpu_busy(prof)
    e2e3, _ = run_pipeline(config, 3)
    e2e1, _ = run_pipeline(config, 1)
    cupy_t = cupy_job(input_path, name, frame_items, os.path.join(WORK, label + "_cupy.h5"), kernel)
    floors = {"read (warm)": read_warm, "write": write, "H2D": h2d, "D2H": d2h, "gpu work": gpu}
    top = max(floors.values())
    print(f"\n## {label}: {total / 2**30:.2f} GiB float32 in, {PRECISION}")
    print("| measure | seconds | GB/s |")
    print("|---|---|---|")
    for k, v in floors.items():
        print(f"| {k} | {v:.3f} | {total / v / 1e9:.2f} |")
    print(f"| read (cold) | {'%.3f' % read_cold if read_cold else 'n/a (drop_caches not writable)'} | |")
    print(f"| largest floor | {top:.3f} | |")
    print(f"| sum of floors | {sum(floors.values()):.3f} | |")
    print(f"| end-to-end, 3 slots | {e2e3:.3f} | ratio {e2e3 / top:.2f}x (target <= 1.15x) |")
    print(f"| end-to-end, 1 slot | {e2e1:.3f} | ratio {e2e1 / top:.2f}x, sum-of-floors ratio "
          f"{e2e1 / sum(floors.values()):.2f} |")
    print(f"| CuPy + h5py (serial) | {cupy_t:.3f} | ratio {cupy_t / top:.2f}x |")
    print("\n--profile (3 slots):\n" + "\n".join(l for l in prof.splitlines() if "busy" in l or "wall" in l))


def main():
    n = int(GIB * 2**30 / 4)
    n -= n % (1 << 20)
    series = os.path.join(WORK, f"series_{GIB:g}g.h5")
    images = os.path.join(WORK, f"images_{GIB:g}g.h5")
    count = max(1, int(GIB * 1024))
    make_series(series, n)
    make_images(images, count)

    freqs = cp.fft.rfftfreq(1 << 20, d=1e-3)
    band = (1 / cp.sqrt(1 + (freqs / 200.0) ** 8)) * cp.where(
        freqs > 0, 1 / cp.sqrt(1 + (50.0 / cp.maximum(freqs, 1e-30)) ** 8), 0)

    def series_kernel(x):
        rows = x.reshape(-1, 1 << 20)
        return cp.fft.irfft(cp.fft.rfft(rows) * band, n=1 << 20).astype(cp.float32).ravel()

    fy = cp.fft.fftfreq(512)[:, None]
    fx = cp.fft.rfftfreq(512)[None, :]
    gauss = cp.exp(-(fx**2 + fy**2) / (2 * 0.1**2))

    def image_kernel(x):
        return cp.fft.irfft2(cp.fft.rfft2(x) * gauss, s=(512, 512)).astype(cp.float32)

    bench("series", series, "x", (n,), 16,
          "  - fft: {}\n  - filter: {type: bandpass, low: 50, high: 200}\n  - ifft: {}\n"
          "  - sink: {dataset: y, dtype: float32}\n", series_kernel)
    bench("images", images, "img", (count, 512, 512), 64,
          "  - fft: {}\n  - filter: {type: lowpass, response: gaussian, cutoff: 0.1}\n"
          "  - ifft: {}\n  - sink: {dataset: y, dtype: float32}\n", image_kernel)


if __name__ == "__main__":
    main()
