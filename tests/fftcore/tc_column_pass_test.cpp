// SPDX-License-Identifier: MIT
// CPU tests of the column pass (fftcore/src/tc/column_pass_layout.hpp,
// kernels/column_pass_kernel.cu): which passes of real plans it takes (the strided, twiddled
// first and middle passes of 1-D transforms and the column passes of 2-D transforms of 32..128
// points, with tiles of whole 32-column rounds) and which it leaves to the other kernels (256
// points, tiles below 32 columns, FP32 intermediates, hooks), that the shared-memory exchange
// slots are a bijection free of bank conflicts, and - running the planner's passes on the CPU
// in double with the kernel's data flow (block origins, rounds of 32 columns, step 1's 16-point
// DFTs and scale W_L^(p k1) factors, the exchange slots, step 2's P-point DFTs and pass
// twiddles, 32-bit in-tile offsets, the inverse as conj(forward(conj x))) - that each pass gives
// the pass's definition (pass_params.hpp) on every sequence, partial tiles included.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "../../fftcore/src/tc/column_pass_layout.hpp"
#include "../../fftcore/src/tc/plan_logic.hpp"
#include "../../fftcore/src/tc/real_layout.hpp"
#include "common/reference_dft.hpp"
#include "tc_plan_helpers.hpp"

namespace {

namespace col = fftcore::detail::tc::column;
using fftcore::detail::tc::PassLayout;
using fftcore::detail::tc::PassParams;
using fftcore::detail::tc::PlanOptions;
using cd = std::complex<double>;
using tcfft::testing::plans::desc;
using tcfft::testing::plans::float2_wavefronts;
using tcfft::testing::plans::layout_of;
using tcfft::testing::plans::split;
using tcfft::testing::plans::log2_of;

std::string parts_name(std::vector<int> const& parts) {
  std::string s = "{";
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) s += ',';
    s += std::to_string(parts[i]);
  }
  s += '}';
  return s;
}

/// 1-D plans (log2 n, batch, split).
struct Plan1d {
  int log_n;
  std::int64_t batch;
  std::vector<int> parts;
};
/// Strided first passes of 32, 64 and 128 points.
std::vector<Plan1d> const kPlans1d = {{13, 32, {5, 8}}, {14, 33, {6, 8}}, {15, 64, {7, 8}}};
/// 2-D shapes (rows, cols, batch).
struct Shape2d {
  std::int64_t rows, cols, batch;
};
/// Shapes whose column pass (rows of 32..128 points) is taken.
std::vector<Shape2d> const kShapes2d = {
    {128, 1024, 8}, {64, 512, 17}, {32, 2048, 4}, {128, 64, 128}, {128, 128, 64}};

std::string plan_name(Plan1d const& plan) {
  return "n = 2^" + std::to_string(plan.log_n) + " batch " + std::to_string(plan.batch) +
         " split " + parts_name(plan.parts);
}

std::string shape_name(Shape2d const& s) {
  return std::to_string(s.rows) + " x " + std::to_string(s.cols) + " batch " +
         std::to_string(s.batch);
}

PassLayout layout_of(Plan1d const& plan) {
  return layout_of(desc(1, std::int64_t{1} << plan.log_n, plan.batch), split(plan.parts));
}

/// The column pass of a 2-D plan: down the rows (L = rows), over adjacent columns.
bool is_column_pass(PassParams const& p, Shape2d const& s) {
  return p.log_length == log2_of(s.rows) && p.in_stride[0] == 1 && p.in_elem_stride == s.cols;
}

PassParams column_pass_of(Shape2d const& s) {
  PassLayout const l = layout_of(desc(s.rows, s.cols, s.batch));
  for (PassParams const& p : l.passes) {
    if (is_column_pass(p, s)) return p;
  }
  ADD_FAILURE() << "no column pass in " << shape_name(s);
  return {};
}

