// SPDX-License-Identifier: MIT
// The split kernels of the real transforms: a grid-stride loop over items (row, j), j < M/2
// (or 1 when M = 1), each item one mirrored pair (k = j, M - j) of real_split.hpp; item 0
// does the ends (k = 0, M) and the middle (k = M/2). Arithmetic in FP32. The FP16 splits of
// M >= 2^11 points run the staged forms instead (split_forward_staged_kernel,
// split_inverse_staged_kernel): runs of 1024 pairs through shared memory, so that the global
// accesses are 16 bytes wide.
#include "tc/real_transform.hpp"

#include "tc/kernels/chained_launch.cuh"
#include "tc/kernels/half_words.cuh"
#include "tc/real_split.hpp"

#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>

namespace fftcore::detail::tc {
namespace {

constexpr unsigned kThreads = 256;
constexpr std::int64_t kMaxBlocks = std::int64_t{1} << 20;  // grid-stride covers the rest

__device__ inline float2 load(__half2 const* p) { return __half22float2(*p); }
__device__ inline float2 load(float2 const* p) { return *p; }
__device__ inline void store(__half2* p, float2 v) { *p = __float22half2_rn(v); }
__device__ inline void store(float2* p, float2 v) { *p = v; }

/// Items per row: M/2 (a pair each; item 0 has the ends and the middle), 1 when M = 1.
__device__ inline int log_items(int log_m) { return log_m > 0 ? log_m - 1 : 0; }

/// Row and pair index of item i (2^log_i items per row).
struct Item {
  std::int64_t row;
  std::uint32_t j;
};
__device__ inline Item item_of(std::int64_t i, int log_i) {
  return {i >> log_i, static_cast<std::uint32_t>(i & ((std::int64_t{1} << log_i) - 1))};
}

/// W^k = exp(-i pi k / M) by the MUFU sine and cosine: ~4e-7 absolute for every k < M <= 2^26
/// (the argument's rounding included), far below the FP16 rounding of the outputs, and ~10
/// instructions instead of sincospif's ~40 (the split kernel runs at the memory's pace then).
__device__ inline float2 fast_twiddle(std::uint32_t k, int log_m) {
  float2 w;
  __sincosf(static_cast<float>(k) * (-3.14159265358979323846f / static_cast<float>(1u << log_m)),
            &w.y, &w.x);
  return w;
}

template <class In, class Out>
__global__ void split_forward_kernel(In const* z, Out* x, std::int64_t rows, int log_m, float f) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  int const log_i = log_items(log_m);
  std::uint32_t const m = 1u << log_m;
  std::int64_t const items = rows << log_i;
  std::int64_t const stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < items;
       i += stride) {
    auto const [row, j] = item_of(i, log_i);
    In const* zr = z + row * m;
    Out* xr = x + row * (m + 1);
    if (j == 0) {
      float2 x0, xm;
      split_forward_ends(load(zr), f, x0, xm);
      store(xr, x0);
      store(xr + m, xm);
      if (m >= 2) store(xr + m / 2, split_forward_middle(load(zr + m / 2), f));
    } else {
      float2 xk, xmk;
      split_forward_pair(load(zr + j), load(zr + (m - j)), fast_twiddle(j, log_m), f, xk, xmk);
      store(xr + j, xk);
      store(xr + (m - j), xmk);
    }
  }
}

