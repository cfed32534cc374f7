// SPDX-License-Identifier: MIT
// CPU tests of the fused real transforms of 128, 256 and 512 points (fftcore/src/tc/
// medium_real_layout.hpp, kernels/medium_real_kernel.cu): that the column deal is a
// permutation whose lane sets are closed under the split's pairing (at 512 points: a lane a
// column, the shared split's items each once), that the warp's exchange is free of bank
// conflicts both ways and takes every slot once, that the split's W_32 powers are the twiddles
// they stand for, and - running a warp's rows on the CPU in double with the kernel's data flow
// (16-point DFTs, W_M^(p k1), the exchange slots, P-point DFTs, the split items per lane, Z
// through the exchange slots at 512 points, the staging words) - that R2C gives the half
// spectrum and C2R the reals.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "../../fftcore/src/tc/medium_real_layout.hpp"
#include "../../fftcore/src/tc/real_split.hpp"
#include "common/reference_dft.hpp"
#include "tc_plan_helpers.hpp"

namespace {

namespace mr = fftcore::detail::tc::medium_real;
namespace tc = fftcore::detail::tc;
using cd = std::complex<double>;
using tcfft::testing::root_of_unity;
using tcfft::testing::plans::float2_wavefronts;
using tcfft::testing::plans::small_dft;
using tcfft::testing::plans::word_wavefronts;

float2 to_f2(cd v) { return float2{static_cast<float>(v.real()), static_cast<float>(v.imag())}; }
cd to_cd(float2 v) { return {v.x, v.y}; }

TEST(TcMediumReal, ColumnDealIsAPermutationClosedUnderThePairing) {
  for (int log_m = mr::kMinLogM; log_m <= mr::kMaxLogM; ++log_m) {
    SCOPED_TRACE("M = 2^" + std::to_string(log_m));
    int const c = 1 << mr::log_columns(log_m);
    EXPECT_EQ(c << mr::log_lanes(log_m), 16);
    EXPECT_EQ(mr::log_lanes(log_m) + mr::log_rows(log_m), 5);  // a warp's 32 lanes
    std::array<int, 16> seen{};
    for (int q = 0; q < (1 << mr::log_lanes(log_m)); ++q) {
      for (int e = 0; e < c; ++e) {
        int const k1 = mr::column(c * q + e, log_m);
        ASSERT_GE(k1, 0);
        ASSERT_LT(k1, 16);
        ++seen[static_cast<std::size_t>(k1)];
        EXPECT_EQ(mr::owner(k1, log_m), q);
        EXPECT_EQ(mr::owner((16 - k1) % 16, log_m), q) << "pair of " << k1 << " leaves lane " << q;
        // Slot 2u holds t = pair_column(q, u), slot 2u + 1 its partner (8 for t = 0).
        int const t = mr::pair_column(q, e / 2, log_m);
        EXPECT_EQ(k1, e % 2 == 0 ? t : t == 0 ? 8 : 16 - t);
        EXPECT_LT(t, 8);
      }
    }
    for (int n : seen) EXPECT_EQ(n, 1);
  }
}

TEST(TcMediumReal, StagingTakesEveryWordOnceAndSpreadsTheBanks) {
  for (int log_m = mr::kMinLogM; log_m <= mr::kLogMShared; ++log_m) {
    SCOPED_TRACE("M = 2^" + std::to_string(log_m));
    int const m = 1 << log_m, lp = mr::log_lanes(log_m), p_count = 1 << lp;
    int const rows = 1 << mr::log_rows(log_m), stride = mr::staging_stride(log_m);
    ASSERT_LE(rows * stride, mr::kStagingWords);
    // The copies: word w of the run of rows to row w / width, column w mod width.
    for (int width : {m, m + 1}) {
      std::vector<int> used(static_cast<std::size_t>(mr::kStagingWords), 0);
      for (int w = 0; w < rows * width; ++w) {
        int const s = width == m ? mr::real_slot(w, log_m) : mr::spectrum_slot(w, log_m);
        EXPECT_EQ(s, (w / width) * stride + w % width) << "word " << w;
        ASSERT_LT(s, mr::kStagingWords);
        ++used[static_cast<std::size_t>(s)];
      }
      EXPECT_EQ(std::count(used.begin(), used.end(), 1), rows * width);
      std::array<int, 32> words{};
      for (int r = 0; r < (rows * width + 31) / 32; ++r) {
        for (int lane = 0; lane < 32; ++lane) {
          int const w = std::min(32 * r + lane, rows * width - 1);
          words[static_cast<std::size_t>(lane)] =
              width == m ? mr::real_slot(w, log_m) : mr::spectrum_slot(w, log_m);
        }
        // A run that crosses into the next row shifts by the pad (P or P - 1 words) there: up
        // to two wavefronts (half-spectrum runs only: rows of M words hold whole runs).
        int const last = std::min(32 * r + 31, rows * width - 1);
        bool const crosses = (32 * r) / width != last / width;
        EXPECT_EQ(crosses, width == m + 1 && crosses);
        EXPECT_LE(word_wavefronts(words), crosses ? 2 : 1) << "run " << r << " width " << width;
      }
    }
    // The 16-point side: word P n1 + p of row g; the split: t + 16 k2 and M - t - 16 k2 of row
    // g, t = pair_column(q, u) (lane 0's t = 0 items run alone).
    std::array<int, 32> words{};
    for (int n1 = 0; n1 < 16; ++n1) {
      for (int lane = 0; lane < 32; ++lane) {
        words[static_cast<std::size_t>(lane)] = (lane >> lp) * stride + p_count * n1 + (lane & (p_count - 1));
      }
      EXPECT_EQ(word_wavefronts(words), 1) << "n1 " << n1;
    }
    for (int u = 0; u < (16 >> lp) / 2; ++u) {
      for (int k2 = 0; k2 < p_count; ++k2) {
        for (bool mirror : {false, true}) {
          for (int lane = 0; lane < 32; ++lane) {
            int const t = mr::pair_column(lane & (p_count - 1), u, log_m);
            int const k0 = t == 0 ? mr::zero_item(k2, log_m) : t + 16 * k2;  // lane 0: its item
            words[static_cast<std::size_t>(lane)] = (lane >> lp) * stride + (mirror ? m - k0 : k0);
          }
          int const most = word_wavefronts(words);
          // The P lanes of a row write P adjacent words; lane 0's own items (u = 0) may meet
          // another row's word: at most two wavefronts there.
          EXPECT_LE(most, u == 0 ? 2 : 1) << "u " << u << " k2 " << k2;
        }
      }
    }
  }
}

TEST(TcMediumReal, ExchangeTakesEverySlotOnceWithoutBankConflicts) {
  for (int log_m = mr::kMinLogM; log_m <= mr::kLogMShared; ++log_m) {
    SCOPED_TRACE("M = 2^" + std::to_string(log_m));
    int const lp = mr::log_lanes(log_m), p_count = 1 << lp;
    int const c = 1 << mr::log_columns(log_m);
    std::vector<int> used(mr::kExchangeSlots, 0);
    for (int g = 0; g < (1 << mr::log_rows(log_m)); ++g) {
      for (int k1 = 0; k1 < 16; ++k1) {
        for (int p = 0; p < p_count; ++p) {
          int const s = mr::exchange_slot(g, k1, p, log_m);
          ASSERT_GE(s, 0);
          ASSERT_LT(s, mr::kExchangeSlots);
          ++used[static_cast<std::size_t>(s)];
        }
      }
    }
    EXPECT_EQ(std::count(used.begin(), used.end(), 1), 512);
    EXPECT_EQ(std::count_if(used.begin(), used.end(), [](int n) { return n > 1; }), 0);
    // The 16-point side (k1 fixed, lane = (g, p)) and the P-point side (s fixed, lane = (g, q)
    // reading column(C q + e)): one wavefront per half-warp.
    std::array<int, 32> slots{};
    for (int k1 = 0; k1 < 16; ++k1) {
      for (int lane = 0; lane < 32; ++lane) {
        slots[static_cast<std::size_t>(lane)] =
            mr::exchange_slot(lane >> lp, k1, lane & (p_count - 1), log_m);
      }
      EXPECT_EQ(float2_wavefronts(slots), 2) << "k1 " << k1;
    }
    for (int e = 0; e < c; ++e) {
      for (int s = 0; s < p_count; ++s) {
        for (int lane = 0; lane < 32; ++lane) {
          int const q = lane & (p_count - 1);
          slots[static_cast<std::size_t>(lane)] =
              mr::exchange_slot(lane >> lp, mr::column(c * q + e, log_m), s, log_m);
        }
        EXPECT_EQ(float2_wavefronts(slots), 2) << "e " << e << " s " << s;
      }
    }
    EXPECT_LE(mr::kStagingWords * 4, mr::kExchangeSlots * 8);  // staging lies over the slots
  }
}

TEST(TcMediumReal, SplitPowersOfW32AreTheTwiddles) {
  for (int log_m = mr::kMinLogM; log_m <= mr::kLogMShared; ++log_m) {
    int const m = 1 << log_m, p_count = 1 << mr::log_lanes(log_m);
    for (int k2 = 0; k2 < p_count; ++k2) {
      // W_32^j = W_2M^(j 2M / 32): equal exponents over 2M.
      EXPECT_EQ(mr::split_step_power(k2, log_m) * (2 * m / 32), 16 * k2) << m << " " << k2;
      if (k2 < p_count / 2 && !mr::shared_split(log_m)) {  // column 8's (not in the shared split)
        EXPECT_EQ(mr::split_w8_power(k2, log_m) * (2 * m / 32), 8 + 16 * k2) << m << " " << k2;
      }
      EXPECT_LT(mr::split_step_power(k2, log_m), 16);  // the kernel's w32 holds j < 16
      EXPECT_LT(mr::split_w8_power(k2, log_m), 16);
    }
  }
}

/// The shared split (M = 256): a lane a column (k1 = q, the exchange swizzled by it), Z[k] of
/// each row in its own exchange slot, every k of the half spectrum written by one item (k = q +
/// 16 j with M - k; k = 0 gives X[0] and X[M], lane 0 X[M / 2]), and the P lanes of a row on
/// adjacent slots and words in each access: Z written over k2, read as Z[k] and Z[M - k] (two
/// wavefronts, one per half-warp), the half spectrum written as 4-byte words (one).
TEST(TcMediumReal, SharedSplitTakesEveryItemOnceWithoutBankConflicts) {
  int const log_m = mr::kLogMShared, m = 1 << log_m, lp = mr::log_lanes(log_m);
  int const p_count = 1 << lp, rows = 1 << mr::log_rows(log_m);
  ASSERT_TRUE(mr::shared_split(log_m));
  ASSERT_FALSE(mr::shared_split(mr::kMaxLogM));
  EXPECT_EQ(mr::log_columns(log_m), 0);
  EXPECT_EQ(p_count, 16);
  EXPECT_EQ(rows, 2);
  for (int q = 0; q < p_count; ++q) {
    EXPECT_EQ(mr::column(q, log_m), q);
    EXPECT_EQ(mr::owner(q, log_m), q);
  }
  std::vector<int> used(mr::kExchangeSlots, 0);
  for (int g = 0; g < rows; ++g) {
    for (int k = 0; k < m; ++k) {
      int const s = mr::z_slot(g, k, log_m);
      ASSERT_GE(s, 0);
      ASSERT_LT(s, mr::kExchangeSlots);
      ++used[static_cast<std::size_t>(s)];
    }
  }
  EXPECT_EQ(std::count(used.begin(), used.end(), 1), rows * m);
  EXPECT_EQ(std::count_if(used.begin(), used.end(), [](int n) { return n > 1; }), 0);
  // Every k <= M of a row written once by its items.
  int const items = mr::shared_items(log_m);
  EXPECT_EQ(items, 8);
  std::vector<int> hit(static_cast<std::size_t>(m + 1), 0);
  for (int q = 0; q < p_count; ++q) {
    for (int j = 0; j < items; ++j) {
      int const k = q + 16 * j;
      ++hit[static_cast<std::size_t>(k)];
      ++hit[static_cast<std::size_t>(m - k)];
    }
    if (q == 0) ++hit[static_cast<std::size_t>(m / 2)];
  }
  for (int k = 0; k <= m; ++k) EXPECT_EQ(hit[static_cast<std::size_t>(k)], 1) << "k " << k;
  std::array<int, 32> slots{};
  std::array<int, 32> words{};
  int const stride = mr::staging_stride(log_m);
  for (int k2 = 0; k2 < p_count; ++k2) {
    for (int lane = 0; lane < 32; ++lane) {
      slots[static_cast<std::size_t>(lane)] =
          mr::z_slot(lane >> lp, (lane & (p_count - 1)) + 16 * k2, log_m);
    }
    EXPECT_EQ(float2_wavefronts(slots), 2) << "Z write k2 " << k2;
  }
  for (int j = 0; j < items; ++j) {
    for (bool mirror : {false, true}) {
      for (int lane = 0; lane < 32; ++lane) {
        int const k = (lane & (p_count - 1)) + 16 * j;
        int const km = mirror ? (m - k) & (m - 1) : k;
        slots[static_cast<std::size_t>(lane)] = mr::z_slot(lane >> lp, km, log_m);
        words[static_cast<std::size_t>(lane)] = (lane >> lp) * stride + (mirror ? m - k : k);
      }
      EXPECT_EQ(float2_wavefronts(slots), 2) << "Z read j " << j << " mirror " << mirror;
      EXPECT_EQ(word_wavefronts(words), 1) << "spectrum word j " << j << " mirror " << mirror;
    }
  }
}

/// One warp of the kernel on the CPU: rows x (n reals each), R2C into the half spectrum
/// (rows of M + 1) or, for C2R, the half spectrum `spectrum` back into reals. Every exchange
/// slot and staging word is checked to be written before it is read.
struct WarpEmulation {
  int log_m = 0, m = 0, lp = 0, p_count = 0, c = 0, rows = 0;
  std::vector<cd> exchange;
  std::vector<bool> written;