TEST(TcColumnPass, TakesTheStridedPassesOf32To128Points) {
  ASSERT_EQ(col::kMinLogLength, 5);
  ASSERT_EQ(col::kMaxLogLength, 7);
  // 1-D: the strided, twiddled first pass of 32..128 points; not the contiguous last pass.
  for (Plan1d const& plan : kPlans1d) {
    SCOPED_TRACE(plan_name(plan));
    PassLayout const l = layout_of(plan);
    ASSERT_EQ(l.passes.size(), 2u);
    PassParams const& first = l.passes.front();
    EXPECT_EQ(first.log_length, plan.parts[0]);
    EXPECT_GT(first.log_twiddle_n, 0);
    EXPECT_EQ(first.in_stride[0], 1);
    EXPECT_GE(first.log_tile, col::kLogColumns);
    EXPECT_TRUE(col::eligible(first));
    EXPECT_FALSE(col::eligible(l.passes.back()));
  }
  // Three passes: the strided first and middle passes where they have 32..128 points.
  for (Plan1d const& plan :
       {Plan1d{21, 1, {5, 8, 8}}, Plan1d{20, 1, {6, 7, 7}}, Plan1d{21, 1, {7, 7, 7}}}) {
    SCOPED_TRACE(plan_name(plan));
    PassLayout const l = layout_of(plan);
    ASSERT_EQ(l.passes.size(), 3u);
    for (int i = 0; i < 2; ++i) {
      PassParams const& p = l.passes[static_cast<std::size_t>(i)];
      EXPECT_EQ(p.log_length, plan.parts[static_cast<std::size_t>(i)]);
      EXPECT_GT(p.log_twiddle_n, 0) << "pass " << i;
      EXPECT_EQ(p.in_stride[0], 1) << "pass " << i;
      EXPECT_EQ(col::eligible(p), p.log_length <= 7) << "pass " << i;
    }
    EXPECT_FALSE(col::eligible(l.passes[2]));
  }
  // Strided first passes of 256 points stay on the register-chained pass
  // (column_pass_layout.hpp: measured slower there).
  for (Plan1d const& plan : {Plan1d{16, 32, {8, 8}}, Plan1d{20, 3, {8, 12}}}) {
    SCOPED_TRACE(plan_name(plan));
    PassLayout const l = layout_of(plan);
    ASSERT_EQ(l.passes.size(), 2u);
    EXPECT_EQ(l.passes[0].in_stride[0], 1);
    for (PassParams const& p : l.passes) EXPECT_FALSE(col::eligible(p));
  }
  // 2-D: the column pass (untwiddled), not the row pass.
  for (Shape2d const& s : kShapes2d) {
    SCOPED_TRACE(shape_name(s));
    PassLayout const l = layout_of(desc(s.rows, s.cols, s.batch));
    int taken = 0;
    for (PassParams const& p : l.passes) {
      if (!col::eligible(p)) continue;
      ++taken;
      EXPECT_TRUE(is_column_pass(p, s))
          << "log_length " << p.log_length << " in_stride[0] " << p.in_stride[0];
      EXPECT_EQ(p.log_length, log2_of(s.rows));
      EXPECT_EQ(p.in_stride[0], 1);
      EXPECT_EQ(p.log_twiddle_n, 0);
    }
    EXPECT_EQ(taken, 1);
  }
  // 2-D with 256 rows: no pass taken.
  for (Shape2d const& s : {Shape2d{256, 256, 32}, Shape2d{256, 64, 128}}) {
    PassLayout const l = layout_of(desc(s.rows, s.cols, s.batch));
    for (PassParams const& p : l.passes) {
      EXPECT_FALSE(col::eligible(p)) << shape_name(s) << ", log_length " << p.log_length;
    }
  }
  {
    // A tall 2-D transform: the column axis of 8192 points takes two passes down the 64
    // columns, both taken: 128 points twiddled by the digit d1 (not by the column), then 64
    // points scattering to the digit-reversed rows.
    PassLayout const l = layout_of(desc(8192, 64, 2));
    ASSERT_EQ(l.passes.size(), 3u);
    EXPECT_FALSE(col::eligible(l.passes[0]));
    PassParams const& first = l.passes[1];
    PassParams const& last = l.passes[2];
    EXPECT_TRUE(col::eligible(first));
    EXPECT_EQ(first.log_length, 7);
    EXPECT_GT(first.log_twiddle_n, 0);
    EXPECT_EQ(first.twiddle_stride[0], 0);
    EXPECT_NE(first.twiddle_stride[1], 0);
    EXPECT_TRUE(col::eligible(last));
    EXPECT_EQ(last.log_length, 6);
    EXPECT_EQ(last.scatter, 1);
    EXPECT_NE(last.in_elem_stride, last.out_elem_stride);
  }
  // Small problems: the planner's tiles fall below 32 columns (more, smaller blocks), so the
  // other kernels take them.
  for (Shape2d const& s : {Shape2d{128, 128, 1}, Shape2d{128, 128, 32}, Shape2d{256, 256, 1}}) {
    PassLayout const l = layout_of(desc(s.rows, s.cols, s.batch));
    for (PassParams const& p : l.passes) {
      EXPECT_FALSE(col::eligible(p)) << shape_name(s) << ", log_length " << p.log_length;
      if (p.in_stride[0] == 1) {
        EXPECT_LT(p.log_tile, col::kLogColumns) << shape_name(s);
      }
    }
  }
  for (Plan1d const& plan :
       {Plan1d{16, 1, {8, 8}}, Plan1d{14, 1, {7, 7}}, Plan1d{14, 16, {7, 7}}}) {
    PassLayout const l = layout_of(plan);
    ASSERT_EQ(l.passes.size(), 2u);
    EXPECT_EQ(l.passes[0].in_stride[0], 1);
    EXPECT_LT(l.passes[0].log_tile, col::kLogColumns) << plan_name(plan);
    for (PassParams const& p : l.passes) {
      EXPECT_FALSE(col::eligible(p)) << plan_name(plan) << ", log_length " << p.log_length;
    }
  }
  {
    // Small 2-D transforms keep the row results in FP32: the column pass reads FP32.
    PassLayout const l = layout_of(desc(64, 64, 256));
    for (PassParams const& p : l.passes) {
      EXPECT_FALSE(col::eligible(p)) << "64 x 64 batch 256, log_length " << p.log_length;
    }
    EXPECT_EQ(l.passes.back().in_fp32, 1);
    EXPECT_GE(l.passes.back().log_tile, col::kLogColumns);
  }
  // Contiguous single passes: sequences of adjacent points, not adjacent columns.
  for (std::int64_t batch : {1, 5, 4096}) {
    PassLayout const l = layout_of(desc(1, 64, batch));
    ASSERT_EQ(l.passes.size(), 1u);
    EXPECT_FALSE(col::eligible(l.passes[0])) << "n = 64 batch " << batch;
  }

  // Synthetic variations of an eligible pass (the 2-D column pass: in place, same places).
  PassParams const base = column_pass_of(kShapes2d[0]);
  ASSERT_TRUE(col::eligible(base));
  ASSERT_EQ(base.log_tile, col::kLogColumns);
  ASSERT_EQ(base.scatter, 0);
  float2 const factor{1.f, 0.f};
  PassParams p = base;
  p.load_factors = &factor;
  EXPECT_FALSE(col::eligible(p)) << "load hook";
  p = base;
  p.store_factors = &factor;
  EXPECT_FALSE(col::eligible(p)) << "store hook";
  p = base;
  p.conjugate_store = 1;
  EXPECT_FALSE(col::eligible(p)) << "conjugated store";
  p = base;
  p.in_fp32 = 1;
  EXPECT_FALSE(col::eligible(p)) << "FP32 in";
  p = base;
  p.out_fp32 = 1;
  EXPECT_FALSE(col::eligible(p)) << "FP32 out";
  p = base;
  p.real_in = 1;
  EXPECT_FALSE(col::eligible(p)) << "C2R split in the load";
  p = base;
  p.real_out = 1;
  EXPECT_FALSE(col::eligible(p)) << "R2C split in the store";
  p = base;
  p.log_length = 4;
  EXPECT_FALSE(col::eligible(p)) << "16 points";
  p.log_length = 8;
  EXPECT_FALSE(col::eligible(p)) << "256 points";
  p = base;
  p.in_stride[0] = 2;
  p.out_stride[0] = 2;
  EXPECT_FALSE(col::eligible(p)) << "columns 2 apart";
  p = base;
  p.log_tile = 4;
  EXPECT_FALSE(col::eligible(p)) << "tile of 16 columns";
  p = base;
  p.log_tile = 6;
  EXPECT_TRUE(col::eligible(p)) << "tile of two rounds";
  p = base;
  p.in_elem_stride = 16;
  p.out_elem_stride = 16;
  EXPECT_FALSE(col::eligible(p)) << "points 16 apart, tile of 32 columns";
  p = base;
  p.out_elem_stride = 16;
  p.scatter = 1;
  EXPECT_FALSE(col::eligible(p)) << "outputs 16 apart, tile of 32 columns";
  // In place, different places would let a block overwrite another block's unread inputs;
  // scattering passes never run in place.
  p = base;
  p.out_stride[0] = 2;
  EXPECT_FALSE(col::eligible(p)) << "out_stride[0] = 2, in place";
  p.scatter = 1;
  EXPECT_FALSE(col::eligible(p)) << "out_stride[0] = 2, scattering";
  p = base;
  p.out_stride[1] = 2 * base.out_stride[1];
  EXPECT_FALSE(col::eligible(p)) << "in place, different places";
  p.scatter = 1;
  EXPECT_TRUE(col::eligible(p)) << "scattering, different places";
  p = base;
  p.out_elem_stride = base.in_elem_stride + (std::int64_t{1} << base.log_tile);
  EXPECT_FALSE(col::eligible(p)) << "in place, different output element stride";
  p.scatter = 1;
  EXPECT_TRUE(col::eligible(p)) << "scattering, different output element stride >= T";
}


