// SPDX-License-Identifier: MIT
// cluster_probe: how fast a one-pass transform of C x 2^15 points (2^16..2^18) could move its
// data through a thread-block cluster, without the FFT stages' arithmetic. The long pass holds
// one 2^15-point sequence (128 KiB of FP16 words) per block; a cluster of C blocks would hold
// C x 2^15 points, and a transform of that length would take one pass over global memory
// (now two from 2^17). Its data movement, per sequence of C x 2^15 words, here:
//   1. block r loads words r 2^15 .. (r + 1) 2^15 (16-byte loads, coalesced) into its shared
//      memory;
//   2. the radix-C step across the cluster: block b takes the positions n of its C-th share
//      and, for each, reads word n of every block and writes a mix of the C words back to word
//      n of every block (distributed shared memory, 16-byte accesses, ld/st.shared::cluster);
//   3. (the 2^15-point stages, in the block's own shared memory: not here);
//   4. output X[C k + r] is word k of block r: block c reads a run of 4 words k of every block
//      and writes the C x 4 outputs they make as 16-byte stores, its C-th of the sequence.
// Cluster barriers between the steps, as the transform needs them. 2^28 words (1 GiB) in and
// out per call, against cudaMemcpy of the same bytes in the same run (best of five after two
// warm-ups). C = 1 is the same flow with no remote access. The output is checked against the
// host for the first and the last sequence. fftcore/NOTES.md, session 30: on the H100 (copy
// 0.715-0.723 ms) C = 1 ran 0.759-0.771 ms, C = 2 1.106-1.154, C = 4 1.573-1.596, C = 8
// 2.095-2.195 (30 and 15 resident clusters); with each thread's loads of steps 2 and 4 all
// issued before its stores (more in flight), slower: 1.311, 1.711-1.725 and 2.599-2.612. So the
// data movement alone of such a 2^17-point pass takes longer than 2.5x cuFFT FP16 allows (1.14).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "probe_support.hpp"
#include "tc/kernels/cluster.cuh"