  explicit WarpEmulation(int log_m_in)
      : log_m(log_m_in),
        m(1 << log_m_in),
        lp(mr::log_lanes(log_m_in)),
        p_count(1 << mr::log_lanes(log_m_in)),
        c(1 << mr::log_columns(log_m_in)),
        rows(1 << mr::log_rows(log_m_in)),
        exchange(mr::kExchangeSlots),
        written(mr::kExchangeSlots, false) {}

  void put(int g, int k1, int p, cd v) {
    auto const s = static_cast<std::size_t>(mr::exchange_slot(g, k1, p, log_m));
    ASSERT_FALSE(written[s]) << "slot " << s << " written twice";
    written[s] = true;
    exchange[s] = v;
  }
  cd get(int g, int k1, int p) const {
    auto const s = static_cast<std::size_t>(mr::exchange_slot(g, k1, p, log_m));
    EXPECT_TRUE(written[s]) << "slot " << s << " read before written";
    return exchange[s];
  }
  cd tw(int p, int k1) const { return root_of_unity(p * k1, m, false); }
  float2 w2m(int k) const { return to_f2(root_of_unity(k, 2 * m, false)); }

  int stride() const { return mr::staging_stride(log_m); }

  /// The shared split's Z of row g in the exchange slots (mr::z_slot), each written once
  /// before it is read (a store of its own: in the kernel Z follows the exchange's last use).
  std::vector<cd> z_words = std::vector<cd>(mr::kExchangeSlots);
  std::vector<int> z_count = std::vector<int>(mr::kExchangeSlots, 0);
  void z_put(int g, int k, cd v) {
    auto const s = static_cast<std::size_t>(mr::z_slot(g, k, log_m));
    ASSERT_EQ(z_count[s]++, 0) << "Z slot " << s << " written twice";
    z_words[s] = v;
  }
  float2 z_get(int g, int k) const {
    auto const s = static_cast<std::size_t>(mr::z_slot(g, k, log_m));
    EXPECT_EQ(z_count[s], 1) << "Z slot " << s << " read before written";
    return to_f2(z_words[s]);
  }