TEST(TcColumnPass, ExchangeSlotsAreABijectionAndConflictFree) {
  for (int log_l = col::kMinLogLength; log_l <= col::kMaxLogLength; ++log_l) {
    SCOPED_TRACE("L = 2^" + std::to_string(log_l));
    int const warps = 1 << col::log_warps(log_l);
    int const log_c = col::log_step2_columns(log_l);
    int const columns = 1 << log_c;
    ASSERT_EQ(warps * columns, 16);
    ASSERT_EQ(16 * warps, 1 << log_l);
    ASSERT_LE(32 * warps, 512) << "threads per block";
    int const slots = col::exchange_slots(log_l);
    ASSERT_EQ(slots, 16 * warps * 32);
    ASSERT_LE(slots * 8, 48 * 1024) << "shared bytes beyond the default 48 KiB";
    std::vector<int> owner(static_cast<std::size_t>(slots), -1);
    for (int k1 = 0; k1 < 16; ++k1) {
      for (int p = 0; p < warps; ++p) {
        for (int t = 0; t < 32; ++t) {
          int const slot = col::exchange_slot(k1, p, t, log_l);
          ASSERT_GE(slot, 0);
          ASSERT_LT(slot, slots) << k1 << " " << p << " " << t;
          int const id = (k1 * warps + p) * 32 + t;
          ASSERT_EQ(owner[static_cast<std::size_t>(slot)], -1)
              << "slot " << slot << " of " << id << " and "
              << owner[static_cast<std::size_t>(slot)];
          owner[static_cast<std::size_t>(slot)] = id;
        }
      }
    }
    for (int o : owner) ASSERT_NE(o, -1);  // onto: 16 x P x 32 ids on as many slots
    std::array<int, 32> lane_slots{};
    // Step 1: warp p, k1 fixed per instruction, lane t writes (k1, p, t).
    for (int p = 0; p < warps; ++p) {
      for (int k1 = 0; k1 < 16; ++k1) {
        for (int t = 0; t < 32; ++t) {
          lane_slots[static_cast<std::size_t>(t)] = col::exchange_slot(k1, p, t, log_l);
        }
        EXPECT_EQ(float2_wavefronts(lane_slots), 2) << "step 1 writes, warp " << p << " k1 = " << k1;
      }
    }
    // Step 2: warp w, (e, q) fixed per instruction, lane t reads (C w + e, q, t).
    for (int w = 0; w < warps; ++w) {
      for (int e = 0; e < columns; ++e) {
        for (int q = 0; q < warps; ++q) {
          for (int t = 0; t < 32; ++t) {
            lane_slots[static_cast<std::size_t>(t)] =
                col::exchange_slot((w << log_c) + e, q, t, log_l);
          }
          EXPECT_EQ(float2_wavefronts(lane_slots), 2)
              << "step 2 reads, warp " << w << " e = " << e << " q = " << q;
        }
      }
    }
  }
}

