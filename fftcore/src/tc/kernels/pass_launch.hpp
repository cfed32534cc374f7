// SPDX-License-Identifier: MIT
// Host entry points of the pass kernels (kernels/*_pass_kernel.cu), callable from g++ code.
// launch_pass picks the kernel of each pass.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "tc/dram_balance.hpp"
#include "tc/pass_params.hpp"

namespace fftcore::detail::tc {

/// The A/B switches (FFTCORE_TC_FAST_PASS, _SMALL_PASS, _WARP_PASS, _COLUMN_PASS, _STOCKHAM_PASS,
/// _TALL_PASS, _PERSISTENT): on unless the variable is "0". Callers cache the answer in a
/// function-local static (read once per process).
inline bool env_switch_on(char const* name) noexcept {
  char const* v = std::getenv(name);
  return v == nullptr || std::strcmp(v, "0") != 0;
}

/// The three-way A/B switches (FFTCORE_TC_STOCKHAM_COLUMNS, _TALL_PASS): 0 when the variable is
/// "0" (the kernel off), 3 when it is "3" (every pass it can take), else 1 (the default, also
/// when unset or any other value). Callers cache it like env_switch_on's.
inline int env_mode(char const* name) noexcept {
  char const* v = std::getenv(name);
  if (v == nullptr) return 1;
  return std::strcmp(v, "0") == 0 ? 0 : std::strcmp(v, "3") == 0 ? 3 : 1;
}

/// A small non-negative integer setting (FFTCORE_TC_PREFETCH, FFTCORE_TC_LONG_PREFETCH): the
/// variable's value where it is a number from 0 to 8, else `fallback`. Callers cache it like
/// env_switch_on's.
inline int env_int(char const* name, int fallback) noexcept {
  char const* v = std::getenv(name);
  if (v == nullptr || v[0] < '0' || v[0] > '8' || v[1] != '\0') return fallback;
  return v[0] - '0';
}

/// Whether the current device is fast-DRAM (dram_balance.hpp: peak DRAM bytes per SM clock of
/// at least 16, the H200 and not the H100), where some passes take another kernel (the group
/// pass's launcher). FFTCORE_TC_FAST_DRAM (env_mode): 0 never, 3 always (A/B), else by the
/// device's attributes, read once per device ordinal (up to 64) and cached. Host code only.
inline bool fast_dram_device() noexcept {
  static int const mode = env_mode("FFTCORE_TC_FAST_DRAM");
  if (mode != 1) return mode == 3;
  constexpr int kDevices = 64;
  static std::atomic<int> cache[kDevices] = {};  // 0 unknown, 1 no, 2 yes
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return false;  // the launch reports the error
  std::atomic<int>* slot = device >= 0 && device < kDevices ? &cache[device] : nullptr;
  if (slot != nullptr) {
    if (int const known = slot->load(std::memory_order_relaxed); known != 0) return known == 2;
  }
  int memory_khz = 0;
  int bus_bits = 0;
  int sms = 0;
  int sm_khz = 0;
  if (cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, device) != cudaSuccess) {
    return false;
  }
  bool const fast =
      dram_balance::fast_dram(dram_balance::bytes_per_sm_clock(memory_khz, bus_bits, sms, sm_khz));
  if (slot != nullptr) slot->store(fast ? 2 : 1, std::memory_order_relaxed);
  return fast;
}

/// The grid of a kernel whose blocks walk its tiles grid-stride: as many blocks as stay resident
/// on the current device (the blocks per SM taken from the occupancy calculator once and kept
/// in `cache`, one per instantiation and block shape), at most `tiles`. Host code only.
template <typename Kernel>
cudaError_t resident_grid(Kernel kernel, int threads, std::size_t smem, std::atomic<int>& cache,
                          std::int64_t tiles, unsigned& grid) noexcept {
  int per_sm = cache.load(std::memory_order_relaxed);
  if (per_sm == 0) {
    cudaError_t const e =
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem);
    if (e != cudaSuccess) return e;
    per_sm = per_sm > 0 ? per_sm : 1;
    cache.store(per_sm, std::memory_order_relaxed);
  }
  int device = 0;
  int sms = 0;
  cudaError_t e = cudaGetDevice(&device);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (e != cudaSuccess) return e;
  grid = static_cast<unsigned>(std::min<std::int64_t>(tiles, std::int64_t{per_sm} * sms));
  return cudaSuccess;
}

