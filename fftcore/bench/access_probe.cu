// SPDX-License-Identifier: MIT
// access_probe: the copy rate a pass's global access pattern allows, without its arithmetic.
// Copies 2^28 words (1 GiB each way) with the Stockham pass's pattern (thread j of a
// 4096-word item takes words j + 128 i, i < 32, and writes them back at the same places; four
// 128-thread blocks per SM as the 4096-point pass, or sixteen) as 4-byte words, as 4-byte
// words with streaming cache hints, and as 8- and 16-byte vectors, against cudaMemcpy in the
// same run (best of five after two warm-ups). fftcore/NOTES.md, session 27: on the H100 the
// 4-byte pattern ran at 90-93 % of cudaMemcpy, 8-byte vectors at 95-96 %, 16-byte at 94-97 %.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "probe_support.hpp"

/// The FP16 sign bits of every word flipped (the probe's stand-in for arithmetic).
__device__ __forceinline__ uint32_t flipped(uint32_t v) { return v ^ 0x80008000u; }
__device__ __forceinline__ uint2 flipped(uint2 v) { return make_uint2(flipped(v.x), flipped(v.y)); }
__device__ __forceinline__ uint4 flipped(uint4 v) {
  return make_uint4(flipped(v.x), flipped(v.y), flipped(v.z), flipped(v.w));
}

/// Items of kT kE words, grid-stride over resident blocks: thread j takes accesses of type V at
/// j + kT i of its item (4-byte words: the Stockham pass's pattern at L = 4096), then writes them
/// back flipped at the same places; kStream with __ldcs / __stcs (evict-first) accesses. The
/// dynamic shared memory only limits the blocks per SM.
template <class V, bool kStream, int kT, int kE>
__global__ void __launch_bounds__(kT)
    copy_items(V const* __restrict__ in, V* __restrict__ out, long items) {
  extern __shared__ uint32_t pad[];
  constexpr int kV = kE * 4 / static_cast<int>(sizeof(V));  // accesses per thread and item
  for (long w = blockIdx.x; w < items; w += gridDim.x) {
    V const* p = in + w * (kT * kV);
    V* q = out + w * (kT * kV);
    V r[kV];
#pragma unroll
    for (int i = 0; i < kV; ++i)
      r[i] = kStream ? __ldcs(p + threadIdx.x + kT * i) : p[threadIdx.x + kT * i];
#pragma unroll
    for (int i = 0; i < kV; ++i) {
      if constexpr (kStream) {
        __stcs(q + threadIdx.x + kT * i, flipped(r[i]));
      } else {
        q[threadIdx.x + kT * i] = flipped(r[i]);
      }
    }
  }
  if (items < 0) pad[threadIdx.x] = 0;
}

bool ok(cudaError_t e, char const* what) {
  if (e != cudaSuccess) std::printf("%s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

/// Best of five timed launches of `kernel` after two warm-ups (best_ms), in ms; negative on a
/// CUDA error.
template <class K, class PI, class PO>
float time_kernel(K kernel, int grid, int block, size_t smem, PI in, PO out, long items) {
  float best = 0.f;
  auto const launch = [&] {
    kernel<<<grid, block, smem>>>(in, out, items);
    return cudaGetLastError();
  };
  return best_ms(launch, best) == 0 ? best : -1.f;
}

/// Whether every kernel wrote what it read with the FP16 sign bits flipped (spot checks).
bool output_flipped(uint32_t const* out, size_t n) {
  for (size_t i : {size_t{0}, size_t{12345}, n / 2 + 77, n - 1}) {
    uint32_t w = 0;
    if (!ok(cudaMemcpy(&w, out + i, 4, cudaMemcpyDeviceToHost), "check copy")) return false;
    if (w != (0x3c3c3c3cu ^ 0x80008000u)) {
      std::printf("word %zu is %08x, expected %08x\n", i, w, 0x3c3c3c3cu ^ 0x80008000u);
      return false;
    }
  }
  return true;
}

int main() {
  const size_t n = size_t{1} << 28;  // words
  uint32_t *in = nullptr, *out = nullptr;
  CK(cudaMalloc(&in, n * 4));
  CK(cudaMalloc(&out, n * 4));
  CK(cudaMemset(in, 0x3c, n * 4));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  float copy = 0.f;
  if (best_ms([&] { return cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDeviceToDevice); }, copy) !=
      0) {
    return 1;
  }
  std::printf("cudaMemcpy D2D: %.3f ms (%.0f GB/s)\n", copy, 2.0 * n * 4 / copy / 1e6);
  constexpr int kT = 128, kE = 32;
  const long items = n / (kT * kE);
  size_t const smem_4 = 52 * 1024;  // four 128-thread blocks per SM, as the 4096-point pass
  auto const words = copy_items<uint32_t, false, kT, kE>;
  auto const words_cs = copy_items<uint32_t, true, kT, kE>;
  auto const vec2 = copy_items<uint2, false, kT, kE>;
  auto const vec4 = copy_items<uint4, false, kT, kE>;
  for (auto const kernel : {words, words_cs}) {
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_4));
  }
  CK(cudaFuncSetAttribute(vec2, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_4));
  CK(cudaFuncSetAttribute(vec4, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_4));
  struct {
    const char* name;
    int per_sm;
    size_t smem;
  } cfg[] = {{"4 blocks/SM (16 warps)", 4, smem_4}, {"16 blocks/SM (64 warps)", 16, 0}};
  for (auto const& c : cfg) {
    int const grid = sms * c.per_sm;
    float t[4] = {};
    for (int v = 0; v < 4; ++v) {
      CK(cudaMemset(out, 0, n * 4));  // each variant's output checked on its own
      auto const* const in2 = reinterpret_cast<uint2 const*>(in);
      auto const* const in4 = reinterpret_cast<uint4 const*>(in);
      t[v] = v == 0   ? time_kernel(words, grid, kT, c.smem, in, out, items)
             : v == 1 ? time_kernel(words_cs, grid, kT, c.smem, in, out, items)
             : v == 2
                 ? time_kernel(vec2, grid, kT, c.smem, in2, reinterpret_cast<uint2*>(out), items)
                 : time_kernel(vec4, grid, kT, c.smem, in4, reinterpret_cast<uint4*>(out), items);
      if (t[v] < 0 || !output_flipped(out, n)) return 1;
    }
    std::printf(
        "%s: 4-byte words %.3f ms (%.0f%% of copy), streaming-hint words %.3f (%.0f%%), "
        "8-byte %.3f (%.0f%%), 16-byte %.3f (%.0f%%)\n",
        c.name, t[0], 100 * copy / t[0], t[1], 100 * copy / t[1], t[2], 100 * copy / t[2], t[3],
        100 * copy / t[3]);
  }
  return 0;
}