/// The staged R2C split (FP16 Z and X): block b of a row takes the B = 1024 pairs j = J .. J +
/// B - 1 (J = B (b mod chunks)), reads Z[J .. J + B) and Z[M - J - B .. M - J] in 16-byte words
/// into shared memory, computes the pairs there (4 a thread) and stores its two runs of X,
/// X[J .. J + B) and X[M - J - B + 1 .. M - J], from shared memory laid out on the 16-byte grid
/// of the addresses: 16-byte accesses throughout but for the runs' first and last groups. The
/// plain kernel moves one 4-byte word per access, two loads in flight a thread, its warps'
/// stores one to three words off the sector grid. Same DRAM bytes (ncu, H200, R2C of 2^23 reals:
/// 537 MB read, 510-517 MB written by either), 333 -> 257 us (4.1 TB/s, the copy's rate);
/// the R2C of 2^23..2^27 reals 1.244-1.251 -> 1.177-1.185 ms at 2^23, 1.616-1.630 ->
/// 1.551-1.558 at 2^27 (per 2^28 reals; fftcore/NOTES.md, session 47).
constexpr int kStagedThreads = 256;
constexpr int kLogStagedPairs = 10;  // B
constexpr int kStagedPairs = 1 << kLogStagedPairs;
constexpr int kStagedGroups = kStagedPairs / 4;  // 16-byte words of a run
static_assert(kStagedGroups == kStagedThreads, "one 16-byte word of each run per thread");

/// Where a run of X starting at `p` lies on the 16-byte grid: its first word's offset in its
/// group (0..3).
__device__ inline int grid_offset(__half2 const* p) {
  return static_cast<int>((reinterpret_cast<std::uintptr_t>(p) >> 2) & 3);
}

/// Stores the run of `count` (<= B) words staged in `words` at offsets shift .. shift + count - 1
/// to `dst` .., one 16-byte group per thread (group kStagedGroups, where the run reaches it, by
/// thread 0); the run's first and last groups, partly outside it, word by word.
__device__ inline void store_run(std::uint32_t const* words, __half2* dst, int shift,
                                 int count = kStagedPairs) {
  auto* const base = reinterpret_cast<std::uint32_t*>(dst) - shift;
  int const t = static_cast<int>(threadIdx.x);
  auto const group = [&](int g) {
    int const w0 = 4 * g;
    if (w0 >= shift && w0 + 4 <= shift + count) {
      uint4 const v = reinterpret_cast<uint4 const*>(words)[g];
      *reinterpret_cast<uint4*>(base + w0) = v;
    } else {
      for (int w = w0; w < w0 + 4; ++w) {
        if (w >= shift && w < shift + count) base[w] = words[w];
      }
    }
  };
  group(t);
  if (t == 0 && shift + count > 4 * kStagedGroups) group(kStagedGroups);
}

/// The loads of store_run, for two runs at once: the run of `count_a` words at `src_a` into
/// `words_a` at offsets shift_a .., likewise b; whole 16-byte groups where they lie inside the
/// run, both runs' issued before either is stored to shared memory (two loads in flight a
/// thread: with one run after the other, ptxas waited for each load before the next, and the
/// C2R split took 324-331 us, now 280-281, against the R2C's 255-257; ncu, H200, 2^28 reals),
/// the partial groups word by word (no read outside a run).
__device__ inline void load_runs(std::uint32_t* words_a, __half2 const* src_a, int shift_a,
                                 int count_a, std::uint32_t* words_b, __half2 const* src_b,
                                 int shift_b, int count_b) {
  auto const* const base_a = reinterpret_cast<unsigned int const*>(src_a) - shift_a;
  auto const* const base_b = reinterpret_cast<unsigned int const*>(src_b) - shift_b;
  int const t = static_cast<int>(threadIdx.x);
  int const w0 = 4 * t;
  bool const full_a = w0 >= shift_a && w0 + 4 <= shift_a + count_a;
  bool const full_b = w0 >= shift_b && w0 + 4 <= shift_b + count_b;
  uint4 va = make_uint4(0, 0, 0, 0), vb = make_uint4(0, 0, 0, 0);
  if (full_a) va = __ldg(reinterpret_cast<uint4 const*>(base_a + w0));
  if (full_b) vb = __ldg(reinterpret_cast<uint4 const*>(base_b + w0));
  if (full_a) reinterpret_cast<uint4*>(words_a)[t] = va;
  if (full_b) reinterpret_cast<uint4*>(words_b)[t] = vb;
  auto const partial = [](std::uint32_t* words, unsigned int const* base, int shift, int count,
                          int g) {
    for (int w = 4 * g; w < 4 * g + 4; ++w) {
      if (w >= shift && w < shift + count) words[w] = __ldg(base + w);
    }
  };
  if (!full_a) partial(words_a, base_a, shift_a, count_a, t);
  if (!full_b) partial(words_b, base_b, shift_b, count_b, t);
  if (t == 0) {
    int const g = kStagedGroups;  // the runs' last words past 4 B - shift
    if (shift_a + count_a > 4 * g) partial(words_a, base_a, shift_a, count_a, g);
    if (shift_b + count_b > 4 * g) partial(words_b, base_b, shift_b, count_b, g);
  }
}