/// Plan-time set-up on the current device: raises the dynamic shared memory limit of the
/// kernel instantiations and checks that a kernel image for this device exists.
[[nodiscard]] cudaError_t prepare_pass_kernels() noexcept;

/// Enqueues one pass on `stream`; no allocation, no synchronisation.
[[nodiscard]] cudaError_t launch_pass(PassParams const& pass, void const* src, void* dst,
                                      float2 const* coarse, float2 const* fine, bool inverse,
                                      cudaStream_t stream) noexcept;

/// Whether launch_pass may hand `pass` to the register-chained pass: fast::eligible (FP16, no
/// hooks, 256 <= L <= 4096, T L <= 2^14) unless FFTCORE_TC_FAST_PASS=0 is set. launch_pass
/// asks runs_warp_pass first (it takes the untwiddled contiguous 256-point passes).
[[nodiscard]] bool runs_fast_pass(PassParams const& pass) noexcept;

/// The register-chained pass (kernels/fast_pass_kernel.cu) for the passes fast::eligible
/// accepts; launch_pass hands those to it.
[[nodiscard]] cudaError_t prepare_fast_pass_kernels() noexcept;
[[nodiscard]] cudaError_t launch_fast_pass(PassParams const& pass, void const* src, void* dst,
                                           float2 const* coarse, float2 const* fine, bool inverse,
                                           cudaStream_t stream) noexcept;

/// Whether launch_pass hands `pass` to the short pass: small::eligible (FP16, no hooks,
/// 2 <= L <= 16) unless FFTCORE_TC_SMALL_PASS=0 is set.
[[nodiscard]] bool runs_small_pass(PassParams const& pass) noexcept;

/// The short pass (kernels/small_pass_kernel.cu), one sequence per thread on CUDA cores, for
/// the passes small::eligible accepts; launch_pass hands those to it. It needs no set-up and
/// ignores the general kernel's `threads` and `smem_bytes`.
[[nodiscard]] cudaError_t launch_small_pass(PassParams const& pass, void const* src, void* dst,
                                            float2 const* coarse, float2 const* fine, bool inverse,
                                            cudaStream_t stream) noexcept;

/// Whether launch_pass hands `pass` to the warp pass: warp_pass::eligible (FP16, no hooks, no
/// pass twiddle, 32 <= L <= 256, contiguous sequences) unless FFTCORE_TC_WARP_PASS=0 is set.
[[nodiscard]] bool runs_warp_pass(PassParams const& pass) noexcept;

/// The warp pass (kernels/warp_pass_kernel.cu), 8 lanes per sequence on CUDA cores, for the
/// passes warp_pass::eligible accepts; like the short pass it needs no set-up.
[[nodiscard]] cudaError_t launch_warp_pass(PassParams const& pass, void const* src, void* dst,
                                           float2 const* coarse, bool inverse,
                                           cudaStream_t stream) noexcept;

/// Whether launch_pass hands `pass` to the group pass: group_pass::eligible (FP16, no hooks, no
/// pass twiddle, 512 <= L <= 4096, contiguous sequences) unless FFTCORE_TC_GROUP_PASS=0 is set,
/// and on fast-DRAM devices (fast_dram_device) only at 512 and 1024 points.
[[nodiscard]] bool runs_group_pass(PassParams const& pass) noexcept;