/// W_n^j, j < n (forward), for n = 2^log_n <= 256: the roots of the emulation's DFTs and
/// step 1's factors, computed once.
cd const* roots(int log_n) {
  static std::vector<std::vector<cd>> const tables = [] {
    std::vector<std::vector<cd>> t(9);
    for (int log_size = 1; log_size <= 8; ++log_size) {
      int const size = 1 << log_size;
      for (int j = 0; j < size; ++j) {
        t[static_cast<std::size_t>(log_size)].push_back(
            tcfft::testing::root_of_unity(j, size, false));
      }
    }
    return t;
  }();
  return tables[static_cast<std::size_t>(log_n)].data();
}

/// Direct DFT of x[0..2^log_n) (16 points or P <= 16), sign -1.
std::array<cd, 16> dft(std::array<cd, 16> const& x, int log_n) {
  int const n = 1 << log_n;
  cd const* const w = roots(log_n);
  std::array<cd, 16> y{};
  for (int k = 0; k < n; ++k) {
    cd sum = 0;
    for (int j = 0; j < n; ++j) sum += x[static_cast<std::size_t>(j)] * w[(j * k) & (n - 1)];
    y[static_cast<std::size_t>(k)] = sum;
  }
  return y;
}

/// W_{2^28}^e, the kernel's pass twiddle of exponent e (coarse x fine tables), forward.
cd twiddle28(std::uint32_t e) {
  return tcfft::testing::root_of_unity(static_cast<double>(e),
                                       static_cast<double>(std::int64_t{1} << 28), false);
}

