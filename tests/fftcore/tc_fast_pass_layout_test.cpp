// SPDX-License-Identifier: MIT
// CPU tests of the register-chained pass (fftcore/src/tc/fast_pass_layout.hpp): the passes it
// takes, bank-conflict freedom of every warp access of every phase (simulated over the 32
// banks), and - emulating the m16n8k16 fragments lane by lane in double precision - that its
// step C / step A data flow computes the DFT of the sequence in the order the store expects.
#include "../../fftcore/src/tc/fast_pass_layout.hpp"

#include <gtest/gtest.h>

#include "common/reference_dft.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <random>
#include <set>
#include <vector>

namespace {

namespace fast = fftcore::detail::tc::fast;
using fftcore::detail::tc::PassParams;
using cd = std::complex<double>;
cd w(double num, double den, bool inverse) {
  return tcfft::testing::root_of_unity(num, den, inverse);
}

/// Counts the warp accesses of a tile shape that hit some bank twice, and checks that the slot
/// map is a bijection onto [0, T L).
struct BankCheck {
  fast::Swizzle s;
  int log_l;
  int log_t;
  int conflicts = 0;
  int accesses = 0;
  void access(std::array<int, 32> const& t, std::array<int, 32> const& n) {
    std::set<int> banks;
    for (int lane = 0; lane < 32; ++lane) banks.insert(fast::slot(s, t[lane], n[lane]) & 31);
    ++accesses;
    if (banks.size() != 32) ++conflicts;
  }
};

void simulate_shape(int log_l, int log_t, bool fin, bool fout, BankCheck& c) {
  int const log_q = log_l - fast::kLogSub;
  int const q = 1 << log_q;
  int const threads = (1 << (log_l + log_t)) / 16;
  int const warps = threads / 32;
  std::array<int, 32> t{};
  std::array<int, 32> n{};
  bool const split = fast::split_step_c(log_l);
  for (int warp = 0; warp < warps && split; ++warp) {
    for (int k2 = 0; k2 < 16; ++k2) {  // step C1: each task's 16 outputs written once
      for (int lane = 0; lane < 32; ++lane) {
        auto const e = fast::split_task(warp * 32 + lane, log_q);
        t[lane] = e.t;
        n[lane] = (e.n & 255) + 256 * (k2 + 16 * (e.n >> 8));
      }
      c.access(t, n);
    }
    for (int s = 0; s < 16 * 16 / q; ++s) {  // step C2: Q1 reads and writes of each task
      for (int j = 0; j < q / 16; ++j) {
        for (int lane = 0; lane < 32; ++lane) {
          auto const e = fast::split_c2_task(warp * 32 + lane, s, threads);
          t[lane] = e.t;
          n[lane] = e.n + 4096 * j;
        }
        c.access(t, n);
      }
    }
  }
  for (int warp = 0; warp < warps; ++warp) {
    for (int s = 0; s < 16 / q; ++s) {  // load + step C: each task's Q outputs written once
      for (int k = 0; k < q; ++k) {
        for (int lane = 0; lane < 32; ++lane) {
          auto const e = fast::load_task(warp * 32 + lane, s, threads, fin, log_t);
          t[lane] = e.t;
          n[lane] = e.n + (k << fast::kLogSub);
        }
        c.access(t, n);
      }
    }
    for (int i = 0; i < 16; ++i) {  // store
      for (int lane = 0; lane < 32; ++lane) {
        auto const e = fast::tile_element(warp * 32 + lane + i * threads, fout, log_t, log_l);
        t[lane] = e.t;
        n[lane] = fast::output_position(e.n, log_q);
      }
      c.access(t, n);
    }
    for (int u = 0; u < 2; ++u) {  // step A
      int const task = warp + u * warps;
      int const tt = task >> log_q;
      int const kq = task & (q - 1);
      for (int j = 0; j < 2; ++j) {
        for (int r = 0; r < 2; ++r) {
          for (int h = 0; h < 2; ++h) {
            for (int lane = 0; lane < 32; ++lane) {
              t[lane] = tt;
              n[lane] = fast::step_a_read(kq, lane >> 2, lane & 3, j, r, h);
            }
            c.access(t, n);
          }
        }
        for (int i = 0; i < 4; ++i) {
          for (int lane = 0; lane < 32; ++lane) {
            t[lane] = tt;
            n[lane] = (kq << fast::kLogSub) + fast::step_a_output_km(lane >> 2, lane & 3, j, i);
          }
          c.access(t, n);
        }
      }
    }
  }
}

TEST(FastPassLayout, SlotsAreAPermutationOfTheTile) {
  for (int log_l = fast::kMinLogLength; log_l <= fast::kMaxLogLength; ++log_l) {
    for (int log_t = 0; log_l + log_t <= fast::kLogBigTile; ++log_t) {
      if (log_l + log_t < 9) continue;
      for (bool fout : {false, true}) {
        fast::Swizzle const s = fast::make_swizzle(log_l, log_t, fout);
        std::set<int> seen;
        for (int t = 0; t < (1 << log_t); ++t) {
          for (int n = 0; n < (1 << log_l); ++n) seen.insert(fast::slot(s, t, n));
        }
        EXPECT_EQ(seen.size(), std::size_t{1} << (log_l + log_t));
        EXPECT_EQ(*seen.rbegin(), (1 << (log_l + log_t)) - 1);
      }
    }
  }
}

TEST(FastPassLayout, LoadTasksAndStoreSlotsSplitOverTheBitsOfTheElement) {
  int checked = 0;
  for (int log_l = fast::kMinLogLength; log_l <= fast::kMaxLogLength; ++log_l) {
    for (int log_t = 0; log_l + log_t <= fast::kLogBigTile; ++log_t) {
      int const threads = (1 << (log_l + log_t)) / 16;
      for (int layout = 0; layout < 4; ++layout) {
        bool const fin = (layout & 1) != 0 && log_t > 0;
        bool const fout = (layout & 2) != 0 && log_t > 0;
        fast::Swizzle const s = fast::make_swizzle(log_l, log_t, fout);
        for (int tid = 0; tid < threads; ++tid) {
          for (int i = 0; i < 16; ++i) {
            int const e = tid + i * threads;
            if (i < (16 >> (log_l - fast::kLogSub))) {  // task i of the fused load
              auto const a = fast::load_task(tid, i, threads, fin, log_t);
              auto const b = fast::load_task(tid, 0, threads, fin, log_t);
              auto const d = fast::load_task(0, i, threads, fin, log_t);
              ASSERT_EQ(fast::slot(s, a.t, a.n), fast::slot(s, b.t, b.n) ^ fast::slot(s, d.t, d.n));
              ASSERT_EQ(a.t, b.t | d.t);
              ASSERT_EQ(a.n, b.n | d.n);
            }
            ASSERT_EQ(fast::store_slot(s, e, fout, log_t),
                      fast::store_slot(s, tid, fout, log_t) ^
                          fast::store_slot(s, i * threads, fout, log_t));
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 100000);
}

TEST(FastPassLayout, LoadTasksCoverTheTileOnce) {
  for (int log_l = fast::kMinLogLength; log_l <= fast::kMaxLogLength; ++log_l) {
    int const q = 1 << (log_l - fast::kLogSub);
    for (int log_t = 0; log_l + log_t <= fast::kLogBigTile; ++log_t) {
      int const threads = (1 << (log_l + log_t)) / 16;
      for (bool fin : {false, true}) {
        if (fin && log_t == 0) continue;
        std::set<std::pair<int, int>> seen;
        std::set<std::pair<int, int>> seen_c2;
        for (int tid = 0; tid < threads; ++tid) {
          if (fast::split_step_c(log_l)) {  // split step C: C1 then C2 tasks
            if (fin) continue;
            auto const e = fast::split_task(tid, log_l - fast::kLogSub);
            ASSERT_LT(e.t, 1 << log_t);
            ASSERT_LT(e.n, 256 * q / 16);
            for (int k = 0; k < 16; ++k) seen.insert({e.t, e.n + 256 * (q / 16) * k});
            for (int s = 0; s < 256 / q; ++s) {
              auto const c = fast::split_c2_task(tid, s, threads);
              ASSERT_LT(c.t, 1 << log_t);
              ASSERT_LT(c.n, 4096);
              for (int k = 0; k < q / 16; ++k) seen_c2.insert({c.t, c.n + 4096 * k});
            }
            continue;
          }
          for (int s = 0; s < 16 / q; ++s) {
            auto const e = fast::load_task(tid, s, threads, fin, log_t);
            ASSERT_LT(e.t, 1 << log_t);
            ASSERT_LT(e.n, 256);
            for (int k = 0; k < q; ++k) seen.insert({e.t, e.n + 256 * k});
          }
        }
        if (fast::split_step_c(log_l) && fin) continue;
        EXPECT_EQ(seen.size(), std::size_t{1} << (log_l + log_t)) << log_l << " " << log_t;
        if (fast::split_step_c(log_l)) {
          EXPECT_EQ(seen_c2.size(), std::size_t{1} << (log_l + log_t)) << log_l << " " << log_t;
        }
      }
    }
  }
}

TEST(FastPassLayout, KernelShortcutsEqualTheSlotMap) {
  int checked = 0;
  for (int log_l = fast::kMinLogLength; log_l <= fast::kMaxLogLength; ++log_l) {
    int const q = 1 << (log_l - fast::kLogSub);
    for (int log_t = 0; log_l + log_t <= fast::kLogBigTile; ++log_t) {
      for (bool fout : {false, true}) {
        fast::Swizzle const s = fast::make_swizzle(log_l, log_t, fout);
        for (int t = 0; t < (1 << log_t); ++t) {
          for (int m = 0; m < 256; ++m) {
            for (int k = 0; k < q; ++k) {
              ASSERT_EQ(fast::step_c_slot(s, fast::slot(s, t, m), k), fast::slot(s, t, m + 256 * k));
            }
          }
          for (int kq = 0; kq < q; ++kq) {
            for (int lane = 0; lane < 32; ++lane) {
              int const g = lane >> 2;
              int const qd = lane & 3;
              int const base = fast::step_a_base(s, t, kq, g, qd);
              for (int j = 0; j < 2; ++j) {
                for (int r = 0; r < 2; ++r) {
                  for (int h = 0; h < 2; ++h) {  // reads: (a, b, r) = (j, h, r)
                    ASSERT_EQ(fast::step_a_slot(base, j, h, r),
                              fast::slot(s, t, fast::step_a_read(kq, g, qd, j, r, h)));
                  }
                }
                for (int i = 0; i < 4; ++i) {  // writes: (a, b, r) = (i >> 1, i & 1, j)
                  ASSERT_EQ(fast::step_a_slot(base, i >> 1, i & 1, j),
                            fast::slot(s, t, (kq << 8) + fast::step_a_output_km(g, qd, j, i)));
                  ++checked;
                }
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 100000);
}

TEST(FastPassLayout, EveryWarpAccessIsBankConflictFree) {
  int shapes = 0;
  for (int log_l = fast::kMinLogLength; log_l <= fast::kMaxLogLength; ++log_l) {
    for (int log_t = 0; log_l + log_t <= fast::kLogBigTile; ++log_t) {
      if (log_l + log_t < 9) continue;
      for (int layout = 0; layout < 4; ++layout) {
        bool const fin = (layout & 1) != 0 && log_t > 0;
        bool const fout = (layout & 2) != 0 && log_t > 0;
        if (fin && fast::split_step_c(log_l)) continue;  // rows in only (fast::eligible)
        BankCheck c{fast::make_swizzle(log_l, log_t, fout), log_l, log_t};
        simulate_shape(log_l, log_t, fin, fout, c);
        EXPECT_EQ(c.conflicts, 0) << "L = 2^" << log_l << ", T = 2^" << log_t << ", fast in "
                                  << fin << ", fast out " << fout << ": " << c.conflicts
                                  << " of " << c.accesses << " warp accesses conflict";
        EXPECT_GT(c.accesses, 0);
        ++shapes;
      }
    }
  }
  EXPECT_GT(shapes, 45);
}

/// The fused R2C store (fast::r2c_item, real_out): over every tile the kernel instantiates it
/// for, the items write each of the M + 1 outputs of every sequence once, the kernel's slot
/// shortcuts equal output_slot of (t, j) and of the partner, and the two reads of a warp
/// (ascending j, descending partners) take at most two wavefronts.
TEST(FastPassLayout, R2cStoreItemsCoverTheHalfSpectrumOnce) {
  int shapes = 0;
  for (int log_l = fast::kMinLogLength; log_l <= fast::kMaxLogLength; ++log_l) {
    int const m = 1 << log_l;
    for (int log_t = 0; log_l + log_t <= fast::kLogMaxTile - 1 ||
                        (fast::split_step_c(log_l) && log_t == 0);
         ++log_t) {
      if (log_l + log_t < 9) continue;
      fast::Swizzle const s = fast::make_swizzle(log_l, log_t, false);
      int const threads = (1 << (log_l + log_t)) / 16;
      int const stride = fast::r2c_stride(threads, log_l);
      std::vector<int> written(static_cast<std::size_t>((m + 1) << log_t), 0);
      int worst_wavefronts = 0;
      for (int warp = 0; warp < threads / 32; ++warp) {
        for (int i = 0; i < 8; ++i) {
          std::array<int, 32> own_banks{}, partner_banks{};
          for (int lane = 0; lane < 32; ++lane) {
            int const tid = warp * 32 + lane;
            auto const item0 = fast::r2c_item(tid, log_l);
            auto const d = fast::r2c_item(i * threads, log_l);
            auto const e = fast::r2c_item(tid + i * threads, log_l);
            ASSERT_EQ(item0.t + d.t, e.t);
            ASSERT_EQ(item0.n + d.n, e.n);
            int const own = fast::output_slot(s, item0.t, item0.n) ^ fast::output_slot(s, d.t, d.n);
            int const partner = fast::output_slot(s, item0.t, (stride - item0.n) & (stride - 1)) ^
                                fast::r2c_partner_term(s, d, stride, item0.n != 0);
            ASSERT_EQ(own, fast::output_slot(s, e.t, e.n)) << log_l << " " << log_t << " " << tid;
            ASSERT_EQ(partner, fast::output_slot(s, e.t, fast::r2c_partner(e.n, log_l)))
                << "L = 2^" << log_l << ", T = 2^" << log_t << ", thread " << tid << ", item " << i;
            ++own_banks[static_cast<std::size_t>(own & 31)];
            ++partner_banks[static_cast<std::size_t>(partner & 31)];
            auto const at = [&](int k) { return static_cast<std::size_t>(e.t * (m + 1) + k); };
            if (e.n == 0) {
              ++written[at(0)];
              ++written[at(m)];
              ++written[at(m / 2)];
            } else {
              ++written[at(e.n)];
              ++written[at(m - e.n)];
            }
          }
          worst_wavefronts =
              std::max({worst_wavefronts, *std::max_element(own_banks.begin(), own_banks.end()),
                        *std::max_element(partner_banks.begin(), partner_banks.end())});
        }
      }
      for (std::size_t k = 0; k < written.size(); ++k) {
        ASSERT_EQ(written[k], 1) << "L = 2^" << log_l << ", T = 2^" << log_t << ", output " << k;
      }
      EXPECT_LE(worst_wavefronts, 2) << "L = 2^" << log_l << ", T = 2^" << log_t;
      ++shapes;
    }
  }
  EXPECT_EQ(shapes, 16);
}

TEST(FastPassLayout, TakesFp16PassesOfLength256To16384WithoutLoadHooks) {
  PassParams p;
  p.log_length = 10;
  p.log_tile = 3;
  EXPECT_TRUE(fast::eligible(p));
  p.log_length = 7;
  EXPECT_FALSE(fast::eligible(p));
  p.log_length = 15;
  p.log_tile = 0;
  EXPECT_FALSE(fast::eligible(p));
  p.log_length = 14;
  EXPECT_TRUE(fast::eligible(p)) << "one sequence of 16384 points, 1024 threads";
  p.log_length = 13;
  EXPECT_TRUE(fast::eligible(p)) << "one sequence of 8192 points, 512 threads";
  p.log_tile = 1;
  EXPECT_FALSE(fast::eligible(p)) << "split step C takes one sequence per tile";
  p.log_length = 12;
  p.log_tile = 3;
  EXPECT_FALSE(fast::eligible(p)) << "T L = 2^15 is more than 1024 threads";
  p.log_tile = 2;
  EXPECT_TRUE(fast::eligible(p));
  p.in_fp32 = 1;
  EXPECT_FALSE(fast::eligible(p));
  p.in_fp32 = 0;
  p.out_fp32 = 1;
  EXPECT_FALSE(fast::eligible(p));
  p.out_fp32 = 0;
  int factors = 0;
  p.store_factors = &factors;
  EXPECT_TRUE(fast::eligible(p)) << "store hooks are applied in step A";
  p.load_factors = &factors;
  EXPECT_FALSE(fast::eligible(p)) << "load hooks are not";
}

/// One m16n8k16 product on lane fragments, as the PTX ISA lays them out (mma.cuh):
/// a[lane][reg][half] = A[group + 8 (reg & 1)][2 quad + 8 (reg >> 1) + half],
/// b[lane][reg][half] = B[2 quad + 8 reg + half][group], d[lane][i] = D[group + 8 (i >> 1)][2 quad + (i & 1)].
TEST(FastPassLayout, VectorLoadsNeedRunsOfFourAlignedElements) {
  PassParams p;  // rows: 4 x 1024 contiguous
  p.log_length = 10;
  p.log_tile = 2;
  p.in_stride[0] = 1024;
  p.in_elem_stride = 1;
  p.in_stride[1] = 4096;
  EXPECT_TRUE(fast::vector_loads(p));
  p.in_elem_stride = 2;
  EXPECT_FALSE(fast::vector_loads(p)) << "rows with a stride";
  p.in_elem_stride = 1;
  p.in_stride[0] = 1026;
  EXPECT_FALSE(fast::vector_loads(p)) << "row starts not a multiple of 4";
  p.in_stride[0] = 1024;
  p.in_stride[2] = 6;
  EXPECT_FALSE(fast::vector_loads(p)) << "tile origins not a multiple of 4";
  p.in_stride[2] = 0;
  // Adjacent columns: T columns of stride 1, elements 4 K apart.
  p.in_stride[0] = 1;
  p.log_tile = 3;
  p.in_elem_stride = 4096;
  EXPECT_TRUE(fast::vector_loads(p));
  p.log_tile = 1;
  EXPECT_FALSE(fast::vector_loads(p)) << "2 columns: runs of 2";
  p.log_tile = 3;
  p.in_elem_stride = 4098;
  EXPECT_FALSE(fast::vector_loads(p));
}

using AFrag = std::array<std::array<std::array<cd, 2>, 4>, 32>;
using BFrag = std::array<std::array<std::array<cd, 2>, 2>, 32>;
using DFrag = std::array<std::array<cd, 4>, 32>;

DFrag mma(AFrag const& a, BFrag const& b) {
  cd am[16][16];
  cd bm[16][8];
  for (int lane = 0; lane < 32; ++lane) {
    int const g = lane >> 2;
    int const qd = lane & 3;
    for (int r = 0; r < 4; ++r) {
      for (int h = 0; h < 2; ++h) am[g + 8 * (r & 1)][2 * qd + 8 * (r >> 1) + h] = a[lane][r][h];
    }
    for (int r = 0; r < 2; ++r) {
      for (int h = 0; h < 2; ++h) bm[2 * qd + 8 * r + h][g] = b[lane][r][h];
    }
  }
  DFrag d{};
  for (int lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < 4; ++i) {
      int const row = (lane >> 2) + 8 * (i >> 1);
      int const col = 2 * (lane & 3) + (i & 1);
      cd s = 0;
      for (int k = 0; k < 16; ++k) s += am[row][k] * bm[k][col];
      d[lane][i] = s;
    }
  }
  return d;
}

/// The kernel's data flow on one sequence of L = 256 Q points: step C, then per k_q the two
/// chained products with the D fragments of the first reused as the A fragments of the second
/// (A reg r = tile r >> 1, floats 2 (r & 1) + half) and the DFT matrix's B fragments taken from
/// its A fragments (tile j: regs j and j + 2, F being symmetric).
std::vector<cd> emulate_fast_pass(std::vector<cd> const& x, int log_l, bool inverse) {
  int const l = 1 << log_l;
  int const log_q = log_l - fast::kLogSub;
  int const q = 1 << log_q;
  std::vector<cd> sm(x);
  if (fast::split_step_c(log_l)) {
    // Split step C with the kernel's task maps (T = 1): C1 for every thread's task, then C2.
    int const q1n = q / 16;
    int const threads = l / 16;
    std::vector<cd> c1(static_cast<std::size_t>(l));
    for (int tid = 0; tid < threads; ++tid) {
      auto const e = fast::split_task(tid, log_q);
      int const m = e.n & 255;
      int const q1 = e.n >> 8;
      for (int k2 = 0; k2 < 16; ++k2) {
        cd y = 0;
        for (int q2 = 0; q2 < 16; ++q2) y += sm[e.n + 256 * q1n * q2] * w(q2 * k2, 16, inverse);
        c1[m + 256 * (k2 + 16 * q1)] = y * w(q1 * k2, q, inverse);
      }
    }
    for (int tid = 0; tid < threads; ++tid) {
      for (int s = 0; s < 16 / q1n; ++s) {
        auto const c = fast::split_c2_task(tid, s, threads);
        int const m = c.n & 255;
        int const k2 = c.n >> 8;
        for (int k1 = 0; k1 < q1n; ++k1) {
          cd y = 0;
          for (int j = 0; j < q1n; ++j) y += c1[c.n + 4096 * j] * w(j * k1, q1n, inverse);
          sm[c.n + 4096 * k1] = y * w(m * (k2 + 16 * k1), l, inverse);
        }
      }
    }
  }
  for (int m = 0; m < 256 && q > 1 && !fast::split_step_c(log_l); ++m) {  // step C
    std::vector<cd> y(static_cast<std::size_t>(q));
    for (int k = 0; k < q; ++k) {
      for (int i = 0; i < q; ++i) y[k] += sm[m + 256 * i] * w(i * k, q, inverse);
    }
    for (int k = 0; k < q; ++k) sm[m + 256 * k] = y[k] * w(m * k, l, inverse);
  }
  AFrag f{};
  for (int lane = 0; lane < 32; ++lane) {
    for (int r = 0; r < 4; ++r) {
      for (int h = 0; h < 2; ++h) {
        int const row = (lane >> 2) + 8 * (r & 1);
        int const col = 2 * (lane & 3) + 8 * (r >> 1) + h;
        f[lane][r][h] = w(row * col, 16, inverse);
      }
    }
  }
  std::vector<cd> out(static_cast<std::size_t>(l));
  for (int kq = 0; kq < q; ++kq) {
    DFrag y[2];
    for (int j = 0; j < 2; ++j) {
      BFrag b{};
      for (int lane = 0; lane < 32; ++lane) {
        for (int r = 0; r < 2; ++r) {
          for (int h = 0; h < 2; ++h) {
            b[lane][r][h] = sm[fast::step_a_read(kq, lane >> 2, lane & 3, j, r, h)];
          }
        }
      }
      y[j] = mma(f, b);
    }
    AFrag a{};
    for (int lane = 0; lane < 32; ++lane) {
      int const g = lane >> 2;
      int const qd = lane & 3;
      for (int r = 0; r < 4; ++r) {
        for (int h = 0; h < 2; ++h) {
          int const j = r >> 1;
          int const i = 2 * (r & 1) + h;
          int const n1 = 8 * j + 2 * qd + (i & 1);
          int const k1 = g + 8 * (i >> 1);
          a[lane][r][h] = y[j][lane][i] * w(n1 * k1, 256, inverse);
        }
      }
    }
    for (int j = 0; j < 2; ++j) {
      BFrag b{};
      for (int lane = 0; lane < 32; ++lane) {
        for (int h = 0; h < 2; ++h) {
          b[lane][0][h] = f[lane][j][h];
          b[lane][1][h] = f[lane][j + 2][h];
        }
      }
      DFrag const z = mma(a, b);
      for (int lane = 0; lane < 32; ++lane) {
        for (int i = 0; i < 4; ++i) {
          int const km = fast::step_a_output_km(lane >> 2, lane & 3, j, i);
          out[(kq << fast::kLogSub) + km] = z[lane][i];
        }
      }
    }
  }
  std::vector<cd> result(static_cast<std::size_t>(l));
  for (int k = 0; k < l; ++k) result[k] = out[fast::output_position(k, log_q)];
  return result;
}

TEST(FastPassLayout, EmulatedDataFlowIsTheDft) {
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int log_l = fast::kMinLogLength; log_l <= fast::kMaxLogLength; ++log_l) {
    for (bool inverse : {false, true}) {
      int const l = 1 << log_l;
      std::vector<cd> x(static_cast<std::size_t>(l));
      for (auto& v : x) v = {u(rng), u(rng)};
      std::vector<cd> const got = emulate_fast_pass(x, log_l, inverse);
      double err = 0;
      double norm = 0;
      // Every output up to L = 4096; beyond, every 7th (the O(L^2) reference dominates).
      int const k_step = l > 4096 ? 7 : 1;
      for (int k = 0; k < l; k += k_step) {
        cd ref = 0;
        for (int n = 0; n < l; ++n) ref += x[n] * w(static_cast<double>(n) * k, l, inverse);
        err = std::max(err, std::abs(got[k] - ref));
        norm = std::max(norm, std::abs(ref));
      }
      EXPECT_GT(norm, 1.0);
      EXPECT_LT(err, 1e-9 * norm) << "L = " << l << (inverse ? " inverse" : " forward");
    }
  }
}

}  // namespace
