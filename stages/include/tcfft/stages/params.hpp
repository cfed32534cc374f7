// SPDX-License-Identifier: MIT
// Plain parameter structs of every stage and of the HDF5 source/sink. No YAML here: app/config
// fills these from the configuration file (defaults below are the documented defaults).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace tcfft {

/// Where the FFTs run. kAuto resolves to kGpu when a CUDA device is present.
enum class Device { kAuto, kCpu, kGpu };

/// FFT engine selection shared by the fft, ifft and welch stages.
struct FftEngineParams {
  Device device = Device::kCpu;    ///< resolved (never kAuto when a stage is built)
  std::string backend = "auto";    ///< GPU: auto | tensor-core | cufft
  std::string precision = "fp32";  ///< GPU: fp16 | fp32 (CPU path always computes in double)
  /// GPU streaming: a filter right after a Tensor Core transform is applied inside that
  /// transform's last pass (fftcore::ExecuteHooks) instead of by its own kernel.
  bool fuse = true;
  /// GPU streaming: real input stays real (R2C / C2R transforms, half spectra) wherever every
  /// fft of it is one-sided; false keeps full complex items (run.real_transforms).
  bool real_transforms = true;
};

/// numpy's norm words: backward = forward unscaled, inverse 1/n; ortho = 1/sqrt(n) both ways;
/// forward = forward 1/n, inverse unscaled.
enum class Norm { kBackward, kOrtho, kForward };

struct SourceParams {
  std::string path;                  ///< HDF5 file
  std::string dataset;               ///< dataset path in the file, e.g. /strain/Strain
  std::string items = "auto";        ///< auto | series | rows | images (see README)
  std::int64_t segment = 0;          ///< series: samples per item (0 = whole series)
  std::int64_t overlap = 0;          ///< series: overlap-save context on each side of an item
  std::int64_t rows_per_frame = 0;   ///< items per frame (0 = as many as fit frame_mb)
  double frame_mb = 64.0;            ///< target frame size when rows_per_frame is 0
  std::string on_nonfinite = "error";  ///< error | zero
  double sample_rate = 0.0;          ///< Hz; 0 = from the file (Xspacing) or 1
  double scale = 1.0;                ///< multiply samples on read (e.g. 2^69 for strain)
};

struct OutputParams {
  std::string path;        ///< the HDF5 file all sinks write into
  bool overwrite = false;  ///< replace an existing file (otherwise refused)
};

struct FftParams {
  std::string axes = "all";      ///< all: 1-D items 1-D FFT, 2-D items 2-D FFT | last: along x
  std::string window = "none";   ///< none | hann | hamming | blackman | tukey
  double tukey_alpha = 0.5;
  bool onesided = true;          ///< real input: keep n/2+1 bins along the last axis
  Norm norm = Norm::kBackward;
};

struct IfftParams {
  Norm norm = Norm::kBackward;
};

struct SpectrumParams {
  std::string output = "power";  ///< magnitude | power | db (10 log10 power)
};

struct WelchParams {
  std::int64_t segment = 256;     ///< samples per segment (nperseg)
  std::int64_t overlap = -1;      ///< samples (noverlap); -1 = segment / 2
  std::string window = "hann";    ///< hann | hamming | blackman | boxcar
  std::string average = "mean";   ///< mean | median
  std::string scaling = "density";///< density (unit^2/Hz) | spectrum (unit^2)
  std::string detrend = "constant"; ///< none | constant (scipy's default)
  bool onesided = true;
  int report_peaks = 0;           ///< list the k most prominent lines (power over local median)
};

struct FilterParams {
  std::string type = "lowpass";       ///< lowpass | highpass | bandpass | bandstop
  std::string response = "butterworth";  ///< butterworth | gaussian | file
  double cutoff = 0.0;                ///< lowpass/highpass corner, in units of sample_rate
  double low = 0.0;                   ///< bandpass/bandstop lower corner
  double high = 0.0;                  ///< bandpass/bandstop upper corner
  int order = 4;                      ///< Butterworth order
  std::int64_t taps = 0;              ///< 0: gains at the item's bins; odd >= 3: FIR form
  std::string file;                   ///< response: file -> HDF5 file ...
  std::string dataset;                ///< ... and dataset with one gain (or complex) per bin
};

struct SinkParams {
  std::string dataset;            ///< dataset path in the output file
  std::string dtype = "auto";     ///< auto (float64/complex128) | float32 | float64 | complex64 | complex128
};

using StageParams =
    std::variant<FftParams, IfftParams, SpectrumParams, WelchParams, FilterParams, SinkParams>;

/// One entry of the YAML `stages:` list.
struct StageConfig {
  std::string kind;   ///< fft | ifft | spectrum | welch | filter | sink
  int index = 0;      ///< position in the list
  StageParams params;
};

}  // namespace tcfft
