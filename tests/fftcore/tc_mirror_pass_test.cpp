// SPDX-License-Identifier: MIT
// CPU tests of the mirror pass's maps (fftcore/src/tc/mirror_pass_layout.hpp,
// kernels/mirror_pass_kernel.cu): that the blocks' two groups take every sequence of a
// transform once, that the pair slots write every X[k] (k = 0 .. M) once from Z[k] and
// Z[M - k], and that the kernel's shared-memory accesses (staging, step 1, exchange, Z buffer,
// the split's reads) are free of bank conflicts. The values themselves: the emulated plan in
// real_plan_test.cpp (RealPlan.MirrorPassEmulatedWithTheKernelMaps) and the GPU tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "../../fftcore/src/tc/mirror_pass_layout.hpp"
#include "tc_plan_helpers.hpp"

namespace {

namespace mp = fftcore::detail::tc::mirror_pass;
using tcfft::testing::plans::float2_wavefronts;
using tcfft::testing::plans::word_wavefronts;

TEST(MirrorPass, GroupsTakeEverySequenceOnce) {
  for (int log_d0 = mp::kMinLogSequences; log_d0 <= mp::kMaxLogSequences; ++log_d0) {
    SCOPED_TRACE("D0 = 2^" + std::to_string(log_d0));
    int const d0 = 1 << log_d0;
    std::vector<int> seen(static_cast<std::size_t>(d0), 0);
    for (int g = 0; g < (1 << mp::log_groups(log_d0)); ++g) {
      for (int h = 0; h < 2; ++h) {
        for (int t = 0; t < mp::kGroup; ++t) {
          int const s = mp::sequence(g, h, t, log_d0);
          ASSERT_GE(s, 0);
          ASSERT_LT(s, d0);
          ++seen[static_cast<std::size_t>(s)];
          // Group B is group A's mirror but for lane 0 of group 0 (sequences 0 and D0 / 2 are
          // their own).
          if (h == 1 && (g != 0 || t != 0)) {
            EXPECT_EQ(s, d0 - mp::sequence(g, 0, t, log_d0));
          }
        }
      }
    }
    EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), d0);
  }
}

TEST(MirrorPass, PairSlotsWriteEveryOutputOnceFromItsPair) {
  for (int log_d0 = mp::kMinLogSequences; log_d0 <= mp::kMaxLogSequences; ++log_d0) {
    SCOPED_TRACE("D0 = 2^" + std::to_string(log_d0));
    std::int64_t const d0 = std::int64_t{1} << log_d0, m = d0 * mp::kLength;
    std::vector<int> written(static_cast<std::size_t>(m + 1), 0);
    int ends = 0;
    for (int g = 0; g < (1 << mp::log_groups(log_d0)); ++g) {
      for (int t = 0; t < mp::kGroup; ++t) {
        for (int r = 0; r < mp::kLength; ++r) {
          mp::PairSlot const ps = mp::pair_slot(g, t, r);
          ASSERT_GE(ps.row_a, 0);
          ASSERT_LT(ps.row_a, mp::kLength);
          ASSERT_GE(ps.row_b, 0);
          ASSERT_LT(ps.row_b, mp::kLength);
          std::int64_t const k = mp::sequence(g, ps.h_a, t, log_d0) + d0 * ps.row_a;
          std::int64_t const kb = mp::sequence(g, ps.h_b, t, log_d0) + d0 * ps.row_b;
          if (ps.ends) {
            ++ends;
            EXPECT_EQ(k, 0);
            ++written[0];
            ++written[static_cast<std::size_t>(m)];
            ++written[static_cast<std::size_t>(m / 2)];
            // X[M / 2] from the element (0, 64) of lane 0, as the kernel reads it.
            EXPECT_EQ(mp::sequence(g, 0, 0, log_d0) + d0 * (mp::kLength / 2), m / 2);
            continue;
          }
          EXPECT_EQ(kb, m - k) << "g " << g << " t " << t << " r " << r;
          ++written[static_cast<std::size_t>(k)];
          ++written[static_cast<std::size_t>(m - k)];
        }
      }
    }
    EXPECT_EQ(ends, 1);
    EXPECT_EQ(std::count(written.begin(), written.end(), 1), m + 1);
  }
}