  /// z: rows x M complex (the reals read as complex); returns rows x (M + 1) words.
  std::vector<cd> r2c(std::vector<cd> const& z, float f) {
    std::vector<cd> staging(static_cast<std::size_t>(mr::kStagingWords), cd(std::nan(""), 0));
    std::vector<int> count(staging.size(), 0);
    for (int w = 0; w < rows * m; ++w) staging[static_cast<std::size_t>(mr::real_slot(w, log_m))] = z[static_cast<std::size_t>(w)];
    for (int g = 0; g < rows; ++g) {
      for (int p = 0; p < p_count; ++p) {
        std::array<cd, 16> a{};
        for (int n1 = 0; n1 < 16; ++n1) a[n1] = staging[static_cast<std::size_t>(g * stride() + p_count * n1 + p)];
        std::array<cd, 16> const y = small_dft(a, 16);
        for (int k1 = 0; k1 < 16; ++k1) put(g, k1, p, y[k1] * tw(p, k1));
      }
    }
    for (int g = 0; g < rows; ++g) {
      auto const set = [&](int k, float2 v) {
        auto const w = static_cast<std::size_t>(g * stride() + k);
        ++count[w];
        staging[w] = to_cd(v);
      };
      if (mr::shared_split(log_m)) {  // Z of every lane's column, then the items k = q + 16 j
        for (int q = 0; q < p_count; ++q) {
          std::array<cd, 16> b{};
          for (int s = 0; s < p_count; ++s) b[s] = get(g, mr::column(q, log_m), s);
          std::array<cd, 16> const y = small_dft(b, p_count);
          for (int k2 = 0; k2 < p_count; ++k2) z_put(g, q + 16 * k2, y[k2]);
        }
        for (int q = 0; q < p_count; ++q) {
          for (int j = 0; j < mr::shared_items(log_m); ++j) {
            int const k = q + 16 * j;
            float2 xk, xm;
            tc::split_forward_pair(z_get(g, k), z_get(g, (m - k) & (m - 1)), w2m(k), f, xk, xm);
            set(k, xk);
            set(m - k, xm);
          }
          if (q == 0) set(m / 2, tc::split_forward_middle(z_get(g, m / 2), f));
        }
        continue;
      }
      for (int q = 0; q < p_count; ++q) {
        std::vector<std::array<cd, 16>> z_lane(static_cast<std::size_t>(c));  // [e][k2]
        for (int e = 0; e < c; ++e) {
          std::array<cd, 16> b{};
          for (int s = 0; s < p_count; ++s) b[s] = get(g, mr::column(c * q + e, log_m), s);
          z_lane[static_cast<std::size_t>(e)] = small_dft(b, p_count);
        }
        auto const zz = [&](int e, int k2) { return to_f2(z_lane[e][k2]); };
        int const half = p_count / 2;
        for (int u = 0; u < c / 2; ++u) {
          int const t = mr::pair_column(q, u, log_m);
          bool const zero = u == 0 && q == 0;  // lane 0's columns 0 and 8: zero_item()
          for (int k2 = 0; k2 < p_count; ++k2) {
            int const j = (k2 - half) & (p_count - 1);
            bool const col8 = k2 < half;
            float2 const a = !zero ? zz(2 * u, k2) : col8 ? zz(1, k2) : zz(0, j);
            float2 const b = !zero ? zz(2 * u + 1, p_count - 1 - k2)
                             : col8 ? zz(1, p_count - 1 - k2)
                                    : zz(0, (p_count - j) & (p_count - 1));
            int const k = zero ? mr::zero_item(k2, log_m) : t + 16 * k2;
            float2 xk, xm;
            tc::split_forward_pair(a, b, w2m(k), f, xk, xm);
            set(k, xk);
            set(m - k, xm);
          }
        }
        if (q == 0) set(m / 2, tc::split_forward_middle(zz(0, half), f));
      }
    }
    std::vector<cd> spectrum(static_cast<std::size_t>(rows * (m + 1)));
    for (int w = 0; w < rows * (m + 1); ++w) {
      auto const s = static_cast<std::size_t>(mr::spectrum_slot(w, log_m));
      EXPECT_EQ(count[s], 1) << "spectrum word " << w;
      spectrum[static_cast<std::size_t>(w)] = staging[s];
    }
    return spectrum;
  }