/// The group pass (kernels/group_pass_kernel.cu), L / 16 or L / 32 lanes per sequence on CUDA
/// cores, for the passes group_pass::eligible accepts; launch_pass asks it before the Stockham
/// pass.
[[nodiscard]] cudaError_t prepare_group_pass_kernels() noexcept;
[[nodiscard]] cudaError_t launch_group_pass(PassParams const& pass, void const* src, void* dst,
                                            float2 const* coarse, bool inverse,
                                            cudaStream_t stream) noexcept;

/// Whether launch_pass hands `pass` to the column pass: column::eligible (FP16, no hooks,
/// 32 <= L <= 128 down adjacent columns, tiles of whole 32-column rounds) unless
/// FFTCORE_TC_COLUMN_PASS=0 is set.
[[nodiscard]] bool runs_column_pass(PassParams const& pass) noexcept;

/// The column pass (kernels/column_pass_kernel.cu): a lane per column, L / 16 warps per block.
[[nodiscard]] cudaError_t prepare_column_pass_kernels() noexcept;
[[nodiscard]] cudaError_t launch_column_pass(PassParams const& pass, void const* src, void* dst,
                                             float2 const* coarse, float2 const* fine, bool inverse,
                                             cudaStream_t stream) noexcept;

/// The mirror pass (kernels/mirror_pass_kernel.cu): the last pass of the 1-D R2C of 2^17..2^20
/// reals with the split in its store, and backwards (kernels/mirror_c2r_kernel.cu, `inverse`)
/// the first pass of the C2R with the split in its load (PassParams::real_mirror,
/// mirror_pass_layout.hpp). launch_pass hands it the passes with real_mirror set.
[[nodiscard]] cudaError_t prepare_mirror_pass_kernels() noexcept;
[[nodiscard]] cudaError_t launch_mirror_pass(PassParams const& pass, void const* src, void* dst,
                                             float2 const* coarse, bool inverse,
                                             cudaStream_t stream) noexcept;
[[nodiscard]] cudaError_t prepare_mirror_c2r_kernels() noexcept;
[[nodiscard]] cudaError_t launch_mirror_c2r(PassParams const& pass, void const* src, void* dst,
                                            float2 const* coarse, cudaStream_t stream) noexcept;

/// Whether launch_pass hands `pass` to the Stockham pass: stockham::eligible (FP16, no load
/// hook, no pass twiddle, 512 <= L <= 16384, contiguous sequences) unless
/// FFTCORE_TC_STOCKHAM_PASS=0 is set.
[[nodiscard]] bool runs_stockham_pass(PassParams const& pass) noexcept;
/// Whether launch_pass hands `pass` to the Stockham pass's column variant: a pass
/// stockham::columns_eligible takes (the 2-D column passes of 512..2048 points) where it
/// measured faster - 1024 and 2048 points, and the real row pairs' column FFTs - unless
/// FFTCORE_TC_STOCKHAM_COLUMNS=0 is set (3: every eligible pass).
[[nodiscard]] bool runs_stockham_columns(PassParams const& pass) noexcept;
[[nodiscard]] cudaError_t launch_stockham_columns(PassParams const& pass, void const* src,
                                                  void* dst, float2 const* coarse, bool inverse,
                                                  cudaStream_t stream) noexcept;

/// The Stockham pass (kernels/stockham_pass_kernel.cu): L / E threads per sequence (E = 16, 32
/// from L = 1024), three stages on CUDA cores.
[[nodiscard]] cudaError_t prepare_stockham_pass_kernels() noexcept;
[[nodiscard]] cudaError_t launch_stockham_pass(PassParams const& pass, void const* src, void* dst,
                                               float2 const* coarse, bool inverse,
                                               cudaStream_t stream) noexcept;

