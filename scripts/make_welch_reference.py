#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the scipy.signal.welch references of tests/stages/welch_test.cpp.

Reads the LIGO H1 strain of GW150914 (GWOSC open data, see ../shared/data/SOURCES.md) with h5py,
runs scipy.signal.welch with the settings of the acceptance test and writes one PSD value per
line (%.17e) to tests/data/welch_h1_reference.txt (average='mean') and
tests/data/welch_h1_median_reference.txt (average='median'). The header lines (starting with
'#') record the scipy/numpy versions, the settings and the input file's sha256 prefix.

Usage: python3 scripts/make_welch_reference.py [path/to/H-H1_LOSC_4_V2-1126259446-32.hdf5]
"""
import hashlib
import pathlib
import sys

import h5py
import numpy as np
import scipy
import scipy.signal

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_INPUT = ROOT.parent / "shared" / "data" / "gw150914" / "H-H1_LOSC_4_V2-1126259446-32.hdf5"
SETTINGS = dict(window="hann", nperseg=16384, noverlap=8192, detrend="constant",
                return_onesided=True, scaling="density")


def main() -> int:
    path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_INPUT
    sha = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    with h5py.File(path, "r") as f:
        strain = f["/strain/Strain"][...].astype(np.float64)
        fs = 1.0 / float(f["/strain/Strain"].attrs["Xspacing"])
    for average, name in (("mean", "welch_h1_reference.txt"),
                          ("median", "welch_h1_median_reference.txt")):
        freqs, psd = scipy.signal.welch(strain, fs=fs, average=average, **SETTINGS)
        out = ROOT / "tests" / "data" / name
        with open(out, "w") as o:
            o.write(f"# scipy.signal.welch reference made by scripts/make_welch_reference.py\n")
            o.write(f"# scipy {scipy.__version__}, numpy {np.__version__}\n")
            o.write(f"# input {path.name} /strain/Strain float64 [{strain.size}], "
                    f"sha256[:16] {sha}, fs {fs:g} Hz\n")
            o.write(f"# settings: {SETTINGS}, average='{average}'\n")
            o.write(f"# {psd.size} values of the one-sided PSD (strain^2/Hz), bin k at "
                    f"k*{freqs[1]:g} Hz\n")
            for value in psd:
                o.write(f"{value:.17e}\n")
        print(f"wrote {out} ({psd.size} values)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