namespace {

using namespace fftcore::detail::tc;  // the cluster helpers

constexpr int kLogBlockWords = 15;  ///< words per block: one long-pass sequence
constexpr int kBlockWords = 1 << kLogBlockWords;
constexpr int kThreads = 512;
constexpr int kBlockVectors = kBlockWords / 4;               ///< 16-byte vectors per block
constexpr int kLoadsPerThread = kBlockVectors / kThreads;    ///< 16
constexpr std::int64_t kTotalWords = std::int64_t{1} << 28;  ///< per call, 1 GiB

__device__ __forceinline__ void cluster_sync() {
  cluster_arrive();
  cluster_wait();
}

/// Step 2's mix for block r of C words a[m]: sum of (r + 1)^m a[m] mod 2^32 (a stand-in for the
/// radix-C butterfly: every output depends on every input). Host and device.
__host__ __device__ inline std::uint32_t mix(std::uint32_t const* a, int c, int r) {
  std::uint32_t s = 0, f = 1;
  for (int m = 0; m < c; ++m) {
    s += f * a[m];
    f *= static_cast<std::uint32_t>(r + 1);
  }
  return s;
}

template <int kC>
__global__ void __launch_bounds__(kThreads, 1)
    cluster_pass(uint4 const* __restrict__ in, uint4* __restrict__ out, std::int64_t sequences) {
  extern __shared__ uint4 words[];  // kBlockVectors
  auto const base = static_cast<std::uint32_t>(__cvta_generic_to_shared(words));
  unsigned const r = kC > 1 ? __clusterRelativeBlockRank() : 0;
  std::int64_t const first = kC > 1 ? __clusterIdx().x : blockIdx.x;
  std::int64_t const step = kC > 1 ? __clusterGridDimInClusters().x : gridDim.x;
  int const t = static_cast<int>(threadIdx.x);
  constexpr std::int64_t kSeqVectors = std::int64_t{kC} * kBlockVectors;
  // Each block's share of the positions (16-byte vectors) in steps 2 and 4.
  constexpr int kShare = kBlockVectors / kC;
  for (std::int64_t s = first; s < sequences; s += step) {
    uint4 const* from = in + s * kSeqVectors + r * kBlockVectors;
    uint4 v[kLoadsPerThread];
#pragma unroll
    for (int i = 0; i < kLoadsPerThread; ++i) v[i] = from[t + kThreads * i];
    if constexpr (kC > 1) cluster_sync();  // the previous sequence's step 4 is done everywhere
#pragma unroll
    for (int i = 0; i < kLoadsPerThread; ++i) words[t + kThreads * i] = v[i];
    if constexpr (kC > 1) {
      cluster_sync();
      // Step 2: position p of this block's share, every block's word p in, every block's out.
      for (int p = static_cast<int>(r) * kShare + t; p < static_cast<int>(r + 1) * kShare;
           p += kThreads) {
        std::uint32_t const at = base + static_cast<std::uint32_t>(p) * 16u;
        uint4 a[kC];
#pragma unroll
        for (int m = 0; m < kC; ++m) a[m] = load_cluster(cluster_address(at, m));
#pragma unroll
        for (int q = 0; q < kC; ++q) {
          std::uint32_t x[kC], y[kC], z[kC], w[kC];
#pragma unroll
          for (int m = 0; m < kC; ++m) {
            x[m] = a[m].x;
            y[m] = a[m].y;
            z[m] = a[m].z;
            w[m] = a[m].w;
          }
          store_cluster(cluster_address(at, q),
                        make_uint4(mix(x, kC, q), mix(y, kC, q), mix(z, kC, q), mix(w, kC, q)));
        }
      }
      cluster_sync();
    } else {
      __syncthreads();
    }
    // Step 4: outputs C k + q for the 4 words k of vector p (of this block's share), word k of
    // block q: C vectors in, C 16-byte stores out.
    uint4* to = out + s * kSeqVectors;
    for (int p = static_cast<int>(r) * kShare + t; p < static_cast<int>(r + 1) * kShare;
         p += kThreads) {
      std::uint32_t const at = base + static_cast<std::uint32_t>(p) * 16u;
      std::uint32_t o[4][kC];
#pragma unroll
      for (int q = 0; q < kC; ++q) {
        uint4 const a = kC > 1 ? load_cluster(cluster_address(at, q)) : words[p];
        o[0][q] = a.x;
        o[1][q] = a.y;
        o[2][q] = a.z;
        o[3][q] = a.w;
      }
      // Words C (4 p + e) + q, e < 4: C / 4 vectors per e (C >= 4), or C = 1, 2 packed.
      std::uint32_t flat[4 * kC];
#pragma unroll
      for (int e = 0; e < 4; ++e) {
#pragma unroll
        for (int q = 0; q < kC; ++q) flat[e * kC + q] = o[e][q];
      }
#pragma unroll
      for (int i = 0; i < kC; ++i) {
        to[std::int64_t{p} * kC + i] =
            make_uint4(flat[4 * i], flat[4 * i + 1], flat[4 * i + 2], flat[4 * i + 3]);
      }
    }
    if constexpr (kC == 1) __syncthreads();
  }
  if constexpr (kC > 1) cluster_sync();  // no block leaves while others may read its words
}

/// The host's output word i of sequence s (see the header), for the check.
std::uint32_t expected(std::vector<std::uint32_t> const& in, int c, std::int64_t s,
                       std::int64_t i) {
  std::int64_t const seq = std::int64_t{c} * kBlockWords;
  auto const q = static_cast<int>(i % c);
  std::int64_t const k = i / c;  // word k of block q
  if (c == 1) return in[static_cast<std::size_t>(s * seq + k)];
  std::uint32_t a[8];
  for (int m = 0; m < c; ++m) a[m] = in[static_cast<std::size_t>(s * seq + m * kBlockWords + k)];
  return mix(a, c, q);
}

template <int kC>
int run(uint4 const* in, uint4* out, std::vector<std::uint32_t> const& host_in, float copy_ms) {
  std::int64_t const sequences = kTotalWords / (std::int64_t{kC} * kBlockWords);
  std::size_t const smem = kBlockVectors * sizeof(uint4);
  CK(cudaFuncSetAttribute(cluster_pass<kC>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          static_cast<int>(smem)));
  cudaLaunchConfig_t config;
  cudaLaunchAttribute attribute;
  cluster_config(config, attribute, kC, kThreads, smem);
  int clusters = 0;
  CK(cudaOccupancyMaxActiveClusters(&clusters, cluster_pass<kC>, &config));
  if (clusters < 1) {
    std::printf("| %d | - | no cluster of %d fits |\n", kC, kC);
    return 0;
  }
  std::int64_t const grid_clusters = clusters < sequences ? clusters : sequences;
  config.gridDim = dim3(static_cast<unsigned>(grid_clusters * kC));
  float best = 0.f;
  if (best_ms([&] { return cudaLaunchKernelEx(&config, cluster_pass<kC>, in, out, sequences); },
              best) != 0) {
    return 1;
  }
  // The first and the last sequence against the host.
  std::int64_t const seq = std::int64_t{kC} * kBlockWords;
  std::vector<std::uint32_t> got(static_cast<std::size_t>(seq));
  long bad = 0, nonzero = 0;
  for (std::int64_t s : {std::int64_t{0}, sequences - 1}) {
    CK(cudaMemcpy(got.data(), reinterpret_cast<std::uint32_t const*>(out) + s * seq, got.size() * 4,
                  cudaMemcpyDeviceToHost));
    for (std::int64_t i = 0; i < seq; ++i) {
      std::uint32_t const g = got[static_cast<std::size_t>(i)];
      bad += g != expected(host_in, kC, s, i) ? 1 : 0;
      nonzero += g != 0 ? 1 : 0;
    }
  }
  std::printf("| %d (2^%d points) | %lld x %d | %.3f | %.0f%% | %s |\n", kC,
              kLogBlockWords + (kC == 1   ? 0
                                : kC == 2 ? 1
                                : kC == 4 ? 2
                                          : 3),
              static_cast<long long>(grid_clusters), kC, best, 100.0 * copy_ms / best,
              bad == 0 && nonzero > 0 ? "ok" : "WRONG");
  return bad == 0 && nonzero > 0 ? 0 : 1;
}

}  // namespace

