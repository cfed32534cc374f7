// SPDX-License-Identifier: MIT
// l2_chain_probe: can a two-pass transform (a 2-D FFT: row pass, then column pass) keep its
// intermediate in the 50 MB L2 and move the DRAM bytes of one pass? The access patterns of the
// two passes, without their arithmetic, over 1 GiB of W x W images of 4-byte words:
//  - phase A (the row pass): items of 32768 adjacent words, thread j of 512 reads words
//    j + 512 i (i < 64; a warp on 128 adjacent bytes a load) and writes them, FP16 sign bits
//    flipped, at the same places of the workspace;
//  - phase B (the column pass): items of C = 32768 / W adjacent columns x W rows of one image,
//    thread j on column j mod C and rows j / C + (512 / C) i (a warp on runs of 4 C bytes, as
//    the tall pass's loads; column_probe measured these runs alone), from the workspace to the
//    output, flipped back: the output equals the input.
// "two launches": phase A over the whole batch into a 1 GiB workspace, then phase B (the plans
// as they run now: the intermediate goes to DRAM and back). "chained": one cooperative grid
// (one block of 512 threads per SM, as the tall pass) takes the batch in chunks of whole images:
// phase A of a chunk into a chunk-sized workspace, a grid barrier, phase B, a grid barrier; the
// workspace is reused by every chunk, so it can stay in L2. "pipelined": two workspaces, phase B
// of chunk k and phase A of chunk k + 1 between the same two barriers (one barrier a chunk).
// "streaming": the input read and the output written with evict-first hints (__ldcs, __stcs),
// the workspace plain. "two launches, tiled intermediate": as "two launches", but phase A writes
// each image into the workspace as bands of C columns, each band's W rows x C words adjacent
// (a row's words go out in runs of C words, one run a band), so that phase B reads each of its
// items as 32768 adjacent words and writes its runs of C words to the output as before: the
// narrow runs move from the column pass's reads to the row pass's writes (session 36). Times are
// the best of five after two warm-ups, against cudaMemcpy of the 1 GiB in the same run; every
// variant's output is checked against the input (a barrier that let phase B read a stale workspace
// fails the check). fftcore/NOTES.md, sessions 35 and 36.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "probe_support.hpp"