/// The block's row and first pair J of a staged split (M / 2B blocks a row), and M.
struct StagedChunk {
  std::int64_t row;
  std::uint32_t j0;
  std::uint32_t m;
};
__device__ inline StagedChunk staged_chunk(int log_m) {
  int const log_chunks = log_m - 1 - kLogStagedPairs;
  return {static_cast<std::int64_t>(blockIdx.x) >> log_chunks,
          (blockIdx.x & ((1u << log_chunks) - 1)) << kLogStagedPairs, 1u << log_m};
}

__global__ void __launch_bounds__(kStagedThreads)
    split_forward_staged_kernel(__half2 const* z, __half2* x, int log_m, float f) {
  // Inputs: Z[J .. J + B), Z[M - J - B .. M - J] (the last word: Z[M - J], J > 0). Outputs: the
  // runs on the 16-byte grid, one group more than B words for the offset.
  __shared__ __align__(16) std::uint32_t in_f[kStagedPairs];
  __shared__ __align__(16) std::uint32_t in_m[kStagedPairs + 4];
  __shared__ __align__(16) std::uint32_t out_f[kStagedPairs + 4];
  __shared__ __align__(16) std::uint32_t out_m[kStagedPairs + 4];
  auto const [row, j0, m] = staged_chunk(log_m);
  __half2 const* zr = z + row * m;
  __half2* xr = x + row * (m + 1);
  int const t = static_cast<int>(threadIdx.x);
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  reinterpret_cast<uint4*>(in_f)[t] = __ldg(reinterpret_cast<uint4 const*>(zr + j0) + t);
  reinterpret_cast<uint4*>(in_m)[t] =
      __ldg(reinterpret_cast<uint4 const*>(zr + (m - j0 - kStagedPairs)) + t);
  if (t == 0 && j0 > 0) {
    in_m[kStagedPairs] = __ldg(reinterpret_cast<unsigned int const*>(zr + (m - j0)));
  }
  __syncthreads();
  __half2* const run_f = xr + j0;                             // X[J ..]
  __half2* const run_m = xr + (m - j0 - kStagedPairs + 1);    // X[M - J - B + 1 ..]
  int const shift_f = grid_offset(run_f);
  int const shift_m = grid_offset(run_m);
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    int const p = t + i * kStagedThreads;  // pair j = J + p; Z[M - j] is in_m[B - p]
    std::uint32_t const j = j0 + static_cast<std::uint32_t>(p);
    float2 xk, xmk;
    if (j == 0) {
      split_forward_ends(unpack_word(in_f[0]), f, xk, xmk);
      xr[m / 2] = __float22half2_rn(split_forward_middle(__half22float2(zr[m / 2]), f));
    } else {
      split_forward_pair(unpack_word(in_f[p]), unpack_word(in_m[kStagedPairs - p]),
                         fast_twiddle(j, log_m), f, xk, xmk);
    }
    out_f[shift_f + p] = pack_word(xk);
    out_m[shift_m + kStagedPairs - 1 - p] = pack_word(xmk);  // X[M - j]
  }
  __syncthreads();
  store_run(out_f, run_f, shift_f);
  store_run(out_m, run_m, shift_m);
}

