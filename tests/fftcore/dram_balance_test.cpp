// SPDX-License-Identifier: MIT
// The DRAM balance (tc/dram_balance.hpp) that moves the 2048- and 4096-point passes to the
// Stockham pass on fast-DRAM devices: the figures of the devices it was measured on.
#include "../../fftcore/src/tc/dram_balance.hpp"

#include <gtest/gtest.h>

namespace db = fftcore::detail::tc::dram_balance;

TEST(DramBalance, H100SxmIsNotFastDram) {
  // 2619 MHz HBM3 on 5120 bits, 132 SMs at 1980 MHz: 3.35 TB/s over 261 G SM cycles a second.
  double const b = db::bytes_per_sm_clock(2619000, 5120, 132, 1980000);
  EXPECT_NEAR(b, 2.0 * 2619e6 * 640.0 / (132.0 * 1980e6), 1e-9);
  EXPECT_NEAR(b, 12.83, 0.01);
  EXPECT_FALSE(db::fast_dram(b));
}

TEST(DramBalance, H200IsFastDram) {
  // 3201 MHz HBM3e on 6144 bits, the same SMs and clock.
  double const b = db::bytes_per_sm_clock(3201000, 6144, 132, 1980000);
  EXPECT_NEAR(b, 18.81, 0.01);
  EXPECT_TRUE(db::fast_dram(b));
  // The attributes of the H200 the device tool lent (session 38): 6016 bits reported.
  double const lent = db::bytes_per_sm_clock(3201000, 6016, 132, 1980000);
  EXPECT_NEAR(lent, 18.42, 0.01);
  EXPECT_TRUE(db::fast_dram(lent));
}

TEST(DramBalance, H100PcieAndTheLine) {
  EXPECT_FALSE(db::fast_dram(db::bytes_per_sm_clock(1593000, 5120, 114, 1755000)));
  EXPECT_TRUE(db::fast_dram(db::kFastDramBytesPerSmClock));
  EXPECT_FALSE(db::fast_dram(db::kFastDramBytesPerSmClock - 1e-6));
}

TEST(DramBalance, MissingAttributesGiveZeroAndNotFast) {
  EXPECT_EQ(db::bytes_per_sm_clock(0, 6144, 132, 1980000), 0.0);
  EXPECT_EQ(db::bytes_per_sm_clock(3201000, 6144, 0, 1980000), 0.0);
  EXPECT_EQ(db::bytes_per_sm_clock(3201000, 6144, 132, -1), 0.0);
  EXPECT_FALSE(db::fast_dram(0.0));
}