namespace {

constexpr int kThreads = 512;
constexpr int kWords = 64;                       // words a thread and item
constexpr long kItem = long{kThreads} * kWords;  // 32768 words (128 KiB) an item
constexpr long kTotal = 1L << 28;                // words (1 GiB)
constexpr std::uint32_t kFlip = 0x80008000u;     // FP16 sign bits of both halves
constexpr std::size_t kSmem = 130 * 1024;        // one block per SM, as the tall pass's

/// Loads and stores, plain or with the evict-first (streaming) hints.
template <bool kStreaming>
__device__ __forceinline__ std::uint32_t load(std::uint32_t const* p) {
  if constexpr (kStreaming) {
    return __ldcs(p);
  } else {
    return *p;
  }
}
template <bool kStreaming>
__device__ __forceinline__ void store(std::uint32_t* p, std::uint32_t v) {
  if constexpr (kStreaming) {
    __stcs(p, v);
  } else {
    *p = v;
  }
}

/// Phase A item w of [from, to): 32768 adjacent words, flipped, to the same places.
template <bool kStreamIn>
__device__ __forceinline__ void row_item(std::uint32_t const* from, std::uint32_t* to, long w) {
  std::uint32_t r[kWords];
  long const base = w * kItem + threadIdx.x;
#pragma unroll
  for (int i = 0; i < kWords; ++i) r[i] = load<kStreamIn>(from + base + i * kThreads);
#pragma unroll
  for (int i = 0; i < kWords; ++i) to[base + i * kThreads] = r[i] ^ kFlip;
}

/// Phase B item w of images of 2^log_w x 2^log_w words: band w mod (W / C) of image w / (W / C),
/// C = 32768 / W columns of all W rows, flipped back, to the same places.
template <bool kStreamOut>
__device__ __forceinline__ void column_item(std::uint32_t const* from, std::uint32_t* to, long w,
                                            int log_w) {
  int const log_c = 15 - log_w;
  long const bands = 1L << (log_w - log_c);
  int const c = static_cast<int>(threadIdx.x) & ((1 << log_c) - 1);
  int const r0 = static_cast<int>(threadIdx.x) >> log_c;
  long const step = (long{kThreads} >> log_c) << log_w;  // rows between a thread's words
  long const base =
      ((w / bands) << (2 * log_w)) + ((w % bands) << log_c) + (static_cast<long>(r0) << log_w) + c;
  std::uint32_t r[kWords];
#pragma unroll
  for (int i = 0; i < kWords; ++i) r[i] = from[base + i * step];
#pragma unroll
  for (int i = 0; i < kWords; ++i) store<kStreamOut>(to + base + i * step, r[i] ^ kFlip);
}

/// The workspace word of image word (r, col) of an image of 2^log_w x 2^log_w words, in bands
/// of C = 32768 / W columns: band col / C, then row r, then col mod C.
__device__ __forceinline__ long tiled_offset(long r, long col, int log_w) {
  int const log_c = 15 - log_w;
  return ((col >> log_c) << (log_w + log_c)) + (r << log_c) + (col & ((1L << log_c) - 1));
}

/// Phase A item w into the banded workspace: the item's rows, word (r, col) of image i to
/// image i's band layout.
__device__ __forceinline__ void row_item_tiled(std::uint32_t const* from, std::uint32_t* to, long w,
                                               int log_w) {
  std::uint32_t r[kWords];
  long const base = w * kItem + threadIdx.x;
#pragma unroll
  for (int i = 0; i < kWords; ++i) r[i] = from[base + i * kThreads];
  long const mask = (1L << log_w) - 1;
#pragma unroll
  for (int i = 0; i < kWords; ++i) {
    long const p = base + i * kThreads;
    long const image = p >> (2 * log_w);
    to[(image << (2 * log_w)) + tiled_offset((p >> log_w) & mask, p & mask, log_w)] = r[i] ^ kFlip;
  }
}

/// Phase B item w (band w mod (W / C) of image w / (W / C)) from the banded workspace: 32768
/// adjacent words, thread j on words j + 512 i (row q / C, column q mod C of the band), to their
/// places in the output.
__device__ __forceinline__ void column_item_tiled(std::uint32_t const* from, std::uint32_t* to,
                                                  long w, int log_w) {
  int const log_c = 15 - log_w;
  long const bands = 1L << (log_w - log_c);
  long const image = w / bands;
  long const band = w % bands;
  long const base = w * kItem + threadIdx.x;  // bands are kItem words, images bands x kItem
  std::uint32_t r[kWords];
#pragma unroll
  for (int i = 0; i < kWords; ++i) r[i] = from[base + i * kThreads];
#pragma unroll
  for (int i = 0; i < kWords; ++i) {
    long const q = threadIdx.x + i * kThreads;
    long const at = (image << (2 * log_w)) + ((q >> log_c) << log_w) + (band << log_c) +
                    (q & ((1L << log_c) - 1));
    to[at] = r[i] ^ kFlip;
  }
}

__global__ void __launch_bounds__(kThreads)
    rows_all_tiled(std::uint32_t const* in, std::uint32_t* ws, int log_w) {
  for (long w = blockIdx.x; w < kTotal / kItem; w += gridDim.x) row_item_tiled(in, ws, w, log_w);
}

__global__ void __launch_bounds__(kThreads)
    columns_all_tiled(std::uint32_t const* ws, std::uint32_t* out, int log_w) {
  for (long w = blockIdx.x; w < kTotal / kItem; w += gridDim.x) {
    column_item_tiled(ws, out, w, log_w);
  }
}

__global__ void __launch_bounds__(kThreads) rows_all(std::uint32_t const* in, std::uint32_t* ws) {
  for (long w = blockIdx.x; w < kTotal / kItem; w += gridDim.x) row_item<false>(in, ws, w);
}

__global__ void __launch_bounds__(kThreads)
    columns_all(std::uint32_t const* ws, std::uint32_t* out, int log_w) {
  for (long w = blockIdx.x; w < kTotal / kItem; w += gridDim.x) {
    column_item<false>(ws, out, w, log_w);
  }
}

/// Every block of the (co-resident) grid past the point, all their earlier writes visible: a
/// counter zeroed before the launch, each barrier's target one grid further.
__device__ __forceinline__ void grid_barrier(unsigned* counter, unsigned& target) {
  __syncthreads();
  target += gridDim.x;
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(counter, 1u);
    unsigned seen = 0;
    do {
      asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(counter) : "memory");
    } while (seen < target);
    __threadfence();
  }
  __syncthreads();
}