  /// spectrum: rows x (M + 1); returns rows x M complex (the reals, unnormalised, times f).
  std::vector<cd> c2r(std::vector<cd> const& spectrum, float f) {
    std::vector<cd> staging(static_cast<std::size_t>(mr::kStagingWords), cd(std::nan(""), 0));
    for (int w = 0; w < rows * (m + 1); ++w) {
      staging[static_cast<std::size_t>(mr::spectrum_slot(w, log_m))] = spectrum[static_cast<std::size_t>(w)];
    }
    for (int g = 0; g < rows; ++g) {
      auto const x = [&](int k) { return to_f2(staging[static_cast<std::size_t>(g * stride() + k)]); };
      if (mr::shared_split(log_m)) {  // the items to Z, then every lane's column from there
        for (int q = 0; q < p_count; ++q) {
          for (int j = 0; j < mr::shared_items(log_m); ++j) {
            int const k = q + 16 * j;
            float2 xa = x(k), xb = x(m - k);
            if (k == 0) xa.y = xb.y = 0.f;  // X[0], X[M]: imaginary parts ignored
            float2 za, zb;
            tc::split_inverse_pair(xa, xb, w2m(k), f, za, zb);
            z_put(g, k, to_cd(za));
            if (k != 0) z_put(g, m - k, to_cd(zb));
          }
          if (q == 0) z_put(g, m / 2, to_cd(tc::split_inverse_middle(x(m / 2), f)));
        }
        for (int q = 0; q < p_count; ++q) {
          std::array<cd, 16> v{};
          for (int k2 = 0; k2 < p_count; ++k2) v[k2] = std::conj(to_cd(z_get(g, q + 16 * k2)));
          std::array<cd, 16> const y = small_dft(v, p_count);
          for (int s = 0; s < p_count; ++s) put(g, mr::column(q, log_m), s, y[s]);
        }
        continue;
      }
      for (int q = 0; q < p_count; ++q) {
        std::vector<std::array<float2, 16>> b(static_cast<std::size_t>(c));  // [e][k2] = Z
        std::vector<std::array<int, 16>> set(static_cast<std::size_t>(c), std::array<int, 16>{});
        auto const zset = [&](int e, int k2, float2 v) {
          b[e][k2] = v;
          ++set[e][k2];
        };
        int const half = p_count / 2;
        for (int u = 0; u < c / 2; ++u) {
          int const t = mr::pair_column(q, u, log_m);
          bool const zero = u == 0 && q == 0;
          std::array<float2, 16> za{}, zb{};
          for (int k2 = 0; k2 < p_count; ++k2) {
            int const k = zero ? mr::zero_item(k2, log_m) : t + 16 * k2;
            float2 xa = x(k), xb = x(m - k);
            if (zero && k2 == half) xa.y = xb.y = 0.f;  // X[0], X[M]: imaginary parts ignored
            tc::split_inverse_pair(xa, xb, w2m(k), f, za[k2], zb[k2]);
          }
          for (int mm = 0; mm < p_count; ++mm) {
            if (zero) {  // lane 0's items back into columns 0 (slot 0) and 8 (slot 1)
              zset(0, mm, mm < half    ? za[half + mm]
                          : mm == half ? tc::split_inverse_middle(x(m / 2), f)
                                       : zb[3 * half - mm]);
              zset(1, mm, mm < half ? za[mm] : zb[p_count - 1 - mm]);
            } else {
              zset(2 * u, mm, za[mm]);
              zset(2 * u + 1, mm, zb[p_count - 1 - mm]);
            }
          }
        }
        for (int e = 0; e < c; ++e) {
          std::array<cd, 16> v{};
          for (int k2 = 0; k2 < p_count; ++k2) {
            EXPECT_EQ(set[e][k2], 1) << "Z of column slot " << e << ", k2 " << k2;
            v[k2] = std::conj(to_cd(b[e][k2]));
          }
          std::array<cd, 16> const y = small_dft(v, p_count);
          for (int s = 0; s < p_count; ++s) put(g, mr::column(c * q + e, log_m), s, y[s]);
        }
      }
    }
    for (int g = 0; g < rows; ++g) {
      for (int p = 0; p < p_count; ++p) {
        std::array<cd, 16> a{};
        for (int k1 = 0; k1 < 16; ++k1) a[k1] = get(g, k1, p) * tw(p, k1);
        std::array<cd, 16> const y = small_dft(a, 16);
        for (int n1 = 0; n1 < 16; ++n1) {
          staging[static_cast<std::size_t>(g * stride() + p_count * n1 + p)] = std::conj(y[n1]);
        }
      }
    }
    std::vector<cd> z(static_cast<std::size_t>(rows * m));
    for (int w = 0; w < rows * m; ++w) z[static_cast<std::size_t>(w)] = staging[static_cast<std::size_t>(mr::real_slot(w, log_m))];
    return z;
  }
};

/// The half spectrum (M + 1 values) of the 2 M reals `x`, in long double.
std::vector<cd> half_spectrum(std::vector<double> const& x) {
  std::vector<tcfft::testing::cld> v(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) v[i] = x[i];
  std::vector<tcfft::testing::cld> const y = tcfft::testing::reference_dft(v, -1);
  std::vector<cd> out(x.size() / 2 + 1);
  for (std::size_t k = 0; k < out.size(); ++k) {
    out[k] = {static_cast<double>(y[k].real()), static_cast<double>(y[k].imag())};
  }
  return out;
}

TEST(TcMediumReal, EmulatedWarpGivesTheHalfSpectrumAndBack) {
  unsigned const seed = std::random_device{}();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (int log_m = mr::kMinLogM; log_m <= mr::kLogMShared; ++log_m) {
    SCOPED_TRACE("n = " + std::to_string(2 << log_m));
    int const m = 1 << log_m, rows = 1 << mr::log_rows(log_m);
    std::vector<std::vector<double>> x(static_cast<std::size_t>(rows));
    std::vector<cd> z, spectrum;
    for (auto& r : x) {
      r.resize(static_cast<std::size_t>(2 * m));
      for (double& v : r) v = uni(rng);
      for (int j = 0; j < m; ++j) z.emplace_back(r[2 * j], r[2 * j + 1]);
      std::vector<cd> const h = half_spectrum(r);
      spectrum.insert(spectrum.end(), h.begin(), h.end());
    }
    float const f = 0.5f;  // a scale, as the 1/N or 1/sqrt(N) plans carry
    WarpEmulation forward(log_m);
    std::vector<cd> const got = forward.r2c(z, f);
    double err = 0, ref = 0;
    for (std::size_t i = 0; i < spectrum.size(); ++i) {
      err = std::max(err, std::abs(got[i] - static_cast<double>(f) * spectrum[i]));
      ref = std::max(ref, std::abs(static_cast<double>(f) * spectrum[i]));
    }
    ASSERT_GT(ref, 1.0);  // not all zeros
    EXPECT_LT(err / ref, 2e-6) << "R2C";  // FP32 split arithmetic (~1e-7)
    WarpEmulation inverse(log_m);
    std::vector<cd> const back = inverse.c2r(spectrum, f);
    err = 0;
    ref = 0;
    for (int g = 0; g < rows; ++g) {
      for (int j = 0; j < m; ++j) {
        auto const& r = x[static_cast<std::size_t>(g)];
        cd const want = static_cast<double>(f) * 2.0 * m * cd(r[2 * j], r[2 * j + 1]);
        err = std::max(err, std::abs(back[static_cast<std::size_t>(g * m + j)] - want));
        ref = std::max(ref, std::abs(want));
      }
    }
    ASSERT_GT(ref, 1.0);
    EXPECT_LT(err / ref, 2e-6) << "C2R";
  }
}

}  // namespace
