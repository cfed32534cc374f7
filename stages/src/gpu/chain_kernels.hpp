// SPDX-License-Identifier: MIT
// Private: the element-wise kernels of the GPU chain (chain_kernels.cu), behind host-callable
// launchers that take plain argument structs. Every launcher only enqueues on `stream` (no
// allocation, no host synchronisation) and throws CudaError when the launch fails.
//
// Working layouts (WorkView): one frame as rows x ny lines of `pitch` elements each, lines
// contiguous, of one of two element kinds:
//   complex (__half2 or float2): the full item, pitch nx (complex input, or a chain that keeps
//            the full spectrum; sinks gather a one-sided spectrum's bins from it), or the
//            half spectrum of a real transform, pitch nx/2 + 1;
//   real    (__half or float):   real time-domain samples, pitch nx (the input and output of
//            the chain's R2C / C2R transforms).
#pragma once

#include <tcfft/core/host_device.hpp>
#include <tcfft/gpu/sample_convert.hpp>
#include <tcfft/stages/filter_response.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>

namespace tcfft::gpu::detail {

/// Per-frame words the kernels leave for the host (downloaded with the results).
struct StatusWords {
  unsigned long long max_abs_bits = 0;  ///< bits of the largest finite |re|, |im| (a double >= 0)
  unsigned long long first_bad = ~0ull; ///< smallest index of a non-finite sample, ~0 for none
  unsigned long long replaced = 0;      ///< non-finite samples replaced by 0
};
constexpr unsigned long long kNoBadSample = ~0ull;

/// What one step's elements are: real or complex, and how many of them make one line.
struct WorkView {
  bool real = false;
  std::int64_t pitch = 0;  ///< elements per line of the item; 0 = nx (the full line)
  /// Elements per line for items whose full line has `nx` elements.
  [[nodiscard]] TCFFT_HD constexpr std::int64_t line(std::int64_t nx) const noexcept {
    return pitch > 0 ? pitch : nx;
  }
};

/// Resets `status` to "nothing seen".
void launch_reset_status(StatusWords* status, cudaStream_t stream);

/// Max |x| over the finite samples and the first non-finite index (floating dtypes only).
void launch_scan(RawDtype dtype, void const* raw, std::int64_t count, StatusWords* status,
                 cudaStream_t stream);

struct ConvertArgs {
  RawDtype dtype = RawDtype::kFloat32;
  void const* raw = nullptr;   ///< `count` samples of the frame (device)
  std::int64_t count = 0;      ///< samples read from the file for this frame
  std::int64_t total = 0;      ///< working elements of a full frame; [count, total) become 0
  void* work = nullptr;        ///< total elements of __half2 / float2 (__half / float if real)
  bool half = false;
  bool real = false;           ///< store the real part only (real dtypes: a real layout)
  float const* window = nullptr;  ///< nx values along the last axis, or null
  std::int64_t nx = 1;
  bool dynamic = false;        ///< scale by 2^-unit_exponent(status max) (floating dtypes)
  int exponent = 0;            ///< otherwise scale by 2^-exponent
  bool zero_nonfinite = false; ///< count replaced samples (they become 0 in any case)
  StatusWords* status = nullptr;
};
/// work[i] = window[i % nx] * 2^-e * raw[i] (complex; real dtypes give (x, 0), or x when
/// `real`).
void launch_convert(ConvertArgs const& args, cudaStream_t stream);

enum class GainMode { kParametric, kComplexTable, kRealTable };

struct GainArgs {
  void* work = nullptr;
  bool half = false;
  std::int64_t total = 0;       ///< elements to multiply
  WorkView view;                ///< what the elements are (a half spectrum: pitch nx/2 + 1)
  GainMode mode = GainMode::kParametric;
  std::int64_t table_pitch = 0; ///< table entries per line y of an item: element (y, x) of an
                                ///< item takes table[y * table_pitch + x] (0: one line, a
                                ///< window or FIR gains of nx values)
  void const* table = nullptr;  ///< float2 (complex table) or float (real table)
  stages::ResponseParams response;  ///< kParametric: the filter_response.hpp gain
  std::int64_t nx = 1;          ///< full spectrum: bins along the last axis (= time_length)
  std::int64_t ny = 1;
  std::int64_t time_rows = 0;   ///< > 0: radial frequency of 2-D transforms
  double sample_rate = 1.0;
};
/// work[i] *= gain(i) (the Hermitian-symmetric gain on the full spectrum, or on the bins
/// 0..nx/2 of a half spectrum).
void launch_gain(GainArgs const& args, cudaStream_t stream);

/// work[i] = (re, 0): the time-domain result of an inverse of a one-sided spectrum.
void launch_realify(void* work, bool half, std::int64_t total, cudaStream_t stream);

struct SinkArgs {
  void const* work = nullptr;
  bool half = false;
  std::int64_t rows = 0;     ///< items in this frame
  std::int64_t ny = 1;       ///< working item: ny x nx
  std::int64_t nx = 1;
  WorkView view;             ///< what `work` holds
  std::int64_t bins = 1;     ///< stored along the last axis: nx, or nx/2 + 1 one-sided
  std::int64_t context = 0;  ///< overlap-save (ny 1, bins nx): store only each item's core,
                             ///< bins - 2 context samples from `context` on (frame.hpp)
  OutDtype out = OutDtype::kFloat64;
  void* dst = nullptr;       ///< rows * ny * (bins - 2 context) elements of `out`
  ElementOp op = ElementOp::kNone;
  bool take_real = false;
  double factor = 1.0;       ///< undoes the static scales (input, FFT, norm)
  bool dynamic = false;      ///< also multiply by 2^unit_exponent(status max)
  int exponent = 0;          ///< otherwise by 2^exponent
  StatusWords const* status = nullptr;
};
/// dst[o] = op(factor * 2^e * work[gathered o]) converted to `out`.
void launch_sink(SinkArgs const& args, cudaStream_t stream);

}  // namespace tcfft::gpu::detail