/// The chained grid: chunks of 2^log_chunk words (whole images); kPipelined: two workspaces, one
/// barrier a chunk; kStreaming: evict-first hints on the input and the output.
template <bool kPipelined, bool kStreaming>
__global__ void __launch_bounds__(kThreads)
    chained(std::uint32_t const* in, std::uint32_t* ws, std::uint32_t* out, int log_w,
            int log_chunk, unsigned* counter) {
  long const chunk = 1L << log_chunk;
  long const items = chunk / kItem;  // a chunk's items, in either phase
  long const chunks = kTotal / chunk;
  unsigned target = 0;
  if constexpr (!kPipelined) {
    for (long k = 0; k < chunks; ++k) {
      for (long w = blockIdx.x; w < items; w += gridDim.x) {
        row_item<kStreaming>(in + k * chunk, ws, w);
      }
      grid_barrier(counter, target);
      for (long w = blockIdx.x; w < items; w += gridDim.x) {
        column_item<kStreaming>(ws, out + k * chunk, w, log_w);
      }
      grid_barrier(counter, target);  // before the next chunk's phase A overwrites ws
    }
  } else {
    for (long k = 0; k <= chunks; ++k) {
      // Phase B of chunk k - 1 (workspace (k - 1) mod 2), phase A of chunk k (workspace k mod 2).
      if (k > 0) {
        std::uint32_t const* from = ws + ((k - 1) & 1) * chunk;
        for (long w = blockIdx.x; w < items; w += gridDim.x) {
          column_item<kStreaming>(from, out + (k - 1) * chunk, w, log_w);
        }
      }
      if (k < chunks) {
        std::uint32_t* to = ws + (k & 1) * chunk;
        for (long w = blockIdx.x; w < items; w += gridDim.x) {
          row_item<kStreaming>(in + k * chunk, to, w);
        }
      }
      grid_barrier(counter, target);
    }
  }
}

/// Whether out holds in (word i = i * 2654435761), after a fresh run into a zeroed output; 4096
/// words spread over the batch.
int check_output(std::uint32_t const* out) {
  static std::uint32_t host[4096];
  for (int k = 0; k < 4096; ++k) {
    long const i = (static_cast<long>(k) * 65537 * 997) % kTotal;
    CK(cudaMemcpy(host + k, out + i, 4, cudaMemcpyDeviceToHost));
    std::uint32_t const want = static_cast<std::uint32_t>(i) * 2654435761u;
    if (host[k] != want) {
      std::printf("word %ld is %08x, expected %08x\n", i, host[k], want);
      return 1;
    }
  }
  return 0;
}

__global__ void fill(std::uint32_t* in) {
  for (long i = blockIdx.x * long{blockDim.x} + threadIdx.x; i < kTotal;
       i += long{gridDim.x} * blockDim.x) {
    in[i] = static_cast<std::uint32_t>(i) * 2654435761u;
  }
}

struct Buffers {
  std::uint32_t* in;
  std::uint32_t* out;
  std::uint32_t* ws;  // 1 GiB (two launches) or two chunks
  unsigned* counter;
  int sms;
  float copy;
};

/// Times `launch`, checks its output, prints the row.
template <class Launch>
int time_row(Buffers const& b, int log_w, char const* variant, long chunk_words, int barriers,
             Launch const& launch) {
  float t = 0.f;
  if (best_ms(launch, t) != 0) return 1;
  CK(cudaMemset(b.out, 0, kTotal * 4));
  CK(launch());
  CK(cudaDeviceSynchronize());
  if (check_output(b.out) != 0) {
    std::printf("W = %d, %s: output differs from the input\n", 1 << log_w, variant);
    return 1;
  }
  char chunk[32] = "-";
  if (chunk_words > 0) std::snprintf(chunk, sizeof chunk, "%ld MiB", chunk_words * 4 >> 20);
  std::printf("| %d x %d | %s | %s | %d | %.3f | %.2f |\n", 1 << log_w, 1 << log_w, variant, chunk,
              barriers, t, t / b.copy);
  return 0;
}

int two_launches(Buffers const& b, int log_w) {
  auto const launch = [&]() -> cudaError_t {
    rows_all<<<b.sms, kThreads, kSmem>>>(b.in, b.ws);
    columns_all<<<b.sms, kThreads, kSmem>>>(b.ws, b.out, log_w);
    return cudaGetLastError();
  };
  return time_row(b, log_w, "two launches (as now)", 0, 0, launch);
}