int main() {
  int device = 0;
  cudaDeviceProp prop{};
  CK(cudaGetDevice(&device));
  CK(cudaGetDeviceProperties(&prop, device));
  if (prop.major < 9) {
    std::printf("cluster_probe needs sm_90 (thread-block clusters); %s is sm_%d%d\n", prop.name,
                prop.major, prop.minor);
    return 1;
  }
  std::size_t const bytes = static_cast<std::size_t>(kTotalWords) * 4;
  std::vector<std::uint32_t> host(static_cast<std::size_t>(kTotalWords));
  std::uint32_t x = 0x12345678u;  // xorshift: no zeros, no pattern the check could miss
  for (auto& h : host) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    h = x;
  }
  uint4* in = nullptr;
  uint4* out = nullptr;
  CK(cudaMalloc(&in, bytes));
  CK(cudaMalloc(&out, bytes));
  CK(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice));
  float copy = 0.f;
  if (best_ms([&] { return cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice); }, copy) !=
      0) {
    return 1;
  }
  std::printf("cluster_probe on %s: 2^28 words (1 GiB) in and out per call\n\n", prop.name);
  std::printf("cudaMemcpy D2D: %.3f ms\n\n", copy);
  std::printf("| blocks per cluster (transform) | grid | ms | %% of copy | check |\n");
  std::printf("|---|---|---|---|---|\n");
  int failed = 0;
  failed += run<1>(in, out, host, copy);
  failed += run<2>(in, out, host, copy);
  failed += run<4>(in, out, host, copy);
  failed += run<8>(in, out, host, copy);
  CK(cudaFree(in));
  CK(cudaFree(out));
  return failed == 0 ? 0 : 1;
}
