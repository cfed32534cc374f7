// SPDX-License-Identifier: MIT
// The device's balance of DRAM bandwidth against its multiprocessors: peak DRAM bytes per SM
// clock cycle, from the attributes cudaDeviceGetAttribute reports. Pure host arithmetic (the CPU
// tests check it); kernels/pass_launch.hpp reads the attributes and caches the answer.
//
// Why: the H200 moves 44 % more DRAM bytes per SM cycle than the H100 SXM (same 132 SMs and
// clocks), so a pass that is at the DRAM limit on the H100 can be bound by instruction issue on
// the H200, and the faster of two kernels changes. Measured (NOTES.md session 38, ms per 2^28
// elements, two runs each in one call on the H200): the group pass / the Stockham pass at 2^11
// 0.627-0.632 / 0.581-0.586, at 2^12 0.666-0.670 / 0.590-0.593, 4096x4096 1.665-1.668 /
// 1.596-1.604, while on the H100 the group pass is the faster (sessions 32-35: 2^11 0.761-0.772
// / 0.797-0.812, 2^12 0.787-0.798 / 0.795-0.806).
#pragma once

namespace fftcore::detail::tc::dram_balance {

/// Peak DRAM bytes per SM clock cycle over the whole device: memory clock x 2 (double data rate)
/// x bus width / 8 over SMs x SM clock (clocks in kHz, as the attributes give them); 0 where an
/// attribute is missing. H100 SXM (2619 MHz, 5120 bits, 132 SMs at 1980 MHz): 12.8; H200 (3201
/// MHz; its attribute says 6016 bits, session 38): 18.4; H100 PCIe (1593 MHz, 5120 bits, 114 SMs
/// at 1755 MHz): 10.2.
constexpr double bytes_per_sm_clock(int memory_khz, int bus_bits, int sms, int sm_khz) {
  if (memory_khz <= 0 || bus_bits <= 0 || sms <= 0 || sm_khz <= 0) return 0.0;
  return 2.0 * memory_khz * (bus_bits / 8.0) / (static_cast<double>(sms) * sm_khz);
}

/// The line between the two measured devices: at or above it a device counts as fast-DRAM.
inline constexpr double kFastDramBytesPerSmClock = 16.0;

constexpr bool fast_dram(double bytes_per_clock) {
  return bytes_per_clock >= kFastDramBytesPerSmClock;
}

}  // namespace fftcore::detail::tc::dram_balance