/// The staged C2R split (FP16 X and Z), the forward kernel backwards: block b of a row reads the
/// runs X[J .. J + B) and X[M - J - B + 1 .. M - J] (rows of M + 1 words, so off the 16-byte
/// grid: load_runs), computes the pairs in shared memory and stores Z[J .. J + B) and
/// Z[M - J - B + 1 .. M - J] (J = 0: up to Z[M - 1]; Z[0] and Z[M / 2] are item 0's).
__global__ void __launch_bounds__(kStagedThreads)
    split_inverse_staged_kernel(__half2 const* x, __half2* z, int log_m, float f) {
  __shared__ __align__(16) std::uint32_t in_f[kStagedPairs + 4];
  __shared__ __align__(16) std::uint32_t in_m[kStagedPairs + 4];
  __shared__ __align__(16) std::uint32_t out_f[kStagedPairs + 4];
  __shared__ __align__(16) std::uint32_t out_m[kStagedPairs + 4];
  auto const [row, j0, m] = staged_chunk(log_m);
  __half2 const* xr = x + row * (m + 1);
  __half2* zr = z + row * m;
  int const t = static_cast<int>(threadIdx.x);
  __half2 const* const in_run_f = xr + j0;                           // X[J ..]
  __half2 const* const in_run_m = xr + (m - j0 - kStagedPairs + 1);  // X[M - J - B + 1 ..]
  __half2* const out_run_f = zr + j0;
  __half2* const out_run_m = zr + (m - j0 - kStagedPairs + 1);
  int const in_shift_f = grid_offset(in_run_f), in_shift_m = grid_offset(in_run_m);
  int const out_shift_f = grid_offset(out_run_f), out_shift_m = grid_offset(out_run_m);
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  load_runs(in_f, in_run_f, in_shift_f, kStagedPairs, in_m, in_run_m, in_shift_m, kStagedPairs);
  __syncthreads();
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    int const p = t + i * kStagedThreads;  // pair j = J + p; X[M - j] is in_m[.. + B - 1 - p]
    std::uint32_t const j = j0 + static_cast<std::uint32_t>(p);
    float2 const a = unpack_word(in_f[in_shift_f + p]);
    float2 const b = unpack_word(in_m[in_shift_m + kStagedPairs - 1 - p]);
    if (j == 0) {
      out_f[out_shift_f] = pack_word(split_inverse_ends(a, b, f));
      zr[m / 2] = __float22half2_rn(split_inverse_middle(__half22float2(xr[m / 2]), f));
    } else {
      float2 zk, zmk;
      split_inverse_pair(a, b, fast_twiddle(j, log_m), f, zk, zmk);
      out_f[out_shift_f + p] = pack_word(zk);
      out_m[out_shift_m + kStagedPairs - 1 - p] = pack_word(zmk);  // Z[M - j]
    }
  }
  __syncthreads();
  store_run(out_f, out_run_f, out_shift_f);
  store_run(out_m, out_run_m, out_shift_m, j0 == 0 ? kStagedPairs - 1 : kStagedPairs);
}

template <class In, class Out>
__global__ void split_inverse_kernel(In const* x, Out* z, std::int64_t rows, int log_m, float f) {
  chain_prologue();  // programmatic dependent launch (chained_launch.cuh)
  int const log_i = log_items(log_m);
  std::uint32_t const m = 1u << log_m;
  std::int64_t const items = rows << log_i;
  std::int64_t const stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < items;
       i += stride) {
    auto const [row, j] = item_of(i, log_i);
    In const* xr = x + row * (m + 1);
    Out* zr = z + row * m;
    if (j == 0) {
      store(zr, split_inverse_ends(load(xr), load(xr + m), f));
      if (m >= 2) store(zr + m / 2, split_inverse_middle(load(xr + m / 2), f));
    } else {
      float2 zk, zmk;
      split_inverse_pair(load(xr + j), load(xr + (m - j)), fast_twiddle(j, log_m), f, zk, zmk);
      store(zr + j, zk);
      store(zr + (m - j), zmk);
    }
  }
}

