// SPDX-License-Identifier: MIT
// fftcore_bench: the Tensor Core FP16 backend against cuFFT FP16 and FP32, measured in the same
// run, with the device-to-device copy bandwidth as the physical floor. ~2^28 elements per call
// for every 1-D size 2^1..2^27 and a set of 2-D shapes. Prints a markdown table.
//   fftcore_bench [--quick] [--real] [--small] [--tc-only] [--only NAME[,NAME...]]
//   (--quick: fewer repeats; --only: just the named rows, e.g. "2^12,512x512", for ncu, in every
//   table; --real: a table of the Tensor Core R2C against its C2C and cuFFT FP16 R2C; --small:
//   a table of small batches (one 2^17-point sequence, two 512x256 images, ...) against cuFFT
//   FP16, each call on another slice of the input so that the L2 cache does not hold it;
//   --tc-only: no cuFFT columns, for sweeps of FFTCORE_TC_SPLIT; FFTCORE_BENCH_SHAPES="RxC,..."
//   adds 2-D shapes of R rows of C points to the main table)
#include "bench_support.hpp"

#include <fftcore/fftcore.hpp>

#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cufftXt.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using bench::Buffer;
using bench::Case;
using bench::case_name;
using bench::tc_desc;
using bench::check;
using bench::time_ms;

__global__ void fill_random(__half2* h, float2* f, std::size_t count) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    auto hash = static_cast<unsigned>(i * 2654435761u) ^ 0x9e3779b9u;
    hash ^= hash >> 13;
    hash *= 0x85ebca6bu;
    float const re = static_cast<float>(hash & 0xffff) / 32768.f - 0.999f;
    float const im = static_cast<float>(hash >> 16) / 32768.f - 0.999f;
    h[i] = __floats2half2_rn(re, im);
    f[i] = make_float2(re, im);
  }
}

/// `only` is "" (every row) or ",NAME,NAME,".
bool selected(std::string const& only, std::string const& name) {
  return only.empty() || only.find("," + name + ",") != std::string::npos;
}

/// Median ms of a forward fftcore transform of `d` with its own workspace of
/// workspace_bytes(), or -1 when fftcore cannot plan it.
float time_fftcore_forward(fftcore::PlanDesc const& d, void const* in, void* out, int repeats,
                           fftcore::Direction direction = fftcore::Direction::kForward) {
  fftcore::Plan plan;
  if (fftcore::make_plan(d, plan) != fftcore::Status::kSuccess) return -1;
  Buffer const ws(plan.workspace_bytes());
  return time_ms([&] {
    check(fftcore::execute(plan, in, out, direction, ws.get(), plan.workspace_bytes(), nullptr),
          "execute");
  }, repeats);
}

/// Median ms of cuFFT FP16 R2C (CUDA_R_16F -> CUDA_C_16F) over `batch` transforms of `c`, or
/// -1 when cuFFT refuses the plan.
float time_cufft_half_r2c(Case c, long long batch, void* in, void* out, int repeats) {
  long long dims[2] = {c.rows, c.cols};
  int const rank = c.rows > 1 ? 2 : 1;
  cufftHandle handle = 0;
  check(cufftCreate(&handle), "create");
  std::size_t ws = 0;
  float ms = -1;
  if (cufftXtMakePlanMany(handle, rank, rank == 2 ? dims : dims + 1, nullptr, 1, 0, CUDA_R_16F,
                          nullptr, 1, 0, CUDA_C_16F, batch, &ws, CUDA_C_16F) == CUFFT_SUCCESS) {
    ms = time_ms([&] {
      check(cufftXtExec(handle, in, out, CUFFT_FORWARD), "cufftXtExec R2C");
    }, repeats);
  }
  (void)cufftDestroy(handle);
  return ms;
}

