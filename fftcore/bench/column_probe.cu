// SPDX-License-Identifier: MIT
// column_probe: the copy rate the tall pass's column access pattern allows, without its
// arithmetic. A 4096-word-wide matrix of 2^28 FP16 words (1 GiB) is copied in items of C
// adjacent columns by 32768 / C rows (128 KiB, as the tall pass's 4096-point item of 8 columns),
// one item per block at a time, grid-stride over resident blocks. Thread j takes column
// j mod C and rows j / C + (512 / C) i (a warp's lanes on C columns x 32 / C rows, 4-byte
// words, as the tall pass's loads), reads its 64 words of the item, then writes them back with
// the FP16 sign bits flipped at the same places; "ahead" reads the next item's words before
// writing this item's (the tall pass keeps two of four rounds in flight so). Runs of C words
// are 4 C bytes: C = 8 is the tall pass at 4096 rows (32-byte runs), 16 at 2048, 32 at 1024.
// One block of 512 threads per SM (the dynamic shared memory only limits the blocks per SM, as
// the tall pass's 130 KiB). Times are the best of five after two warm-ups, against
// cudaMemcpy in the same run; every variant's output is checked. fftcore/NOTES.md, session 31.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "probe_support.hpp"
#include "tc/kernels/cluster.cuh"

namespace {

constexpr int kThreads = 512;
constexpr int kWords = 64;         // words a thread and item (128 KiB items)
constexpr long kWidth = 4096;      // matrix row length in words
constexpr long kTotal = 1L << 28;  // words

/// Items of kC columns x (kThreads kWords / kC) rows; kAhead: the first half of the next item's
/// words is read before this item's words are written (as the tall pass keeps two of its four
/// rounds of loads in flight through its last stage). kCluster > 1: clusters of that many blocks
/// on adjacent bands, with a cluster barrier after each item (the blocks in step, so that the
/// runs of neighbouring bands are read at the same time).
template <int kC, bool kAhead, int kCluster = 1>
__global__ void __launch_bounds__(kThreads) copy_columns(uint32_t const* in, uint32_t* out) {
  extern __shared__ uint32_t pad[];
  constexpr long kRows = long{kThreads} * kWords / kC;  // rows an item
  constexpr long kBands = kWidth / kC;                  // items across the width
  constexpr int kHalf = kWords / 2;
  constexpr long kStep = kThreads / kC * kWidth;  // from one of a thread's words to the next
  long const items = kTotal / (kRows * kC);
  int const c = static_cast<int>(threadIdx.x) % kC;
  int const r0 = static_cast<int>(threadIdx.x) / kC;
  auto const base = [&](long w) {  // item w: band w mod kBands of row block w / kBands
    return (w / kBands) * kRows * kWidth + (w % kBands) * kC + r0 * kWidth + c;
  };
  if constexpr (kCluster > 1) {
    static_assert(!kAhead, "clusters: read, then write");
    using namespace fftcore::detail::tc;
    for (long k = __clusterIdx().x; k * kCluster < items; k += __clusterGridDimInClusters().x) {
      long const w = k * kCluster + __clusterRelativeBlockRank();
      uint32_t r[kWords];
      if (w < items) {
#pragma unroll
        for (int i = 0; i < kWords; ++i) r[i] = in[base(w) + i * kStep];
#pragma unroll
        for (int i = 0; i < kWords; ++i) out[base(w) + i * kStep] = r[i] ^ 0x80008000u;
      }
      cluster_arrive();
      cluster_wait();
    }
    return;
  }
  uint32_t first[kHalf];  // the item's words 0 .. kHalf - 1 (with kAhead: read the item before)
  long w = blockIdx.x;
  if (kAhead && w < items) {
#pragma unroll
    for (int i = 0; i < kHalf; ++i) first[i] = in[base(w) + i * kStep];
  }
  for (; w < items; w += gridDim.x) {
    uint32_t const* p = in + base(w);
    uint32_t* q = out + base(w);
    if constexpr (!kAhead) {
#pragma unroll
      for (int i = 0; i < kHalf; ++i) first[i] = p[i * kStep];
    }
    uint32_t second[kHalf], held[kAhead ? kHalf : 1];
#pragma unroll
    for (int i = 0; i < kHalf; ++i) second[i] = p[(kHalf + i) * kStep];
    if constexpr (kAhead) {
#pragma unroll
      for (int i = 0; i < kHalf; ++i) held[i] = first[i];
      long const next = w + gridDim.x;
      if (next < items) {
#pragma unroll
        for (int i = 0; i < kHalf; ++i) first[i] = in[base(next) + i * kStep];
      }
    }
#pragma unroll
    for (int i = 0; i < kHalf; ++i) q[i * kStep] = (kAhead ? held[i] : first[i]) ^ 0x80008000u;
#pragma unroll
    for (int i = 0; i < kHalf; ++i) q[(kHalf + i) * kStep] = second[i] ^ 0x80008000u;
  }
  if (items < 0) pad[threadIdx.x] = 0;
}

/// Whether out holds in with the FP16 sign bits flipped (in: word i = i * 2654435761), after a
/// fresh launch into a zeroed output; 4096 words spread over the matrix.
int check_output(uint32_t const* out) {
  static uint32_t host[4096];
  for (int k = 0; k < 4096; ++k) {
    long const i = (static_cast<long>(k) * 65537 * 997) % kTotal;
    CK(cudaMemcpy(host + k, out + i, 4, cudaMemcpyDeviceToHost));
    uint32_t const want = (static_cast<uint32_t>(i) * 2654435761u) ^ 0x80008000u;
    if (host[k] != want) {
      std::printf("word %ld is %08x, expected %08x\n", i, host[k], want);
      return 1;
    }
  }
  return 0;
}

__global__ void fill(uint32_t* in) {
  for (long i = blockIdx.x * long{blockDim.x} + threadIdx.x; i < kTotal;
       i += long{gridDim.x} * blockDim.x) {
    in[i] = static_cast<uint32_t>(i) * 2654435761u;
  }
}

/// Times copy_columns<kC, kAhead, kCluster> on every SM (clusters: as many as fit), checks its
/// output and prints its row; `note` names the L2 fetch granularity if one was set.
template <int kC, bool kAhead, int kCluster = 1>
int run(uint32_t const* in, uint32_t* out, float copy, char const* note = "") {
  auto const kernel = copy_columns<kC, kAhead, kCluster>;
  size_t const smem = 130 * 1024;  // one block per SM, as the tall pass's 4096-point item
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  cudaLaunchConfig_t config;
  cudaLaunchAttribute attribute;
  cluster_config(config, attribute, kCluster, kThreads, smem);
  int clusters = 0;
  CK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  config.gridDim = dim3(kCluster == 1 ? sms : clusters * kCluster);
  if (kCluster == 1 && clusters != sms) {
    std::printf("C = %d: %d blocks resident, expected one per SM (%d)\n", kC, clusters, sms);
    return 1;
  }
  auto const launch = [&] { return cudaLaunchKernelEx(&config, kernel, in, out); };
  float t = 0.f;
  if (best_ms(launch, t) != 0) return 1;
  CK(cudaMemset(out, 0, kTotal * 4));
  CK(launch());
  CK(cudaDeviceSynchronize());
  if (check_output(out) != 0) return 1;
  char cluster[48] = "";
  if (kCluster > 1) {
    std::snprintf(cluster, sizeof cluster, ", clusters of %d in step (%u SMs)", kCluster,
                  config.gridDim.x);
  }
  std::printf("| %d | %d B | %s%s%s | %.3f | %.0f%% |\n", kC, 4 * kC,
              kAhead ? "half the next item ahead" : "read, then write", cluster, note, t,
              100 * copy / t);
  return 0;
}

}  // namespace