/// Whether launch_pass hands `pass` to the tall pass: tall_pass::eligible (FP16 column passes
/// of 512..4096 points over whole items of C adjacent columns, with hooks; or with pass
/// twiddles, without hooks), except the real row pairs' column FFTs of
/// 512..2048 points (prefer_stockham_columns), twiddled 512-point passes and passes of fewer
/// than 128 items, unless FFTCORE_TC_TALL_PASS=0 is set (3: every eligible pass); and, as its rows
/// form, the passes tall_pass::rows_eligible takes (the transposing last passes of two-pass 1-D
/// plans) of 2048 and 4096 points (FFTCORE_TC_TALL_ROWS: 0 none, 3 all; FFTCORE_TC_TALL_PASS=0:
/// none).
[[nodiscard]] bool runs_tall_pass(PassParams const& pass) noexcept;
/// Whether the planners may take 2^24 (complex) and the R2C's row FFTs of 2^21..2^24 points in
/// two passes: the tall pass and its rows form at 4096 points both on (FFTCORE_TC_TALL_PASS,
/// FFTCORE_TC_TALL_ROWS).
[[nodiscard]] bool tall_rows_plans_on() noexcept;
/// A pass of the two-pass real R2C or C2R (tall_real_layout.hpp: columns_eligible,
/// rows_eligible, c2r_columns_eligible, c2r_rows_eligible).
[[nodiscard]] cudaError_t launch_tall_real(PassParams const& pass, void const* src, void* dst,
                                           float2 const* coarse, float2 const* fine,
                                           cudaStream_t stream) noexcept;
/// The tall pass (kernels/tall_pass_kernel.cu): C columns x L points per block at a time in FP16
/// shared memory (C L = 2^14 on 256 threads at 512 rows, 2^15 on 512 threads from 1024);
/// cudaErrorInvalidValue for passes it does not take.
[[nodiscard]] cudaError_t prepare_tall_pass_kernels() noexcept;
[[nodiscard]] cudaError_t launch_tall_pass(PassParams const& pass, void const* src, void* dst,
                                           float2 const* coarse, float2 const* fine, bool inverse,
                                           cudaStream_t stream) noexcept;
/// Its Tensor Core stages (kernels/tall_mma_kernel.cu) for a pass retiled to the tall pass's
/// items: whether they take it (by default the unhooked untwiddled 512-row passes of 1024 items
/// and more; FFTCORE_TC_TALL_MMA=0 none, =3 every unhooked pass), and the launch.
[[nodiscard]] cudaError_t prepare_tall_mma_kernels() noexcept;
[[nodiscard]] bool runs_tall_mma(PassParams const& tiled) noexcept;
[[nodiscard]] cudaError_t launch_tall_mma(PassParams const& tiled, void const* src, void* dst,
                                          float2 const* coarse, float2 const* fine, bool inverse,
                                          cudaStream_t stream) noexcept;

/// The 2-D cross-row stage (cross_rows_layout.hpp, group_pass_kernel.cu): whether the executor
/// runs a plan's row and column passes so (by default; FFTCORE_TC_CROSS_ROWS=0 turns it off),
/// and the row pass with the stage (cross_rows::row_pass); cudaErrorNotSupported where the
/// pointers or the tiles do not allow it (the executor then runs the plan's own passes).
[[nodiscard]] bool runs_cross_rows(PassParams const& rows, PassParams const& cols) noexcept;
[[nodiscard]] cudaError_t launch_cross_rows(PassParams const& pass, void const* src, void* dst,
                                            float2 const* coarse, bool inverse,
                                            cudaStream_t stream) noexcept;

/// The long pass (kernels/long_pass_kernel.cu): the 32768-point passes long_pass::eligible
/// accepts (cudaErrorInvalidValue for the others), one sequence per 512-thread block in FP16
/// shared memory. No other kernel takes that length, so it has no A/B switch
/// (FFTCORE_TC_SPLIT=7,8 gives the two-pass plan instead).
[[nodiscard]] cudaError_t prepare_long_pass_kernels() noexcept;
[[nodiscard]] cudaError_t launch_long_pass(PassParams const& pass, void const* src, void* dst,
                                           float2 const* coarse, bool inverse,
                                           cudaStream_t stream) noexcept;

}  // namespace fftcore::detail::tc
