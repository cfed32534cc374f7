// SPDX-License-Identifier: MIT
// CPU tests of the tall pass's Tensor Core stages (fftcore/src/tc/tall_mma_layout.hpp,
// kernels/tall_mma_kernel.cu) at every length (512..4096 rows): the swizzled words are one to
// one, the warps' tiles deal every butterfly of stages 1 and 2 once, every shared-memory access
// of the three stages meets 32 distinct banks (the 8-byte stores per half-warp), the fragments
// assembled by the mma.sync m16n8k16 layout (tc/mma.cuh) give the 16-point DFT, and - running the
// pass in double with the kernel's tiles, lanes, swizzle and FP16 words between the stages -
// each column's DFT.
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <set>
#include <string>
#include <vector>

#include "../../fftcore/src/tc/tall_mma_layout.hpp"
#include "common/reference_dft.hpp"

namespace {

namespace tp = fftcore::detail::tc::tall_pass;
namespace tm = fftcore::detail::tc::tall_pass::mma;
using cd = std::complex<double>;

constexpr int kLengths[] = {9, 10, 11, 12};

struct Geometry {
  int log_l;
  int l() const { return 1 << log_l; }
  int columns() const { return 1 << tp::log_columns(log_l); }
  int r3() const { return 1 << tp::log_last_radix(log_l); }
  int warps() const { return 1 << tm::log_warps(log_l); }
  int butterflies() const { return 1 << tp::log_column_butterflies(log_l); }
};

/// The value an A-fragment half holds (F's entry, in double).
double coefficient_value(tm::Coefficient q) {
  cd const w = tcfft::testing::root_of_unity(q.exponent, 16, false);
  double const v = q.imaginary ? w.imag() : w.real();
  return q.negated ? -v : v;
}

/// F_0 and F_1 (16 x 16 each, the even and the odd inputs' columns) assembled from every lane's
/// A fragments by the m16n8k16 layout: register r of product s holds
/// F_s[g + 8 (r & 1)][2 t + 8 (r >> 1) + half].
std::vector<std::vector<std::vector<double>>> assembled_f() {
  std::vector<std::vector<std::vector<double>>> a(
      2, std::vector<std::vector<double>>(16, std::vector<double>(16, 1e9)));
  for (int lane = 0; lane < 32; ++lane) {
    int const g = lane >> 2, t = lane & 3;
    for (int s = 0; s < 2; ++s) {
      for (int r = 0; r < 4; ++r) {
        for (int half = 0; half < 2; ++half) {
          a[static_cast<std::size_t>(s)][static_cast<std::size_t>(g + 8 * (r & 1))]
           [static_cast<std::size_t>(2 * t + 8 * (r >> 1) + half)] =
               coefficient_value(tm::coefficient(g, t, s, r, half));
        }
      }
    }
  }
  return a;
}

/// One tile's products as the kernel forms them: column n's inputs x[n][i] (i < 16) enter B_s
/// by the lanes' words (register r of product s of lane (g, t): input input_of(t, r, s) of
/// column g, real part low), D_s = F_s B_s, and output output_of(g, mt) of column 2 t + e is
/// D_0 + D_1 (mt = 0) or D_0 - D_1 (mt = 1) at the accumulators' row g (real), g + 8 (imaginary).
std::vector<std::vector<cd>> tile_product(std::vector<std::vector<std::vector<double>>> const& f,
                                          std::vector<std::vector<cd>> const& x) {
  double d[2][16][8] = {};
  for (int s = 0; s < 2; ++s) {
    double b[16][8] = {};
    for (int lane = 0; lane < 32; ++lane) {
      int const g = lane >> 2, t = lane & 3;
      for (int r = 0; r < 2; ++r) {
        cd const v =
            x[static_cast<std::size_t>(g)][static_cast<std::size_t>(tm::input_of(t, r, s))];
        int const k = 2 * t + 8 * r;  // B rows k, k + 1 of column g
        b[k][g] = v.real();
        b[k + 1][g] = v.imag();
      }
    }
    for (int row = 0; row < 16; ++row) {
      for (int n = 0; n < 8; ++n) {
        for (int k = 0; k < 16; ++k) {
          d[s][row][n] += f[static_cast<std::size_t>(s)][static_cast<std::size_t>(row)]
                           [static_cast<std::size_t>(k)] *
                          b[k][n];
        }
      }
    }
  }
  std::vector<std::vector<cd>> y(8, std::vector<cd>(16, cd(1e9, 1e9)));
  for (int lane = 0; lane < 32; ++lane) {
    int const g = lane >> 2, t = lane & 3;
    for (int mt = 0; mt < 2; ++mt) {
      double const sign = mt == 0 ? 1.0 : -1.0;
      for (int e = 0; e < 2; ++e) {
        int const n = 2 * t + e;
        double const re = d[0][g][n] + sign * d[1][g][n];
        double const im = d[0][g + 8][n] + sign * d[1][g + 8][n];
        y[static_cast<std::size_t>(n)][static_cast<std::size_t>(tm::output_of(g, mt))] = cd(re, im);
      }
    }
  }
  return y;
}

TEST(TcTallMma, FragmentsGiveThe16PointDft) {
  auto const f = assembled_f();
  for (auto const& fs : f) {
    for (auto const& row : fs) {
      for (double v : row) ASSERT_LE(std::abs(v), 1.0);  // every entry set
    }
  }
  // Every input enters once: input_of is one to one onto 0..15.
  std::set<int> inputs;
  for (int t = 0; t < 4; ++t) {
    for (int r = 0; r < 2; ++r) {
      for (int s = 0; s < 2; ++s) inputs.insert(tm::input_of(t, r, s));
    }
  }
  EXPECT_EQ(inputs.size(), 16u);
  unsigned seed = 0;
  std::vector<std::vector<cd>> x(8);
  for (auto& column : x) column = tcfft::testing::random_complex(16, seed);
  auto const y = tile_product(f, x);
  for (int n = 0; n < 8; ++n) {
    std::vector<cd> ref = x[static_cast<std::size_t>(n)];
    tcfft::testing::fft_radix2(ref);
    EXPECT_LT(tcfft::testing::relative_l2_error(y[static_cast<std::size_t>(n)], ref), 1e-14)
        << "column " << n << " seed " << seed;
  }
  // The FP16 hi + lo parts of F's entries carry them to ~2^-22 (hi alone: ~2^-12).
  for (auto const& fs : f) {
    for (auto const& row : fs) {
      for (double v : row) {
        auto const hi = static_cast<double>(__half2float(__float2half_rn(static_cast<float>(v))));
      auto const lo =
          static_cast<double>(__half2float(__float2half_rn(static_cast<float>(v - hi))));
        EXPECT_LE(std::abs(hi + lo - v), std::ldexp(1.0, -21)) << v;
      }
    }
  }
}

TEST(TcTallMma, SwizzledWordsAreOneToOne) {
  for (int log_l : kLengths) {
    Geometry const geo{log_l};
    std::set<int> slots;
    for (int c = 0; c < geo.columns(); ++c) {
      for (int a = 0; a < geo.l(); ++a) slots.insert(tm::mma_slot(c, a, log_l));
    }
    EXPECT_EQ(static_cast<int>(slots.size()), geo.columns() * geo.l()) << "L " << geo.l();
    EXPECT_EQ(*slots.begin(), 0);
    EXPECT_EQ(*slots.rbegin(), geo.columns() * geo.l() - 1);
    EXPECT_LE(geo.columns() * geo.l(), tp::slots(log_l));  // fits the kernel's words
  }
}

TEST(TcTallMma, TilesDealEveryButterflyOnce) {
  for (int log_l : kLengths) {
    Geometry const geo{log_l};
    ASSERT_EQ(geo.warps() * tm::kTilesPerWarp * 8, geo.columns() * geo.butterflies());
    std::vector<int> dealt(static_cast<std::size_t>(geo.columns() * geo.butterflies()), 0);
    for (int warp = 0; warp < geo.warps(); ++warp) {
      for (int i = 0; i < tm::kTilesPerWarp; ++i) {
        int const c0 = tm::tile_first_column(warp, i, log_l);
        ASSERT_EQ(c0 % 8, 0);
        // The kernel forms the warp's tiles as w_warp + i / (C / 8) and column 8 (i mod C / 8).
        ASSERT_EQ(c0, tm::tile_first_column(0, i, log_l));
        ASSERT_EQ(tm::tile_butterfly(warp, i, log_l),
                  tm::tile_butterfly(warp, 0, log_l) + (i >> tm::log_column_groups(log_l)));
        for (int g = 0; g < 8; ++g) {
          ++dealt.at(static_cast<std::size_t>(tm::tile_butterfly(warp, i, log_l) * geo.columns() +
                                              c0 + g));
        }
      }
    }
    EXPECT_EQ(std::count(dealt.begin(), dealt.end(), 1), static_cast<long>(dealt.size()))
        << "L " << geo.l();
  }
}

/// The banks of a half-warp's 8-byte stores (lanes 16 h .. 16 h + 15: 16 pairs of adjacent
/// words) or a warp's 4-byte accesses: 32 distinct words in 32 distinct banks.
void expect_32_banks(std::vector<int> const& word_index, std::string const& what) {
  std::set<int> banks;
  for (int w : word_index) banks.insert(w & 31);
  EXPECT_EQ(banks.size(), 32u) << what;
}

TEST(TcTallMma, SharedAccessesMeet32Banks) {
  for (int log_l : kLengths) {
    Geometry const geo{log_l};
    for (int warp = 0; warp < geo.warps(); ++warp) {
      for (int i = 0; i < tm::kTilesPerWarp; ++i) {
        int const w = tm::tile_butterfly(warp, i, log_l);
        int const c0 = tm::tile_first_column(warp, i, log_l);
        std::string const at = "L " + std::to_string(geo.l()) + " warp " + std::to_string(warp) +
                               " tile " + std::to_string(i);
        // Stage 2's B words: lane (g, t) reads input input_of(t, r, s) of column c0 + g.
        for (int s = 0; s < 2; ++s) {
          for (int r = 0; r < 2; ++r) {
            std::vector<int> words;
            for (int lane = 0; lane < 32; ++lane) {
              int const a = tp::position(1, w, tm::input_of(lane & 3, r, s), log_l);
              words.push_back(tm::mma_slot(c0 + (lane >> 2), a, log_l));
            }
            expect_32_banks(words, at + " stage 2 read");
          }
        }
        // Stages 1 and 2's stores: lane (g, t) writes output output_of(g, mt) of columns
        // c0 + 2 t and c0 + 2 t + 1 as one 8-byte store.
        for (int stage = 0; stage < 2; ++stage) {
          for (int mt = 0; mt < 2; ++mt) {
            for (int half = 0; half < 2; ++half) {
              std::vector<int> words;
              for (int lane = 16 * half; lane < 16 * half + 16; ++lane) {
                int const a = tp::position(stage, w, tm::output_of(lane >> 2, mt), log_l);
                int const first = tm::mma_slot(c0 + 2 * (lane & 3), a, log_l);
                ASSERT_EQ(first % 2, 0) << at;
                ASSERT_EQ(tm::mma_slot(c0 + 2 * (lane & 3) + 1, a, log_l), first + 1) << at;
                words.push_back(first);
                words.push_back(first + 1);
              }
              expect_32_banks(words, at + " stage " + std::to_string(stage + 1) + " store");
            }
          }
        }
      }
    }
    // Stage 3's reads (tall_pass_stages.cuh: thread j on column j mod C, butterflies
    // butterfly(j, v)) in the swizzled words.
    int const groups = tp::kRounds << tp::log_last_group(log_l);
    for (int v = 0; v < groups; ++v) {
      for (int warp = 0; warp < geo.warps(); ++warp) {
        for (int m = 0; m < geo.r3(); ++m) {
          std::vector<int> words;
          for (int lane = 0; lane < 32; ++lane) {
            int const q = tp::butterfly(32 * warp + lane, v, log_l);
            int const a = tp::position(2, tp::column_butterfly(q, log_l), m, log_l);
            words.push_back(tm::mma_slot(tp::column_of(q, log_l), a, log_l));
          }
          expect_32_banks(words, "L " + std::to_string(geo.l()) + " stage 3 read");
        }
      }
    }
  }
}

// Stage 1's twiddle table: every butterfly b < L / 16 and output k1 < 16 has its own entry
// among the table's L, holding W_L^(b k1) (the FP32 stages' twiddle_exponent); a warp's reads
// (lane (g, t) of a tile reads entry (b, output_of(g, mt)) as one float2) put no two different
// words in one bank.
TEST(TcTallMma, Stage1TwiddleTableHoldsEveryFactorOnce) {
  for (int log_l : kLengths) {
    Geometry const geo{log_l};
    std::set<int> entries;
    for (int b = 0; b < geo.l() / 16; ++b) {
      for (int k1 = 0; k1 < 16; ++k1) {
        int const e = tm::stage1_twiddle_entry(b, k1);
        ASSERT_GE(e, 0);
        ASSERT_LT(e, geo.l());
        entries.insert(e);
        EXPECT_EQ(tm::stage1_twiddle_exponent(e, log_l), tp::twiddle_exponent(0, b, k1, log_l))
            << "L " << geo.l() << " b " << b << " k1 " << k1;
      }
    }
    EXPECT_EQ(entries.size(), static_cast<std::size_t>(geo.l())) << "L " << geo.l();
    for (int warp = 0; warp < geo.warps(); ++warp) {
      for (int i = 0; i < tm::kTilesPerWarp; ++i) {
        int const b = tm::tile_butterfly(warp, i, log_l);
        for (int mt = 0; mt < 2; ++mt) {
          std::vector<int> word_in_bank(32, -1);
          for (int lane = 0; lane < 32; ++lane) {
            int const e = tm::stage1_twiddle_entry(b, tm::output_of((lane >> 2) & 7, mt));
            for (int half = 0; half < 2; ++half) {
              int const word = 2 * e + half;
              int& held = word_in_bank[static_cast<std::size_t>(word & 31)];
              EXPECT_TRUE(held == -1 || held == word)
                  << "L " << geo.l() << " warp " << warp << " tile " << i << " mt " << mt
                  << ": words " << held << " and " << word << " in one bank";
              held = word;
            }
          }
        }
      }
    }
  }
}

TEST(TcTallMma, AddressPartsFormEveryAccess) {
  // The kernel's addresses: (lane part ^ group part ^ tile part) + offset for stages 1 and 2
  // (groups of tiles i = i0 | u, i0 a multiple of the group size), and for stage 3 one of four
  // per-round bases plus an immediate; each against mma_slot of the access it stands for.
  constexpr int kMask = tm::kBankGroupBits;
  for (int log_l : kLengths) {
    Geometry const geo{log_l};
    int checked = 0;
    for (int warp = 0; warp < geo.warps(); ++warp) {
      for (int lane = 0; lane < 32; ++lane) {
        int const g = lane >> 2, t = lane & 3;
        for (int group : {2, 4}) {
          for (int i = 0; i < tm::kTilesPerWarp; ++i) {
            int const i0 = i & ~(group - 1), u = i & (group - 1);
            int const w = tm::tile_butterfly(warp, i, log_l);
            int const c0 = tm::tile_first_column(warp, i, log_l);
            for (int s = 0; s < 2; ++s) {
              int const parts = tm::tile_part(s, i0, log_l) ^ tm::tile_part(s, u, log_l);
              ASSERT_EQ(parts, tm::tile_part(s, i, log_l));
              for (int mt = 0; mt < 2; ++mt) {
                int const a = tp::position(s, w, tm::output_of(g, mt), log_l);
                int const lane_part = s == 0 ? tm::stage1_store_lane(g, t, warp, log_l)
                                             : tm::stage2_store_lane(g, t, warp, log_l);
                int const offset = s == 0 ? tm::stage1_store_offset(mt, log_l)
                                          : tm::stage2_store_offset(mt, log_l);
                ASSERT_EQ((lane_part ^ parts) + offset, tm::mma_slot(c0 + 2 * t, a, log_l))
                    << "L " << geo.l() << " stage " << s + 1 << " store, warp " << warp << " lane "
                    << lane << " tile " << i << " mt " << mt;
                ++checked;
              }
            }
            for (int s = 0; s < 2; ++s) {
              for (int r = 0; r < 2; ++r) {
                int const a = tp::position(1, w, tm::input_of(t, r, s), log_l);
                ASSERT_EQ((tm::stage2_load_lane(g, t, warp, log_l) ^ tm::tile_part(1, i, log_l) ^
                           tm::stage2_load_parity(s, log_l)) +
                              tm::stage2_load_offset(r, log_l),
                          tm::mma_slot(c0 + g, a, log_l))
                    << "L " << geo.l() << " stage 2 load, warp " << warp << " lane " << lane
                    << " tile " << i;
                ++checked;
              }
            }
          }
        }
      }
    }
    for (int j = 0; j < tp::threads(log_l); ++j) {
      int const c = tp::column_of(j, log_l), w0 = tp::column_butterfly(j, log_l);
      for (int u = 0; u < tp::kRounds; ++u) {
        int const round = tm::stage3_thread(c, w0, log_l) ^ tm::stage3_round(u, log_l);
        for (int e = 0; e < 1 << tp::log_last_group(log_l); ++e) {
          int const w = w0 + (((u << tp::log_last_group(log_l)) + e) << tp::log_round_step(log_l));
          for (int m = 0; m < geo.r3(); ++m) {
            int const k = tm::stage3_constant(e, m, log_l);
            ASSERT_EQ((round ^ (k & kMask)) + (k & ~kMask),
                      tm::mma_slot(c, tp::position(2, w, m, log_l), log_l))
                << "L " << geo.l() << " stage 3, thread " << j << " round " << u << " m " << m;
            ++checked;
          }
        }
      }
    }
    EXPECT_GT(checked, 0);
  }
}

TEST(TcTallMma, Stage1LoadsWholeSectors) {
  // Register (r, s) of a warp's tile: lane (g, t) reads row position(0, b, input_of(t, r, s))
  // of column c0 + g, so each access is 4 rows of 8 adjacent columns (32 aligned bytes each).
  for (int log_l : kLengths) {
    Geometry const geo{log_l};
    for (int warp = 0; warp < geo.warps(); ++warp) {
      for (int i = 0; i < tm::kTilesPerWarp; ++i) {
        int const b = tm::tile_butterfly(warp, i, log_l);
        for (int s = 0; s < 2; ++s) {
          for (int r = 0; r < 2; ++r) {
            std::set<int> rows;
            for (int lane = 0; lane < 32; ++lane) {
              rows.insert(tp::position(0, b, tm::input_of(lane & 3, r, s), log_l));
            }
            EXPECT_EQ(rows.size(), 4u);
            // The kernel's loads: t's row b + (L / 16) 2 t, then s and 8 r sixteenths further.
            for (int t = 0; t < 4; ++t) {
              EXPECT_EQ(tp::position(0, b, tm::input_of(t, r, s), log_l),
                        b + (2 * t + s + 8 * r) * geo.butterflies());
            }
          }
        }
      }
    }
  }
}

cd fp16(cd v) {
  return {static_cast<double>(__half2float(__float2half_rn(static_cast<float>(v.real())))),
          static_cast<double>(__half2float(__float2half_rn(static_cast<float>(v.imag()))))};
}

/// The pass on one item in double, the kernel's way: stage 1 reads column c0 + g's inputs of
/// each tile from x (the item's columns, x[c][row]), stages 1 and 2 multiply by F_0, F_1 through
/// the fragments and write output k times its twiddle (W_L^(b k), W_(L/16)^(b0 k)) to the swizzled
/// words (rounded to FP16 when `round`), stage 3 takes DFT_R3 of each butterfly into X[c][n].
std::vector<std::vector<cd>> emulate(std::vector<std::vector<cd>> const& x, int log_l, bool round) {
  Geometry const geo{log_l};
  auto const f = assembled_f();
  std::vector<cd> words(static_cast<std::size_t>(geo.columns() * geo.l()), cd(1e9, 1e9));
  for (int stage = 0; stage < 2; ++stage) {
    for (int warp = 0; warp < geo.warps(); ++warp) {
      for (int i = 0; i < tm::kTilesPerWarp; ++i) {
        int const w = tm::tile_butterfly(warp, i, log_l);
        int const c0 = tm::tile_first_column(warp, i, log_l);
        std::vector<std::vector<cd>> in(8, std::vector<cd>(16));
        for (int n = 0; n < 8; ++n) {
          for (int m = 0; m < 16; ++m) {
            int const a = tp::position(stage, w, m, log_l);
            in[static_cast<std::size_t>(n)][static_cast<std::size_t>(m)] =
                stage == 0 ? x[static_cast<std::size_t>(c0 + n)][static_cast<std::size_t>(a)]
                           : words[static_cast<std::size_t>(tm::mma_slot(c0 + n, a, log_l))];
          }
        }
        auto const y = tile_product(f, in);
        for (int n = 0; n < 8; ++n) {
          for (int k = 0; k < 16; ++k) {
            int const a = tp::position(stage, w, k, log_l);
            // Stage 1's twiddles as the kernel reads them, from its table's entries.
            int const exponent =
                stage == 0 ? tm::stage1_twiddle_exponent(tm::stage1_twiddle_entry(w, k), log_l)
                           : tp::twiddle_exponent(stage, w, k, log_l);
            cd const tw = tcfft::testing::root_of_unity(exponent, geo.l(), false);
            cd const v = y[static_cast<std::size_t>(n)][static_cast<std::size_t>(k)] * tw;
            words[static_cast<std::size_t>(tm::mma_slot(c0 + n, a, log_l))] = round ? fp16(v) : v;
          }
        }
      }
    }
  }
  std::vector<std::vector<cd>> out(static_cast<std::size_t>(geo.columns()),
                                   std::vector<cd>(static_cast<std::size_t>(geo.l())));
  for (int c = 0; c < geo.columns(); ++c) {
    for (int w = 0; w < 1 << tp::kLogLastButterflies; ++w) {
      for (int k = 0; k < geo.r3(); ++k) {
        cd sum = 0;
        for (int m = 0; m < geo.r3(); ++m) {
          int const a = tp::position(2, w, m, log_l);
          sum += words[static_cast<std::size_t>(tm::mma_slot(c, a, log_l))] *
                 tcfft::testing::root_of_unity(m * k, geo.r3(), false);
        }
        out[static_cast<std::size_t>(c)][static_cast<std::size_t>(tp::output_index(w, k))] = sum;
      }
    }
  }
  return out;
}

TEST(TcTallMma, EmulatedPassGivesTheDftOfEveryColumn) {
  for (int log_l : kLengths) {
    Geometry const geo{log_l};
    unsigned seed = 0;
    std::vector<std::vector<cd>> x(static_cast<std::size_t>(geo.columns()));
    for (auto& column : x)
      column = tcfft::testing::random_complex(static_cast<std::size_t>(geo.l()), seed);
    auto const exact = emulate(x, log_l, false);
    auto const rounded = emulate(x, log_l, true);
    for (int c = 0; c < geo.columns(); ++c) {
      std::vector<cd> ref = x[static_cast<std::size_t>(c)];
      tcfft::testing::fft_radix2(ref);
      EXPECT_LT(tcfft::testing::relative_l2_error(exact[static_cast<std::size_t>(c)], ref), 1e-12)
          << "L " << geo.l() << " column " << c << " seed " << seed;
      // Two FP16 roundings of the words (~1.4e-4 rms per component each): ~2e-4, as the FP32
      // stages' emulation (tc_tall_pass_test.cpp); a wrong map gives an error of order one.
      double const e = tcfft::testing::relative_l2_error(rounded[static_cast<std::size_t>(c)], ref);
      EXPECT_GT(e, 1e-5) << "L " << geo.l() << " column " << c << " seed " << seed;
      EXPECT_LT(e, 4e-4) << "L " << geo.l() << " column " << c << " seed " << seed;
    }
  }
}

}  // namespace
