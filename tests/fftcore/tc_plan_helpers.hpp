// SPDX-License-Identifier: MIT
// Plan helpers shared by the CPU tests of the pass kernels (tc_small/warp/column/stockham
// _pass_test): descriptors of 1-D and 2-D transforms, their pass layouts, forced splits, and
// the bank-conflict count of a warp's float2 shared-memory access.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "../../fftcore/src/tc/plan_logic.hpp"

namespace tcfft::testing::plans {

/// rows > 1: a rows x cols 2-D transform; else 1-D of cols points. `batch` of them.
inline fftcore::PlanDesc desc(std::int64_t rows, std::int64_t cols, std::int64_t batch) {
  fftcore::PlanDesc d;
  d.rank = rows > 1 ? 2 : 1;
  d.dims[0] = rows > 1 ? rows : cols;
  d.dims[1] = rows > 1 ? cols : 0;
  d.batch = batch;
  return d;
}

inline fftcore::detail::tc::PassLayout layout_of(
    fftcore::PlanDesc const& d, fftcore::detail::tc::PlanOptions const& options = {}) {
  fftcore::detail::tc::PassLayout layout;
  EXPECT_EQ(fftcore::detail::tc::build_layout(d, options, layout), fftcore::Status::kSuccess);
  return layout;
}

/// Options forcing the pass lengths (log2) of every axis.
inline fftcore::detail::tc::PlanOptions split(std::vector<int> parts) {
  fftcore::detail::tc::PlanOptions o;
  o.split = std::move(parts);
  return o;
}

/// ceil(log2 v) for v >= 1.
inline int log2_of(std::int64_t v) {
  int k = 0;
  while ((std::int64_t{1} << k) < v) ++k;
  return k;
}

/// Shared-memory wavefronts of one warp instruction of 8-byte accesses (`slots`: the float2
/// slot of each of the 32 lanes): each half-warp is one wavefront when its 16 lanes touch 16
/// distinct float2 bank pairs (slot mod 16), else as many as the busiest pair serves.
template <typename Slots>
int float2_wavefronts(Slots const& slots) {
  int total = 0;
  for (int half = 0; half < 2; ++half) {
    int count[16] = {};
    int most = 0;
    for (int lane = 16 * half; lane < 16 * half + 16; ++lane) {
      most = std::max(most, ++count[slots[static_cast<std::size_t>(lane)] & 15]);
    }
    total += most;
  }
  return total;
}

}  // namespace tcfft::testing::plans
