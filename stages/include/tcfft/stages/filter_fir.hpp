// SPDX-License-Identifier: MIT
// The FIR form of the frequency-domain filter (filter option `taps`), which makes filtering
// independent of how a series is cut into items: the filter is designed once as a zero-phase
// impulse response h of `taps` samples, and every item's per-bin gain is the DFT of that h
// placed circularly at the item's own length. Multiplying an item's spectrum by those gains is
// then exactly the linear convolution of the item with h, except within (taps-1)/2 samples of
// the item's ends, where the convolution wraps around. With overlap-save items (FrameSpec::
// context >= (taps-1)/2, see frame.hpp) the wrapped samples fall into the context, which the
// sink drops, so the joined output equals filtering the whole series at once.
//
// Design (frequency sampling + Kaiser window), with half = (taps-1)/2:
//   1. sample the zero-phase response H(f) of filter_response.hpp at the L bins of a fine grid,
//      f_k = k fs / L (numpy.fft.fftfreq order), L the smallest power of two >= 16 taps and
//      >= 8192;
//   2. h_L[m] = (1/L) sum_k H(f_k) exp(+2 pi i k m / L), real and even because H is;
//   3. h[m] = h_L[m] w[m] for |m| <= half, w[m] = I0(beta sqrt(1 - (m/half)^2)) / I0(beta),
//      beta = kFirKaiserBeta (8.6: side lobes near -90 dB, main lobe about 5.6 fs / taps wide).
// The FIR's response is H convolved with the window's transform: transitions narrower than
// about 6 fs / taps are smoothed. More taps follow H more closely and need more overlap.
//
// Gains at an item of time-domain length n >= taps (1-D items, or the rows of 2-D items filtered
// along the last axis only):
//   G[k] = sum_{|m| <= half} h[m] exp(-2 pi i k m / n) = h[0] + 2 sum_{m=1}^{half} h[m] cos(2 pi k m / n)
// real and even in k (zero phase), for the bins k of the item (one-sided or full).
#pragma once

#include <tcfft/stages/filter_response.hpp>

#include <cstdint>
#include <vector>

namespace tcfft::stages {

/// Kaiser window parameter of the FIR design (see above).
inline constexpr double kFirKaiserBeta = 8.6;

/// The zero-phase impulse response of `p`: taps values, h[j] is the tap at lag j - (taps-1)/2
/// (so h is symmetric, h[j] == h[taps-1-j]). `taps` odd and >= 3, `sample_rate` > 0 (the
/// response is checked by the caller, see check_response). Throws ConfigError otherwise.
[[nodiscard]] std::vector<double> design_fir(ResponseParams const& p, double sample_rate,
                                             std::int64_t taps);

/// The gains of `h` (from design_fir) at bins 0..bins-1 of an item of time-domain length n:
/// bins == n/2 + 1 (one-sided) or n (full spectrum, numpy.fft order). Throws ConfigError when
/// n < h.size() (the response would wrap onto itself) or bins is neither.
[[nodiscard]] std::vector<double> fir_gains(std::vector<double> const& h, std::int64_t n,
                                            std::int64_t bins);

}  // namespace tcfft::stages