/// Each phase alone too (its own row: the other phase's time is not in it; output unchecked
/// there, the pair's row checks it).
int two_launches_tiled(Buffers const& b, int log_w) {
  auto const launch = [&]() -> cudaError_t {
    rows_all_tiled<<<b.sms, kThreads, kSmem>>>(b.in, b.ws, log_w);
    columns_all_tiled<<<b.sms, kThreads, kSmem>>>(b.ws, b.out, log_w);
    return cudaGetLastError();
  };
  int rc = time_row(b, log_w, "two launches, tiled intermediate", 0, 0, launch);
  char const* names[4] = {"phase A alone (rows)", "phase B alone (columns)", "phase A alone, tiled",
                          "phase B alone, tiled"};
  for (int k = 0; k < 4; ++k) {
    float t = 0.f;
    auto const one = [&]() -> cudaError_t {
      if (k == 0) rows_all<<<b.sms, kThreads, kSmem>>>(b.in, b.ws);
      if (k == 1) columns_all<<<b.sms, kThreads, kSmem>>>(b.ws, b.out, log_w);
      if (k == 2) rows_all_tiled<<<b.sms, kThreads, kSmem>>>(b.in, b.ws, log_w);
      if (k == 3) columns_all_tiled<<<b.sms, kThreads, kSmem>>>(b.ws, b.out, log_w);
      return cudaGetLastError();
    };
    if (best_ms(one, t) != 0) return 1;
    std::printf("| %d x %d | %s | - | 0 | %.3f | %.2f |\n", 1 << log_w, 1 << log_w, names[k], t,
                t / b.copy);
  }
  return rc;
}

template <bool kPipelined, bool kStreaming>
int chained_run(Buffers const& b, int log_w, int log_chunk) {
  auto const kernel = chained<kPipelined, kStreaming>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          static_cast<int>(kSmem)));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, kSmem));
  if (per_sm != 1) {
    std::printf("chained: %d blocks an SM, expected 1\n", per_sm);
    return 1;
  }
  std::uint32_t const* in = b.in;
  std::uint32_t* ws = b.ws;
  std::uint32_t* out = b.out;
  unsigned* counter = b.counter;
  void* args[] = {&in, &ws, &out, &log_w, &log_chunk, &counter};
  auto const launch = [&]() -> cudaError_t {
    cudaError_t const e = cudaMemsetAsync(counter, 0, sizeof(unsigned));
    if (e != cudaSuccess) return e;
    return cudaLaunchCooperativeKernel(reinterpret_cast<void const*>(kernel), dim3(b.sms),
                                       dim3(kThreads), args, kSmem, nullptr);
  };
  long const chunks = kTotal >> log_chunk;
  char variant[64];
  std::snprintf(variant, sizeof variant, "chained%s%s", kPipelined ? ", pipelined" : "",
                kStreaming ? ", streaming" : "");
  return time_row(b, log_w, variant, 1L << log_chunk,
                  static_cast<int>(kPipelined ? chunks + 1 : 2 * chunks), launch);
}

}  // namespace

int main() {
  Buffers b{};
  CK(cudaMalloc(&b.in, kTotal * 4));
  CK(cudaMalloc(&b.out, kTotal * 4));
  CK(cudaMalloc(&b.ws, kTotal * 4));
  CK(cudaMalloc(&b.counter, sizeof(unsigned)));
  CK(cudaFuncSetAttribute(rows_all, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          static_cast<int>(kSmem)));
  CK(cudaFuncSetAttribute(columns_all, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          static_cast<int>(kSmem)));
  CK(cudaFuncSetAttribute(rows_all_tiled, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          static_cast<int>(kSmem)));
  CK(cudaFuncSetAttribute(columns_all_tiled, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          static_cast<int>(kSmem)));
  fill<<<1024, 256>>>(b.in);
  CK(cudaGetLastError());
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, 0));
  b.sms = prop.multiProcessorCount;
  if (best_ms([&] { return cudaMemcpyAsync(b.out, b.in, kTotal * 4, cudaMemcpyDeviceToDevice); },
              b.copy) != 0) {
    return 1;
  }
  std::printf(
      "# l2_chain_probe on %s (L2 %d MiB, %d SMs)\n\ncudaMemcpy D2D of 1 GiB: %.3f ms "
      "(%.0f GB/s)\n\n",
      prop.name, prop.l2CacheSize >> 20, b.sms, b.copy, 2.0 * kTotal * 4 / b.copy / 1e6);
  std::printf(
      "| images | order | chunk | grid barriers | ms | x copy |\n|---|---|---|---|---|---|\n");
  int rc = 0;
  // 512 x 512 (1 MiB images, 256-byte column runs) up to 4096 x 4096 (64 MiB: no chunk fits L2).
  for (int log_w = 9; log_w <= 12; ++log_w) {
    rc |= two_launches(b, log_w);
    rc |= two_launches_tiled(b, log_w);
    int const log_image = 2 * log_w;                          // words
    for (int log_chunk = 22; log_chunk <= 24; ++log_chunk) {  // 16, 32, 64 MiB
      if (log_chunk < log_image || (log_w == 12 && log_chunk > log_image)) continue;
      rc |= chained_run<false, false>(b, log_w, log_chunk);
      rc |= chained_run<false, true>(b, log_w, log_chunk);
      if (log_chunk <= 23) rc |= chained_run<true, true>(b, log_w, log_chunk);
    }
  }
  return rc;
}