unsigned grid_for(SplitArgs const& a) noexcept {
  std::int64_t const items = a.rows << (a.log_m > 0 ? a.log_m - 1 : 0);
  return static_cast<unsigned>(std::min((items + kThreads - 1) / kThreads, kMaxBlocks));
}

template <template <class, class> class Launch>
cudaError_t dispatch(SplitArgs const& a, void const* src, void* dst, cudaStream_t stream) {
  if (a.rows <= 0) return cudaSuccess;
  unsigned const grid = grid_for(a);
  if (a.in_fp32 && a.out_fp32) {
    return Launch<float2, float2>::run(grid, stream, src, dst, a);
  }
  if (a.in_fp32) return Launch<float2, __half2>::run(grid, stream, src, dst, a);
  if (a.out_fp32) return Launch<__half2, float2>::run(grid, stream, src, dst, a);
  return Launch<__half2, __half2>::run(grid, stream, src, dst, a);
}

template <class In, class Out>
struct Forward {
  static cudaError_t run(unsigned grid, cudaStream_t stream, void const* src, void* dst,
                         SplitArgs const& a) {
    return launch_chained(split_forward_kernel<In, Out>, grid, kThreads, 0, stream,
                          static_cast<In const*>(src), static_cast<Out*>(dst), a.rows, a.log_m,
                          a.factor);
  }
};

template <class In, class Out>
struct Inverse {
  static cudaError_t run(unsigned grid, cudaStream_t stream, void const* src, void* dst,
                         SplitArgs const& a) {
    return launch_chained(split_inverse_kernel<In, Out>, grid, kThreads, 0, stream,
                          static_cast<In const*>(src), static_cast<Out*>(dst), a.rows, a.log_m,
                          a.factor);
  }
};

/// The staged kernels' grid (M / 2B blocks a row), or 0 where they do not apply: FP16 on both
/// sides, M >= 2^11, args.staged, FFTCORE_TC_SPLIT_STAGED not 0 (A/B), a grid that fits.
unsigned staged_blocks(SplitArgs const& args) noexcept {
  static bool const staged_on = env_switch_on("FFTCORE_TC_SPLIT_STAGED");
  if (!staged_on || !args.staged || args.in_fp32 || args.out_fp32 ||
      args.log_m <= kLogStagedPairs || args.rows <= 0) {
    return 0;
  }
  std::int64_t const blocks = args.rows << (args.log_m - 1 - kLogStagedPairs);
  return blocks <= std::int64_t{0x7fffffff} ? static_cast<unsigned>(blocks) : 0;
}

}  // namespace

cudaError_t launch_split_forward(SplitArgs const& args, void const* z, void* x,
                                 cudaStream_t stream) noexcept {
  // The staged kernel reads Z in 16-byte words from the row starts: Z 16-byte aligned.
  if (unsigned const blocks = staged_blocks(args);
      blocks > 0 && reinterpret_cast<std::uintptr_t>(z) % 16 == 0) {
    return launch_chained(split_forward_staged_kernel, blocks, kStagedThreads, 0, stream,
                          static_cast<__half2 const*>(z), static_cast<__half2*>(x), args.log_m,
                          args.factor);
  }
  return dispatch<Forward>(args, z, x, stream);
}

cudaError_t launch_split_inverse(SplitArgs const& args, void const* x, void* z,
                                 cudaStream_t stream) noexcept {
  if (unsigned const blocks = staged_blocks(args); blocks > 0) {
    return launch_chained(split_inverse_staged_kernel, blocks, kStagedThreads, 0, stream,
                          static_cast<__half2 const*>(x), static_cast<__half2*>(z), args.log_m,
                          args.factor);
  }
  return dispatch<Inverse>(args, x, z, stream);
}

}  // namespace fftcore::detail::tc