/// The --real table: for ~2^28 real points per call (`in` holds them as FP16, reused as 2^28
/// complex FP16 values for the C2C of the same n and batch; `out` holds 2^28 complex FP16), the
/// Tensor Core R2C against its C2C and against cuFFT FP16 R2C. GB/s counts the real input (2
/// bytes per point) and the n/2+1 half-spectrum outputs (4 bytes each) once.
void print_real_table(std::string const& only, int repeats, std::size_t total, Buffer const& in,
                      Buffer const& out) {
  std::printf("\n| real transform | batch | TC R2C ms | TC C2C ms | R2C speed / C2C (target 1.6x)"
              " | cuFFT16 R2C ms | TC R2C speedup vs cuFFT16 | TC R2C GB/s | TC C2R ms"
              " | C2R speed / C2C |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  std::vector<Case> cases;
  for (int k = 1; k <= 27; ++k) cases.push_back({1, 1LL << k});
  for (long long side : {256LL, 512LL, 1024LL, 2048LL, 4096LL}) cases.push_back({side, side});
  for (Case const& c : cases) {
    std::string const name = case_name(c);
    if (!selected(only, name)) continue;
    long long const n = c.rows * c.cols;
    long long const batch = std::max(1LL, static_cast<long long>(total) / n);
    auto const r2c = tc_desc(c, batch, fftcore::Transform::kR2C);
    float const r2c_ms = time_fftcore_forward(r2c, in.get(), out.get(), repeats);
    float const c2c_ms = time_fftcore_forward(tc_desc(c, batch, fftcore::Transform::kC2C),
                                              in.get(), out.get(), repeats);
    float const cufft_ms = time_cufft_half_r2c(c, batch, in.get(), out.get(), repeats);
    // C2R of the same shape (its input, the half spectrum, read from `in` as is).
    float const c2r_ms = time_fftcore_forward(tc_desc(c, batch, fftcore::Transform::kC2R),
                                              in.get(), out.get(), repeats,
                                              fftcore::Direction::kInverse);
    double const bytes = (2.0 * n + 4.0 * r2c.spectrum_elements()) * static_cast<double>(batch);
    bool const ok = r2c_ms > 0;
    std::printf("| %s | %lld | %.3f | %.3f | %.2fx | %.3f | %.2fx | %.0f | %.3f | %.2fx |\n",
                name.c_str(), batch, r2c_ms, c2c_ms, ok ? c2c_ms / r2c_ms : 0, cufft_ms,
                ok ? cufft_ms / r2c_ms : 0, ok ? bytes / (r2c_ms * 1e6) : 0, c2r_ms,
                c2r_ms > 0 ? c2c_ms / c2r_ms : 0);
    std::fflush(stdout);
  }
}

/// The --small table: batches far below 2^28 elements, where launch latency and the number of
/// blocks matter more than bandwidth. Each timed call reads another of `slices` inputs spread
/// over the 1 GiB buffer (together larger than the L2 cache) and writes another output.
void print_small_table(std::string const& only, std::size_t total, Buffer const& in,
                       Buffer const& out, Buffer const& ws) {
  std::printf(
      "\n| small batch | batch | TC passes | TC us | cuFFT16 us | TC speedup vs cuFFT16 |\n");
  std::printf("|---|---|---|---|---|---|\n");
  struct Small {
    Case c;
    long long batch;
    bool r2c = false;  ///< R2C (against cuFFT FP16's), else C2C
  };
  // The R2C rows: 2^15 reals around the twin R2C's smallest batch (real_layout.hpp).
  for (Small const& sc :
       {Small{{1, 1LL << 17}, 1}, Small{{512, 256}, 2}, Small{{1, 1LL << 14}, 1},
        Small{{1, 1LL << 15}, 1}, Small{{1, 1LL << 15}, 64}, Small{{1, 1LL << 20}, 1},
        Small{{1, 1LL << 22}, 1}, Small{{512, 512}, 1}, Small{{1024, 1024}, 1},
        Small{{2048, 2048}, 1}, Small{{1, 1LL << 12}, 256}, Small{{1, 1LL << 15}, 128, true},
        Small{{1, 1LL << 15}, 256, true}, Small{{1, 1LL << 15}, 512, true},
        Small{{1, 1LL << 15}, 1024, true}, Small{{1, 1LL << 15}, 2048, true}}) {
    if (!selected(only, case_name(sc.c))) continue;
    std::size_t const elements = static_cast<std::size_t>(sc.c.rows * sc.c.cols * sc.batch);
    std::size_t const slices =
        std::max<std::size_t>(1, std::min<std::size_t>(64, total / elements));
    std::size_t const slice_bytes = (total / slices) * 4;
    auto at = [&](Buffer const& b, std::size_t i) {
      return static_cast<void*>(static_cast<char*>(b.get()) + (i % slices) * slice_bytes);
    };
    int const repeats = 201;
    fftcore::Plan plan;
    check(fftcore::make_plan(tc_desc(sc.c, sc.batch,
                                     sc.r2c ? fftcore::Transform::kR2C : fftcore::Transform::kC2C),
                             plan),
          "small plan");
    std::size_t call = 0;
    float const tc_ms = time_ms([&] {
      check(fftcore::execute(plan, at(in, call), at(out, call), fftcore::Direction::kForward,
                             ws.get(), plan.workspace_bytes(), nullptr), "execute");
      ++call;
    }, repeats);
    long long dims[2] = {sc.c.rows, sc.c.cols};
    int const rank = sc.c.rows > 1 ? 2 : 1;
    cufftHandle handle = 0;
    check(cufftCreate(&handle), "create");
    std::size_t cws = 0;
    check(cufftXtMakePlanMany(handle, rank, rank == 2 ? dims : dims + 1, nullptr, 1, 0,
                              sc.r2c ? CUDA_R_16F : CUDA_C_16F, nullptr, 1, 0, CUDA_C_16F,
                              sc.batch, &cws, CUDA_C_16F),
          "plan");
    call = 0;
    float const cu_ms = time_ms([&] {
      check(cufftXtExec(handle, at(in, call), at(out, call), CUFFT_FORWARD), "cufftXtExec");
      ++call;
    }, repeats);
    (void)cufftDestroy(handle);
    std::printf("| %s%s | %lld | %d | %.1f | %.1f | %.2fx |\n", case_name(sc.c).c_str(),
                sc.r2c ? " R2C" : "", sc.batch,
                plan.passes(), tc_ms * 1e3, cu_ms * 1e3, cu_ms / tc_ms);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  bool real = false;
  bool small = false;
  bool tc_only = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--real") == 0) {
      real = true;
    } else if (std::strcmp(argv[i], "--small") == 0) {
      small = true;
    } else if (std::strcmp(argv[i], "--tc-only") == 0) {
      tc_only = true;
    } else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = "," + std::string(argv[++i]) + ",";
    } else {
      std::fprintf(stderr, "usage: fftcore_bench [--quick] [--real] [--small] [--tc-only] "
                           "[--only NAME[,NAME...]]\n");
      return 2;
    }
  }
  int const repeats = quick ? 5 : 11;
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "properties");
  std::size_t const total = std::size_t{1} << 28;  // complex elements per call
  Buffer h_in(total * 4), h_out(total * 4), h_ws(total * 4), f_in(total * 8), f_out(total * 8);
  fill_random<<<1024, 256>>>(static_cast<__half2*>(h_in.get()), static_cast<float2*>(f_in.get()),
                             total);
  check(cudaGetLastError(), "fill");
  std::size_t const copy_bytes = std::size_t{1} << 30;
  float const copy_ms = time_ms([&] {
    check(cudaMemcpyAsync(f_out.get(), f_in.get(), copy_bytes, cudaMemcpyDeviceToDevice),
          "copy");
  }, repeats);
  double const copy_gbs = 2.0 * copy_bytes / (copy_ms * 1e6);
  std::printf("# fftcore_bench on %s (sm_%d%d)\n\n", prop.name, prop.major, prop.minor);
  if (char const* fetch = std::getenv("FFTCORE_BENCH_L2_FETCH")) {
    // The L2 fetch granularity hint (bytes, 0..128) for every transform of the run (A/B of the
    // column passes' short runs; NOTES.md session 31).
    check(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, std::strtoul(fetch, nullptr, 10)),
          "L2 fetch granularity");
    std::size_t set = 0;
    check(cudaDeviceGetLimit(&set, cudaLimitMaxL2FetchGranularity), "L2 fetch granularity");
    std::printf("FFTCORE_BENCH_L2_FETCH=%s (the limit reads back %zu)\n\n", fetch, set);
  }
  if (char const* split = std::getenv("FFTCORE_TC_SPLIT")) {
    std::printf("FFTCORE_TC_SPLIT=%s (pass lengths of the axes whose log2 sums to it)\n\n", split);
  }
  std::printf("D2D copy of 1 GiB (read + write counted): %.3f ms, %.0f GB/s\n\n", copy_ms,
              copy_gbs);
  std::printf("| transform | batch | passes | TC ms | TC eff. GB/s | TC per-pass GB/s | %% of copy"
              " | cuFFT16 ms | TC speedup vs cuFFT16 | cuFFT32 ms | TC speedup vs cuFFT32 |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::vector<Case> cases;
  for (int k = 1; k <= 27; ++k) cases.push_back({1, 1LL << k});
  for (Case c : {Case{256, 256}, Case{512, 256}, Case{512, 512}, Case{1024, 1024},
                 Case{2048, 2048}, Case{4096, 4096}, Case{16384, 16384}}) {
    cases.push_back(c);
  }
  // FFTCORE_BENCH_SHAPES="RxC[,RxC...]": further 2-D shapes (R rows of C points) for one-off
  // measurements, e.g. the pass pairs another plan would run.
  if (char const* extra = std::getenv("FFTCORE_BENCH_SHAPES")) {
    for (char const* at = extra; *at != '\0';) {
      char* end = nullptr;
      long long const rows = std::strtoll(at, &end, 10);
      if (end == at || *end != 'x') break;
      at = end + 1;
      long long const cols = std::strtoll(at, &end, 10);
      if (end == at || rows < 2 || cols < 2) break;
      cases.push_back({rows, cols});
      at = *end == ',' ? end + 1 : end;
    }
  }
  for (Case const& c : cases) {
    long long const n = c.rows * c.cols;
    long long const batch = std::max(1LL, static_cast<long long>(total) / n);
    fftcore::PlanDesc const d = tc_desc(c, batch, fftcore::Transform::kC2C);
    std::string const name = case_name(c);
    if (!selected(only, name)) continue;
    fftcore::Plan plan;
    fftcore::Status const made = fftcore::make_plan(d, plan);
    float tc_ms = -1;
    int passes = 0;
    if (made == fftcore::Status::kSuccess) {
      tc_ms = time_ms([&] {
        check(fftcore::execute(plan, h_in.get(), h_out.get(), fftcore::Direction::kForward,
                               h_ws.get(), total * 4, nullptr), "execute");
      }, repeats);
      passes = plan.passes();
    }
    long long dims[2] = {c.rows, c.cols};
    int const rank = c.rows > 1 ? 2 : 1;
    long long* dim_ptr = rank == 2 ? dims : dims + 1;
    float ms16 = -1, ms32 = -1;
    for (int prec = 0; prec < (tc_only ? 0 : 2); ++prec) {
      cufftHandle handle = 0;
      check(cufftCreate(&handle), "create");
      std::size_t ws = 0;
      cudaDataType const t = prec == 0 ? CUDA_C_16F : CUDA_C_32F;
      if (cufftXtMakePlanMany(handle, rank, dim_ptr, nullptr, 1, 0, t, nullptr, 1, 0, t, batch,
                              &ws, t) == CUFFT_SUCCESS) {
        void* in = prec == 0 ? h_in.get() : f_in.get();
        void* out = prec == 0 ? h_out.get() : f_out.get();
        float const ms = time_ms([&] {
          check(cufftXtExec(handle, in, out, CUFFT_FORWARD), "cufftXtExec");
        }, repeats);
        (prec == 0 ? ms16 : ms32) = ms;
      }
      (void)cufftDestroy(handle);
    }
    if (made != fftcore::Status::kSuccess) {  // e.g. 16384x16384: 2^28 > 2^27 elements
      std::printf("| %s | %lld | - | not planned (%s) | - | - | - | %.3f | - | %.3f | - |\n",
                  name.c_str(), batch, fftcore::to_string(made), ms16, ms32);
      std::fflush(stdout);
      continue;
    }
    double const bytes = 8.0 * static_cast<double>(n * batch);
    double const eff = tc_ms > 0 ? bytes / (tc_ms * 1e6) : 0;
    std::printf("| %s | %lld | %d | %.3f | %.0f | %.0f | %.0f%% | %.3f | %.2fx | %.3f | %.2fx |\n",
                name.c_str(), batch, passes, tc_ms, eff, eff * passes,
                100.0 * eff * passes / copy_gbs, ms16, tc_ms > 0 ? ms16 / tc_ms : 0, ms32,
                tc_ms > 0 ? ms32 / tc_ms : 0);
    std::fflush(stdout);
  }
  if (real) print_real_table(only, repeats, total, h_in, h_out);
  if (small) print_small_table(only, total, h_in, h_out, h_ws);
  return 0;
}
