#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Streaming executor benchmark (issue 5): floors vs end-to-end, on one GPU machine, one call.

Jobs: (a) a float32 series (2^31 samples at BENCH_GIB=8) through fft -> band-pass -> ifft,
(b) a stack of float32 512x512 images (8192 at BENCH_GIB=8) through a 2-D Gaussian low-pass.
For each job, all figures from the same run, each printed as a table row as soon as measured:
  floors   HDF5 read of the input alone (h5py, frame-sized reads): warm (in the page cache) and
           cold (evicted with posix_fadvise DONTNEED after fsync; mincore shows what was left);
           HDF5 write of the output alone: warm (into the page cache) and cold (+ fsync, on
           disk); pinned H2D and D2H of the same bytes (CuPy); the GPU work alone on a
           device-resident frame (tcfft-gpu-work-bench, the app's own chain, CUDA events)
  runs     tcfft-pipeline end to end (process wall time): 3 slots with --profile (its timeline
           and the phases of the run are printed after the table), 3 slots, 1 slot, and 3
           slots again with the input evicted (cold); each run's old output is removed first,
           outside the timing; then the same job in a few lines of CuPy + h5py, skipped when it
           would not fit the time budget.
Env: BENCH_GIB (8), BENCH_DIR (/tmp/tcfft-bench; needs about 3 x BENCH_GIB GiB free),
PRECISION (fp16 | fp32), TCFFT_PIPELINE (build/app/tcfft-pipeline), TCFFT_GPU_WORK_BENCH
(build/app/tcfft-gpu-work-bench), BENCH_BUDGET_S (400: optional steps are skipped past it),
BENCH_CUPY (auto | 1 | 0), BENCH_KEEP (0: inputs and outputs are deleted after each job).
"""
import ctypes
import math
import os
import re
import shutil
import subprocess
import sys
import time

import cupy as cp
import h5py
import numpy as np

T0 = time.perf_counter()
GIB = float(os.environ.get("BENCH_GIB", "8"))
PIPELINE = os.environ.get("TCFFT_PIPELINE", "build/app/tcfft-pipeline")
GPU_WORK = os.environ.get("TCFFT_GPU_WORK_BENCH", "build/app/tcfft-gpu-work-bench")
WORK = os.environ.get("BENCH_DIR", "/tmp/tcfft-bench")
PRECISION = os.environ.get("PRECISION", "fp16")
BUDGET = float(os.environ.get("BENCH_BUDGET_S", "400"))
CUPY = os.environ.get("BENCH_CUPY", "auto")
KEEP = os.environ.get("BENCH_KEEP", "0") == "1"
FRAME_BYTES = 64 << 20
os.makedirs(WORK, exist_ok=True)
LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.mmap.restype = ctypes.c_void_p
LIBC.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                      ctypes.c_long]
LIBC.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
LIBC.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]


def elapsed():
    return time.perf_counter() - T0


def row(measure, seconds=None, note=""):
    value = f"{seconds:.3f}" if isinstance(seconds, float) else (seconds or "")
    print(f"| {measure} | {value} | {note} |", flush=True)


def rate(total, seconds):
    return f"{total / seconds / 1e9:.2f} GB/s"


def resident(path):
    """Fraction of `path` in the page cache (mincore over a shared read-only mapping)."""
    size = os.path.getsize(path)
    fd = os.open(path, os.O_RDONLY)
    try:
        addr = LIBC.mmap(None, size, 1, 1, fd, 0)  # PROT_READ, MAP_SHARED
        if addr in (None, ctypes.c_void_p(-1).value):
            return float("nan")
        pages = (size + os.sysconf("SC_PAGE_SIZE") - 1) // os.sysconf("SC_PAGE_SIZE")
        vec = (ctypes.c_ubyte * pages)()
        ok = LIBC.mincore(addr, size, vec) == 0
        LIBC.munmap(addr, size)
        return (pages - bytes(vec).count(0)) / pages if ok else float("nan")
    finally:
        os.close(fd)


def sync_file(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def evict(path):
    """Drops `path` from the page cache (clean pages; no root needed). Returns the time it took."""
    start = time.perf_counter()
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    return time.perf_counter() - start


def dirty():
    with open("/proc/meminfo") as f:
        info = dict(line.split(":", 1) for line in f)
    return "dirty {:.0f} MB, writeback {:.0f} MB".format(
        *(int(info[k].split()[0]) / 1024 for k in ("Dirty", "Writeback")))


def make_series(path, n):
    """Float32 series: one 64 MiB block of a 120 Hz tone in noise, rolled differently per step."""
    rng = np.random.default_rng(1)
    step = FRAME_BYTES // 4
    t = np.arange(step) / 1000.0
    block = (np.sin(2 * np.pi * 120 * t) + rng.standard_normal(step)).astype("f4")
    with h5py.File(path, "w") as f:
        d = f.create_dataset("x", (n,), dtype="f4", chunks=(1 << 20,))
        for i, s in enumerate(range(0, n, step)):
            k = min(step, n - s)
            d[s:s + k] = np.roll(block, 7919 * i)[:k]


def make_images(path, count):
    """Float32 512x512 images: one block of 64 noise images, rolled differently per step."""
    block = np.random.default_rng(2).standard_normal((64, 512, 512), dtype="f4")
    with h5py.File(path, "w") as f:
        d = f.create_dataset("img", (count, 512, 512), dtype="f4", chunks=(1, 512, 512))
        for i, s in enumerate(range(0, count, 64)):
            k = min(64, count - s)
            d[s:s + k] = np.roll(block, (i, 31 * i), axis=(0, 1))[:k]


def read_floor(path, name, step):
    with h5py.File(path, "r") as f:
        d = f[name]
        out = np.empty((step,) + d.shape[1:], dtype=d.dtype)
        start = time.perf_counter()
        n = d.shape[0]
        for s in range(0, n, step):
            if s + step <= n:
                d.read_direct(out, np.s_[s:s + step])
            else:
                _ = d[s:n]
        return time.perf_counter() - start


def write_floor(shape, step, chunks):
    """HDF5 write of the output alone: (seconds into the page cache, seconds including fsync)."""
    path = os.path.join(WORK, "write_floor.h5")
    block = np.ones((step,) + tuple(shape[1:]), dtype="f4")
    start = time.perf_counter()
    with h5py.File(path, "w") as f:
        d = f.create_dataset("y", shape, dtype="f4", chunks=chunks)
        for s in range(0, shape[0], step):
            k = min(step, shape[0] - s)
            d[s:s + k] = block[:k]
    warm = time.perf_counter() - start
    sync_file(path)
    cold = time.perf_counter() - start
    os.remove(path)
    return warm, cold


def copy_floors(total_bytes):
    host = cp.cuda.alloc_pinned_memory(FRAME_BYTES)
    dev = cp.cuda.alloc(FRAME_BYTES)
    stream = cp.cuda.Stream(non_blocking=True)
    frames = max(1, int(total_bytes // FRAME_BYTES))
    times = []
    for kind in (cp.cuda.runtime.memcpyHostToDevice, cp.cuda.runtime.memcpyDeviceToHost):
        src, dst = (host.ptr, dev.ptr) if kind == cp.cuda.runtime.memcpyHostToDevice else \
            (dev.ptr, host.ptr)
        cp.cuda.runtime.memcpyAsync(dst, src, FRAME_BYTES, kind, stream.ptr)  # warm-up
        stream.synchronize()
        start = time.perf_counter()
        for _ in range(frames):
            cp.cuda.runtime.memcpyAsync(dst, src, FRAME_BYTES, kind, stream.ptr)
        stream.synchronize()
        times.append((time.perf_counter() - start) * total_bytes / (frames * FRAME_BYTES))
    return times


def run(cmd, fatal=True):
    """Wall time and stdout of `cmd`; a failure ends the benchmark (fatal) or returns None."""
    start = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if r.returncode != 0:
        print(f"\n{' '.join(cmd)} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}", flush=True)
        if fatal:
            sys.exit(1)
        return seconds, None
    return seconds, r.stdout


def remove(path):
    start = time.perf_counter()
    if os.path.exists(path):
        os.remove(path)
    return time.perf_counter() - start


def pipeline(config, out, slots, profile=False):
    """End-to-end wall time of one run, its stdout, and a note: the in-process time, what
    removing the old output took (outside the timing) and the dirty page cache at the start."""
    removal = remove(out)
    state = dirty()
    cmd = [PIPELINE, config, "--quiet", "--set", f"run.slots={slots}"]
    seconds, text = run(cmd + (["--profile"] if profile else []))
    note = f"in-process {figure(text, r'finished in ([0-9.]+) s'):.3f} s"
    main = figure(text, r"main\(\) start to this line\s+([0-9.]+) s")
    if not math.isnan(main):
        note += f", main() {main:.3f} s, exec + exit {seconds - main:.3f} s"
    return seconds, text, f"{note}; old output removed in {removal:.2f} s; {state} before"


def figure(text, pattern):
    m = re.search(pattern, text)
    return float(m.group(1)) if m else float("nan")


def cupy_job(path, name, step, out_path, kernel):
    start = time.perf_counter()
    with h5py.File(path, "r") as f, h5py.File(out_path, "w") as g:
        d = f[name]
        o = g.create_dataset("y", d.shape, dtype="f4", chunks=True)
        for s in range(0, d.shape[0], step):
            x = cp.asarray(d[s:s + step])
            o[s:s + step] = cp.asnumpy(kernel(x))
    return time.perf_counter() - start


def bench(job, jobs_after):
    """One job; `jobs_after` jobs follow it (its CuPy run must leave them their time)."""
    job_start = elapsed()
    label, shape, name, step, chunks = job["label"], job["shape"], job["name"], job["step"], \
        job["chunks"]
    total = int(np.prod(shape)) * 4
    inp = os.path.join(WORK, f"{label}_in.h5")
    out = os.path.join(WORK, f"{label}_out.h5")
    config = os.path.join(WORK, label + ".yaml")
    with open(config, "w") as f:
        f.write(f"input: {{path: {inp}, dataset: /{name}, {job['input_extra']}"
                f"rows_per_frame: {job['rows_per_frame']}}}\n"
                f"output: {{path: {out}, overwrite: true}}\n"
                f"run: {{device: gpu, precision: {PRECISION}}}\nstages:\n{job['stages']}")
    print(f"\n## {label}: {total / 2**30:.2f} GiB float32 in, {PRECISION} "
          f"(started at {elapsed():.0f} s)\n\n| measure | seconds | GB/s, notes |\n|---|---|---|",
          flush=True)
    start = time.perf_counter()
    job["make"](inp)
    made = time.perf_counter() - start
    sync_file(inp)
    row("make input (not a figure)", made, f"+ fsync {time.perf_counter() - start - made:.1f} s")

    floors = {}
    cached = resident(inp)
    floors["read (warm)"] = read_floor(inp, name, step)
    row("read (warm)", floors["read (warm)"],
        f"{rate(total, floors['read (warm)'])}; {100 * cached:.1f}% cached before")
    evict(inp)
    left = resident(inp)
    read_cold = read_floor(inp, name, step)
    row("read (cold)", read_cold, f"{rate(total, read_cold)}; {100 * left:.1f}% cached before")
    write_warm, write_cold = write_floor(shape, step, chunks)
    floors["write (warm)"] = write_warm
    row("write (warm, page cache)", write_warm, rate(total, write_warm))
    row("write (cold, + fsync)", write_cold, rate(total, write_cold))
    floors["H2D"], floors["D2H"] = copy_floors(total)
    row("H2D (pinned)", floors["H2D"], rate(total, floors["H2D"]))
    row("D2H (pinned)", floors["D2H"], rate(total, floors["D2H"]))
    _, text = run([GPU_WORK, config, "--repeat", "3"], fatal=False) if os.path.exists(GPU_WORK) \
        else (0, None)
    if text:
        floors["gpu work"] = figure(text, r"gpu work: ([0-9.]+) s")
        cuda = re.search(r"cuda start-up: (.*)", text)
        row("gpu work (device-resident)", floors["gpu work"],
            f"{rate(total, floors['gpu work'])}; {cuda.group(1) if cuda else ''}")
    else:
        row("gpu work (device-resident)", "n/a", f"{GPU_WORK} missing or failed (see above)")
    top = max(floors.values())
    top_cold = max(top, read_cold)
    floor_sum = sum(floors.values())
    row("largest floor (warm)", top, max(floors, key=floors.get))
    row("largest floor (cold input)", top_cold, "read cold vs the warm floors")
    row("sum of floors (warm)", floor_sum)

    e2e_prof, prof, note = pipeline(config, out, 3, profile=True)
    row("end-to-end, 3 slots, --profile", e2e_prof, note)
    e2e3, _, note = pipeline(config, out, 3)
    row("end-to-end, 3 slots", e2e3,
        f"**ratio {e2e3 / top:.2f}x largest floor** (target <= 1.15x); {note}")
    e2e1, _, note = pipeline(config, out, 1)
    row("end-to-end, 1 slot", e2e1,
        f"ratio {e2e1 / top:.2f}x largest floor, **{e2e1 / floor_sum:.2f}x sum of floors**; {note}")
    remove(out)
    evict(inp)
    left = resident(inp)
    e2e_cold, _, note = pipeline(config, out, 3)
    row("end-to-end, 3 slots, cold input", e2e_cold,
        f"**ratio {e2e_cold / top_cold:.2f}x largest cold-input floor**; {100 * left:.1f}% of the "
        f"input cached; {note}")
    remove(out)
    essential = elapsed() - job_start

    estimate = 1.6 * e2e1 + 5  # CuPy + h5py took 1.5x the 1-slot run at 2 GiB
    left_s = BUDGET - elapsed() - jobs_after * (essential + 10)
    if CUPY == "0" or (CUPY == "auto" and estimate > left_s):
        row("CuPy + h5py (serial)", "skipped",
            f"BENCH_CUPY={CUPY}; estimated {estimate:.0f} s, {left_s:.0f} s left in the budget")
    else:
        cupy_t = cupy_job(inp, name, step, os.path.join(WORK, label + "_cupy.h5"), job["kernel"])
        row("CuPy + h5py (serial)", cupy_t, f"ratio {cupy_t / top:.2f}x largest floor")
        remove(os.path.join(WORK, label + "_cupy.h5"))
    if not KEEP:
        remove(inp)
    print("\n--profile run (3 slots), its summary:\n```\n" + prof.rstrip() + "\n```", flush=True)


def series_job(n):
    freqs = cp.fft.rfftfreq(1 << 20, d=1e-3)
    band = (1 / cp.sqrt(1 + (freqs / 200.0) ** 8)) * cp.where(
        freqs > 0, 1 / cp.sqrt(1 + (50.0 / cp.maximum(freqs, 1e-30)) ** 8), 0)

    def kernel(x):
        rows = x.reshape(-1, 1 << 20)
        return cp.fft.irfft(cp.fft.rfft(rows) * band, n=1 << 20).astype(cp.float32).ravel()

    return {"label": "series", "shape": (n,), "name": "x", "step": 16 << 20,
            "chunks": (1 << 18,), "rows_per_frame": 16,
            "input_extra": "segment: 1048576, sample_rate: 1000, ",
            "make": lambda path: make_series(path, n), "kernel": kernel,
            "stages": "  - fft: {}\n  - filter: {type: bandpass, low: 50, high: 200}\n"
                      "  - ifft: {}\n  - sink: {dataset: y, dtype: float32}\n"}


def images_job(count):
    fy = cp.fft.fftfreq(512)[:, None]
    fx = cp.fft.rfftfreq(512)[None, :]
    gauss = cp.exp(-(fx**2 + fy**2) / (2 * 0.1**2))

    def kernel(x):
        return cp.fft.irfft2(cp.fft.rfft2(x) * gauss, s=(512, 512)).astype(cp.float32)

    return {"label": "images", "shape": (count, 512, 512), "name": "img", "step": 64,
            "chunks": (1, 512, 512), "rows_per_frame": 64, "input_extra": "",
            "make": lambda path: make_images(path, count), "kernel": kernel,
            "stages": "  - fft: {}\n  - filter: {type: lowpass, response: gaussian, cutoff: 0.1}\n"
                      "  - ifft: {}\n  - sink: {dataset: y, dtype: float32}\n"}


def main():
    n = int(GIB * 2**30 / 4)
    n -= n % (16 << 20)
    count = max(64, int(GIB * 1024) // 64 * 64)
    free = shutil.disk_usage(WORK).free / 2**30
    starts = [run([PIPELINE, "--version"])[0] for _ in range(3)]
    print(f"# Streaming benchmark: BENCH_GIB={GIB:g}, {os.cpu_count()} CPUs, {free:.0f} GiB free in "
          f"{WORK}, budget {BUDGET:.0f} s; `tcfft-pipeline --version` takes {min(starts):.3f} s "
          f"(process start and exit without CUDA)", flush=True)
    bench(series_job(n), jobs_after=1)
    bench(images_job(count), jobs_after=0)
    print(f"\nbenchmark done in {elapsed():.0f} s", flush=True)


if __name__ == "__main__":
    main()