/// One pass as the column-pass kernel runs it: blocks (block_origin), rounds of 32 columns
/// t = 32 r + lane, P warps; step 1 (loads of x_t[P n1 + w] at 32-bit in-tile offsets, zero
/// beyond valid_t, the 16-point DFT, scale W_L^(w k1), the exchange slots), then after the
/// barrier step 2 (k1 = C w + e, the P-point DFTs over the exchange, the pass twiddle
/// W^(tw k) from u, g and v as the kernel forms it, stores of X_t[k1 + 16 k2] where
/// t < valid_t). The inverse conjugates loads and stores (the kernel's sign-bit flips).
/// `writes` counts the stores to each element of dst. src may be dst (in place): each round
/// reads all its columns' points in step 1 before step 2 writes them.
void run_column(PassParams const& p, bool inverse, std::vector<cd> const& src, std::vector<cd>& dst,
                std::vector<int>& writes) {
  int const log_l = p.log_length;
  cd const* const w_l = roots(log_l);
  int const log_p = col::log_warps(log_l);
  int const warps = 1 << log_p;
  int const log_c = col::log_step2_columns(log_l);
  int const columns = 1 << log_c;
  int const rounds = 1 << col::log_rounds(p.log_tile);
  double const scale = static_cast<double>(p.scale);
  auto const in_e = static_cast<std::uint32_t>(p.in_elem_stride);
  auto const out_e = static_cast<std::uint32_t>(p.out_elem_stride);
  std::uint32_t const step = in_e << log_p;
  auto const twiddle_stride0 = static_cast<std::uint32_t>(p.twiddle_stride[0]);
  bool const twiddled = p.log_twiddle_n > 0;
  auto const load = [inverse](cd v) { return inverse ? std::conj(v) : v; };
  cd const nan(std::numeric_limits<double>::quiet_NaN(), 0);
  std::vector<cd> xs;
  for (std::int64_t b = 0; b < p.blocks; ++b) {
    auto const o = fftcore::detail::tc::block_origin(p, b);
    auto const valid_t =
        static_cast<int>(std::min<std::int64_t>(p.extent[0] - o.d0, std::int64_t{1} << p.log_tile));
    auto const twiddle_base = static_cast<std::uint32_t>(o.twiddle_base);
    for (int r = 0; r < rounds; ++r) {
      xs.assign(static_cast<std::size_t>(col::exchange_slots(log_l)), nan);
      for (int w = 0; w < warps; ++w) {  // step 1
        for (int lane = 0; lane < 32; ++lane) {
          int const t = 32 * r + lane;
          bool const ok = t < valid_t;
          std::uint32_t const at =
              static_cast<std::uint32_t>(t) + static_cast<std::uint32_t>(w) * in_e;
          std::array<cd, 16> a{};
          for (int n1 = 0; ok && n1 < 16; ++n1) {
            std::uint32_t const off = static_cast<std::uint32_t>(n1) * step;
            a[static_cast<std::size_t>(n1)] = load(src.at(static_cast<std::size_t>(
                o.in_base + static_cast<std::int64_t>(at) + static_cast<std::int64_t>(off))));
          }
          std::array<cd, 16> const y = dft(a, 4);
          for (int k1 = 0; k1 < 16; ++k1) {
            xs.at(static_cast<std::size_t>(col::exchange_slot(k1, w, lane, log_l))) =
                y[static_cast<std::size_t>(k1)] * scale * w_l[w * k1];
          }
        }
      }
      for (int w = 0; w < warps; ++w) {  // step 2, after the barrier
        int const k1_first = w << log_c;
        for (int lane = 0; lane < 32; ++lane) {
          int const t = 32 * r + lane;
          std::array<std::array<cd, 16>, 8> x{};
          for (int e = 0; e < columns; ++e) {
            std::array<cd, 16> c{};
            for (int q = 0; q < warps; ++q) {
              c[static_cast<std::size_t>(q)] =
                  xs.at(static_cast<std::size_t>(col::exchange_slot(k1_first + e, q, lane, log_l)));
            }
            x[static_cast<std::size_t>(e)] = dft(c, log_p);
          }
          if (t >= valid_t) continue;
          cd g(1, 0), v(1, 0), u(1, 0);
          if (twiddled) {
            std::uint32_t const tw = twiddle_base + static_cast<std::uint32_t>(t) * twiddle_stride0;
            g = twiddle28(fftcore::detail::tc::pass_twiddle_exponent32(tw, 1u, p.log_twiddle_n));
            v = twiddle28(fftcore::detail::tc::pass_twiddle_exponent32(tw, 16u, p.log_twiddle_n));
            u = twiddle28(fftcore::detail::tc::pass_twiddle_exponent32(
                tw, static_cast<std::uint32_t>(k1_first), p.log_twiddle_n));
          }
          for (int e = 0; e < columns; ++e) {
            if (e > 0) u *= g;
            cd f = u;
            for (int k2 = 0; k2 < warps; ++k2) {
              if (k2 > 0) f *= v;
              auto const k = static_cast<std::uint32_t>(k1_first + e + (k2 << 4));
              auto const at = static_cast<std::size_t>(
                  o.out_base + static_cast<std::int64_t>(static_cast<std::uint32_t>(t)) +
                  static_cast<std::int64_t>(k * out_e));
              cd const value = x[static_cast<std::size_t>(e)][static_cast<std::size_t>(k2)] * f;
              dst.at(at) = inverse ? std::conj(value) : value;
              ++writes.at(at);
            }
          }
        }
      }
    }
  }
}