TEST(MirrorPass, SharedAccessesAreConflictFree) {
  // Staging stores: warp v's lanes store words n = 32 (v mod 4) + lane of slot 2 j + v / 4.
  for (int v = 0; v < mp::kWarps; ++v) {
    for (int j = 0; j < mp::kSequences * mp::kLength / mp::kThreads; ++j) {
      std::array<int, 32> words{};
      for (int lane = 0; lane < 32; ++lane) {
        int const thread = 32 * v + lane;
        words[static_cast<std::size_t>(lane)] =
            mp::staging_word(2 * j + (thread >> mp::kLogLength), thread & (mp::kLength - 1));
      }
      EXPECT_EQ(word_wavefronts(words), 1) << "staging store, warp " << v << " j " << j;
    }
  }
  for (int w = 0; w < mp::kWarps; ++w) {
    for (int h = 0; h < 2; ++h) {
      // Step 1: lane t reads word 8 n1 + w of sequence slot 32 h + t.
      for (int n1 = 0; n1 < 16; ++n1) {
        std::array<int, 32> words{};
        for (int t = 0; t < 32; ++t) {
          words[static_cast<std::size_t>(t)] =
              mp::staging_word(32 * h + t, (n1 << mp::kLogWarps) + w);
        }
        EXPECT_EQ(word_wavefronts(words), 1) << "step 1, warp " << w << " n1 " << n1;
      }
    }
    std::array<int, 32> slots{};
    for (int k1 = 0; k1 < 16; ++k1) {  // step 1's exchange stores, step 2's loads
      for (int t = 0; t < 32; ++t) slots[static_cast<std::size_t>(t)] = mp::exchange_slot(k1, w, t);
      EXPECT_EQ(float2_wavefronts(slots), 2);
    }
    for (int e = 0; e < 2; ++e) {
      for (int q = 0; q < mp::kWarps; ++q) {
        for (int t = 0; t < 32; ++t) {
          slots[static_cast<std::size_t>(t)] = mp::exchange_slot(2 * w + e, q, t);
        }
        EXPECT_EQ(float2_wavefronts(slots), 2);
      }
    }
    for (int h = 0; h < 2; ++h) {  // Z buffer stores
      for (int k_hi = w * 2; k_hi < mp::kLength; k_hi += 16) {
        for (int t = 0; t < 32; ++t) slots[static_cast<std::size_t>(t)] = mp::z_slot(h, k_hi, t);
        EXPECT_EQ(float2_wavefronts(slots), 2);
      }
    }
    for (int k_hi = w * 2; k_hi < mp::kLength; k_hi += 16) {  // group A's FP16 Z, both ways
      std::array<int, 32> words{};
      for (int t = 0; t < 32; ++t) words[static_cast<std::size_t>(t)] = mp::half_z_word(k_hi, t);
      EXPECT_EQ(word_wavefronts(words), 1);
    }
    // The split's reads: pair slot r = w + 8 i of every lane, both elements; group 0's lane 0
    // reads elements of its own.
    for (int g = 0; g < 2; ++g) {
      for (int i = 0; i < mp::kLength / mp::kWarps; ++i) {
        int const r = w + i * mp::kWarps;
        std::array<int, 32> a{}, b{};
        for (int t = 0; t < 32; ++t) {
          mp::PairSlot const ps = mp::pair_slot(g, t, r);
          a[static_cast<std::size_t>(t)] = mp::z_slot(ps.h_a, ps.row_a, t);
          b[static_cast<std::size_t>(t)] = mp::z_slot(ps.h_b, ps.row_b, t);
        }
        EXPECT_EQ(float2_wavefronts(a), 2) << "g " << g << " r " << r;
        EXPECT_EQ(float2_wavefronts(b), 2) << "g " << g << " r " << r;
      }
    }
  }
}

TEST(MirrorPass, SharedMemoryHoldsTheZBufferOverStagingAndExchange) {
  EXPECT_EQ(mp::kSmemBytes, mp::kSequences * (mp::kLength + 1) * 4 + mp::kLength * 32 * 8);
  EXPECT_LE(mp::kZSlots * 8, mp::kSmemBytes);
  // Three blocks would need 3 x 65,792 bytes: within an H100 / H200 SM's 227 KiB.
  EXPECT_LE(3 * mp::kSmemBytes, 227 * 1024);
  // Group A's FP16 Z: every (k_hi, t) once, inside group A's staging rows (slots 0..31), none
  // in group B's, which its step 1 reads after.
  std::vector<int> seen(static_cast<std::size_t>(mp::kGroup * mp::kPitch), 0);
  for (int k_hi = 0; k_hi < mp::kLength; ++k_hi) {
    for (int t = 0; t < mp::kGroup; ++t) {
      int const word = mp::half_z_word(k_hi, t);
      ASSERT_GE(word, 0);
      ASSERT_LT(word, mp::staging_word(mp::kGroup, 0));
      ++seen[static_cast<std::size_t>(word)];
    }
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), mp::kLength * mp::kGroup);
  // The exchange starts 8-byte aligned after the staging words.
  EXPECT_EQ((mp::kStagingWords * 4) % 8, 0);
}

}  // namespace
