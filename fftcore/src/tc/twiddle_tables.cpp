// SPDX-License-Identifier: MIT
#include "tc/twiddle_tables.hpp"

#include <cmath>

namespace fftcore::detail::tc {
namespace {

std::vector<float2> unit_roots(int log_m) {
  std::vector<float2> table(kTwiddleTableSize);
  long double const step = -6.283185307179586476925286766559L / std::ldexp(1.0L, log_m);
  for (int i = 0; i < kTwiddleTableSize; ++i) {
    long double const angle = step * static_cast<long double>(i);
    table[static_cast<std::size_t>(i)] = {static_cast<float>(std::cos(angle)),
                                          static_cast<float>(std::sin(angle))};
  }
  return table;
}

}  // namespace

std::vector<float2> make_coarse_twiddles() { return unit_roots(14); }
std::vector<float2> make_fine_twiddles() { return unit_roots(28); }

}  // namespace fftcore::detail::tc