/// Sequences along digit 3 (what the blocks leave after tiles0 x D1 x D2).
std::int64_t extent3(PassParams const& p) {
  return p.blocks / (p.tiles0 * p.extent[1] * p.extent[2]);
}

/// Elements a buffer needs for every point the pass reads (or writes) with these strides.
std::size_t span_of(PassParams const& p, std::int64_t const* stride, std::int64_t elem) {
  std::int64_t const top[4] = {p.extent[0] - 1, p.extent[1] - 1, p.extent[2] - 1, extent3(p) - 1};
  std::int64_t last = ((std::int64_t{1} << p.log_length) - 1) * elem;
  for (int i = 0; i < 4; ++i) last += top[i] * stride[i];
  return static_cast<std::size_t>(last + 1);
}

/// Runs the column-pass emulation of `p` on random data (in place where `in_place`, which
/// needs the same places in and out) and checks it against the pass's definition, taken
/// sequence by sequence over the digits: output k of sequence q is
/// scale W^(-+ tw(q) k) sum_n x[n] W_L^(-+ n k) (+ for the inverse), written once at its place,
/// and nothing else written.
void check(PassParams const& p, std::string const& name, bool inverse, bool in_place) {
  SCOPED_TRACE(name + (inverse ? " inverse" : " forward") +
               (in_place ? " in place" : " out of place"));
  ASSERT_TRUE(col::eligible(p));
  ASSERT_EQ(p.blocks, p.tiles0 * p.extent[1] * p.extent[2] * extent3(p));
  ASSERT_EQ(p.tiles0, (p.extent[0] + (std::int64_t{1} << p.log_tile) - 1) >> p.log_tile);
  if (in_place) {
    ASSERT_TRUE(fftcore::detail::tc::same_places(p));
  }
  std::size_t const in_count = span_of(p, p.in_stride, p.in_elem_stride);
  std::size_t const out_count = span_of(p, p.out_stride, p.out_elem_stride);
  unsigned seed = 0;
  std::vector<cd> const x = tcfft::testing::random_complex(in_count, seed);
  SCOPED_TRACE("seed " + std::to_string(seed));
  double max_in2 = 0;  // squared magnitudes (std::abs is a slow hypot)
  for (cd const& v : x) max_in2 = std::max(max_in2, std::norm(v));

  // The definition, by the digits.
  int const l = 1 << p.log_length;
  std::vector<cd> want(out_count, cd(0, 0));
  std::vector<char> covered(out_count, 0);
  std::vector<cd> seq(static_cast<std::size_t>(l));
  std::int64_t const d3_count = extent3(p);
  std::int64_t const twiddle_n = std::int64_t{1} << p.log_twiddle_n;
  for (std::int64_t d3 = 0; d3 < d3_count; ++d3) {
    for (std::int64_t d2 = 0; d2 < p.extent[2]; ++d2) {
      for (std::int64_t d1 = 0; d1 < p.extent[1]; ++d1) {
        for (std::int64_t d0 = 0; d0 < p.extent[0]; ++d0) {
          std::int64_t const d[4] = {d0, d1, d2, d3};
          std::int64_t in = 0, out = 0, tw = 0;
          for (int i = 0; i < 4; ++i) {
            in += d[i] * p.in_stride[i];
            out += d[i] * p.out_stride[i];
            tw += d[i] * p.twiddle_stride[i];
          }
          for (int n = 0; n < l; ++n) {
            seq[static_cast<std::size_t>(n)] =
                x[static_cast<std::size_t>(in + n * p.in_elem_stride)];
          }
          tcfft::testing::fft_radix2(seq);  // sign -1; the inverse's X[k] is its X[-k]
          for (int k = 0; k < l; ++k) {
            cd value = seq[static_cast<std::size_t>(inverse ? (l - k) & (l - 1) : k)] *
                       static_cast<double>(p.scale);
            if (p.log_twiddle_n > 0) {
              value *=
                  tcfft::testing::root_of_unity(static_cast<double>((tw * k) & (twiddle_n - 1)),
                                                static_cast<double>(twiddle_n), inverse);
            }
            auto const at = static_cast<std::size_t>(out + k * p.out_elem_stride);
            ASSERT_LT(at, out_count);
            ASSERT_EQ(covered[at], 0) << "two outputs of the pass at " << at;
            covered[at] = 1;
            want[at] = value;
          }
        }
      }
    }
  }

  // The kernel's data flow.
  std::vector<int> writes(out_count, 0);
  std::vector<cd> got;
  if (in_place) {
    ASSERT_EQ(in_count, out_count);
    got = x;
    run_column(p, inverse, got, got, writes);
  } else {
    got.assign(out_count, cd(std::nan(""), 0));
    run_column(p, inverse, x, got, writes);
  }
  double max_err2 = 0;
  for (std::size_t i = 0; i < out_count; ++i) {
    ASSERT_EQ(writes[i], covered[i] ? 1 : 0)
        << "element " << i << " written " << writes[i] << " times";
    if (!covered[i]) {
      if (in_place) {
        ASSERT_EQ(got[i], x[i]) << "element " << i << " outside the pass changed";
      }
      continue;
    }
    double const err2 = std::norm(got[i] - want[i]);
    max_err2 =
        std::isnan(err2) ? std::numeric_limits<double>::infinity() : std::max(max_err2, err2);
  }
  EXPECT_LT(std::sqrt(max_err2), 1e-9 * std::sqrt(max_in2));
}