int main() {
  uint32_t *in = nullptr, *out = nullptr;
  CK(cudaMalloc(&in, kTotal * 4));
  CK(cudaMalloc(&out, kTotal * 4));
  fill<<<1024, 256>>>(in);
  CK(cudaGetLastError());
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, 0));
  float copy = 0.f;
  if (best_ms([&] { return cudaMemcpyAsync(out, in, kTotal * 4, cudaMemcpyDeviceToDevice); },
              copy) != 0) {
    return 1;
  }
  std::printf("# column_probe on %s\n\ncudaMemcpy D2D of 1 GiB: %.3f ms (%.0f GB/s)\n\n", prop.name,
              copy, 2.0 * kTotal * 4 / copy / 1e6);
  std::printf("| columns C | run | order | ms | %% of copy |\n|---|---|---|---|---|\n");
  int rc = 0;
  rc |= run<4, false>(in, out, copy);
  rc |= run<8, false>(in, out, copy);
  rc |= run<8, true>(in, out, copy);
  rc |= run<8, false, 2>(in, out, copy);
  rc |= run<8, false, 4>(in, out, copy);
  rc |= run<8, false, 8>(in, out, copy);
  for (int bytes : {32, 64, 128}) {
    CK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, bytes));
    size_t set = 0;
    CK(cudaDeviceGetLimit(&set, cudaLimitMaxL2FetchGranularity));
    char note[48];
    std::snprintf(note, sizeof note, ", L2 fetch granularity %d (reads back %zu)", bytes, set);
    rc |= run<8, false>(in, out, copy, note);
    rc |= run<8, false, 4>(in, out, copy, note);
  }
  rc |= run<16, false>(in, out, copy);
  rc |= run<16, true>(in, out, copy);
  rc |= run<32, false>(in, out, copy);
  rc |= run<32, true>(in, out, copy);
  return rc;
}