/// `p` with D0 cut to `extent0` columns (the last tile partial): tiles0 and blocks recomputed
/// as make_pass forms them, then the block_origin shortcuts.
PassParams with_extent0(PassParams p, std::int64_t extent0) {
  std::int64_t const d3 = extent3(p);
  p.extent[0] = extent0;
  p.tiles0 = (extent0 + (std::int64_t{1} << p.log_tile) - 1) >> p.log_tile;
  p.blocks = p.tiles0 * p.extent[1] * p.extent[2] * d3;
  fftcore::detail::tc::set_origin_shortcuts(p);
  return p;
}

TEST(TcColumnPass, EmulatedPassesGiveTheDft) {
  // The strided, twiddled first passes of the 1-D plans: L = 32, 64, 128 (2^14 scaled 1/N).
  for (std::size_t i = 0; i < kPlans1d.size(); ++i) {
    Plan1d const& plan = kPlans1d[i];
    fftcore::PlanDesc d = desc(1, std::int64_t{1} << plan.log_n, plan.batch);
    bool const by_n = i == 1;
    if (by_n) d.scaling = fftcore::Scaling::kByN;
    std::string const name = plan_name(plan) + (by_n ? " 1/N" : "") + ", first pass";
    PassParams const p = layout_of(d, split(plan.parts)).passes.front();
    if (by_n) {
      ASSERT_EQ(static_cast<double>(p.scale), 1.0 / static_cast<double>(1 << plan.parts[0]));
    }
    check(p, name, false, i % 2 == 0);
    check(p, name, true, i % 2 != 0);
  }
  {
    // 2^21 as {5, 8, 8}: the first pass (T = 256, eight rounds per block).
    PassLayout const l = layout_of(Plan1d{21, 1, {5, 8, 8}});
    ASSERT_EQ(l.passes.size(), 3u);
    EXPECT_EQ(l.passes[0].log_tile, 8);
    check(l.passes[0], "n = 2^21 {5,8,8}, first pass", false, false);
    check(l.passes[0], "n = 2^21 {5,8,8}, first pass", true, true);
  }
  {
    // 2^20 as {6, 7, 7}: the first pass (T = 64, two rounds) and the middle pass (twiddle
    // exponents mod 2^14, the block's base from its tile of d0).
    PassLayout const l = layout_of(Plan1d{20, 1, {6, 7, 7}});
    ASSERT_EQ(l.passes.size(), 3u);
    EXPECT_GT(l.passes[1].tiles0, 1);  // tiles with twiddle bases other than 0
    check(l.passes[0], "n = 2^20 {6,7,7}, first pass", false, true);
    check(l.passes[1], "n = 2^20 {6,7,7}, middle pass", false, true);
    check(l.passes[1], "n = 2^20 {6,7,7}, middle pass", true, false);
  }
  // The column passes of 2-D transforms (untwiddled; 128 x 64: two tiles of 32 columns).
  for (Shape2d const& s : {kShapes2d[3], kShapes2d[1]}) {
    std::string const name = shape_name(s) + ", column pass";
    PassParams const p = column_pass_of(s);
    check(p, name, false, true);
    check(p, name, true, false);
  }
  {
    // The tall 2-D transform's two column passes: twiddles by d1 (twiddle_stride[0] = 0, the
    // block's base), then a scattering pass with different element strides in and out.
    PassLayout const l = layout_of(desc(8192, 64, 2));
    ASSERT_EQ(l.passes.size(), 3u);
    check(l.passes[1], "8192 x 64 batch 2, first column pass", false, true);
    check(l.passes[1], "8192 x 64 batch 2, first column pass", true, false);
    check(l.passes[2], "8192 x 64 batch 2, last column pass", false, false);
    check(l.passes[2], "8192 x 64 batch 2, last column pass", true, false);
  }
  // Partial last tiles: 32 x 2048 batch 4's column pass cut to 2043 columns (tiles0 64: the
  // shift path of block_origin) and to 2011 (tiles0 63: the division path), and 64 x 512
  // batch 17's to 507.
  for (auto [shape, cut] :
       {std::pair{kShapes2d[2], 5}, std::pair{kShapes2d[2], 37}, std::pair{kShapes2d[1], 5}}) {
    PassParams const p = column_pass_of(shape);
    ASSERT_EQ(p.log_tile, 5);
    PassParams const q = with_extent0(p, p.extent[0] - cut);
    ASSERT_NE(q.extent[0] % 32, 0);
    if (shape.rows == 32) {
      EXPECT_EQ(q.log_tiles0 >= 0, cut == 5);
    }
    std::string const name =
        shape_name(shape) + " column pass, " + std::to_string(q.extent[0]) + " columns";
    check(q, name, false, cut == 5);
    check(q, name, true, cut != 5);
  }
  {
    // A real plan's partial tiles: the column FFT of the 128 x 512 R2C transform over its
    // 257 columns, rows padded to 264 in Y, scattering to rows of 257 (T = 64: the last tile
    // holds one column, its second round none), in the fused 2-D layout (the row pairs off,
    // FFTCORE_TC_ROW_PAIRS=0; with them the column FFT runs over 256 whole columns).
    fftcore::PlanDesc d = desc(128, 512, 64);
    d.kind = fftcore::Transform::kR2C;
    fftcore::detail::tc::RealLayout rl;
    ASSERT_EQ(fftcore::detail::tc::build_real_layout(d, rl, true, true, 0),
              fftcore::Status::kSuccess);
    ASSERT_EQ(rl.column.passes.size(), 1u);
    PassParams const& p = rl.column.passes[0];
    ASSERT_TRUE(col::eligible(p));
    EXPECT_EQ(p.extent[0], 257);
    EXPECT_EQ(p.log_tile, 6);
    EXPECT_NE(p.in_elem_stride, p.out_elem_stride);
    EXPECT_EQ(p.scatter, 1);
    check(p, "R2C 128 x 512 batch 64, column pass", false, false);
    check(p, "R2C 128 x 512 batch 64, column pass", true, false);
  }
}

}  // namespace
