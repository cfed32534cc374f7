// SPDX-License-Identifier: MIT
// The group pass (kernels/group_pass_kernel.cu): untwiddled FP16 passes of L = 512 .. 4096
// points over contiguous sequences, each sequence on a group of G = L / 16 lanes (one to eight
// warps; L / 32 in the doubled form below) that hold 16 FP32 values each, in three steps of radix
// 16, 16 and R3 = L / 256, two exchanges through the group's shared memory behind group-wide
// barriers (a named barrier per group, __syncwarp for one warp). Which passes it takes and every
// index map of it, shared by the kernel and the CPU tests.
//
// Why: the Stockham pass runs these lengths at 89-94 % of the copy rate where cuFFT FP16 runs
// at the copy rate (NOTES.md session 27: the same DRAM bytes and instructions within a few %,
// but cuFFT keeps three times the warps in flight, 27-40 registers against 77-128). Holding 16
// values a thread instead of 32 and no next item in registers halves the registers; a group
// waits only for its own lanes, so the blocks' groups drift apart and the read stream stays
// continuous, as the warp pass's does at 256 points (one warp a group, 101 % of the copy).
//
// With M = L / 16, x[m + M n1] (m < M, n1 < 16), X[k1 + 16 k2 + 256 k3]:
//   step 1: lane m loads x[m + M n1] (a warp reads 32 adjacent words a load), takes the
//           16-point DFT over n1, writes A[k1][m] = scale W_L^(m k1) DFT[k1];
//   step 2: lane (k1, m3) = m3 + R3 k1 reads A[k1][m3 + R3 m2] over m2 < 16, takes their
//           16-point DFT and writes B[k1][k2][m3] = W_M^(m3 k2) DFT[k2] into the slots it read
//           (slot of A[k1][m3 + R3 k2]: no other lane's, so no barrier between its reads and
//           writes);
//   step 3: lane l takes the butterflies b = k1 + 16 k2 = C l + i (i < C = 16 / R3), reads
//           B[k1][k2][m3] over m3 < R3, takes the R3-point DFTs, stores X[b + 256 k3] (C
//           adjacent words a lane, a warp's lanes on adjacent runs).
// X[k1 + 16 k'] = sum_m W_M^(m k') W_L^(m k1) sum_n1 W_16^(n1 k1) x[m + M n1] (k' = k2 + 16 k3)
// and the length-M DFT over m = m3 + R3 m2 splits the same way: it is the DFT. FP32 from the
// load to the store, one FP16 rounding.
//
// The wide form (`wide` below; 512..2048 points): step 1 of radix 8 instead of 16, so that a
// lane takes two adjacent columns m = 2 l, 2 l + 1 of M = L / 8 and loads x[m + M n1] (n1 < 8)
// as eight 8-byte words (a warp reads 256 adjacent bytes a load) instead of sixteen 4-byte ones;
// step 2 radix 16 as before, step 3 radix R3 = L / 128 over C = 16 / R3 butterflies b = k1 + 8
// k2 a lane, X[b + 128 k3]. Why: with the same arithmetic, loading the words as 8-byte pairs took
// 1024..4096-point passes 3-4 % faster (a timing probe, NOTES.md session 33), while 8-byte loads
// with a shuffle to keep the 16-point first step were slower (the shuffles). One layout has no
// conflict-free setting at 1024 (searched over k1, m2, m3 strides and lane orders): step 3's reads
// take two wavefronts a half-warp there; 512 is conflict-free with step 3's lanes in the order
// step3_order gives (tc_group_pass_test checks both). Measured faster than the 16-point first
// step at 512 points only, where it runs by default (group_pass_kernel.cu: runs_wide); at 1024
// also with two layouts free of conflicts (experiments/group_wide_1024_two_layouts.patch) it
// was not.
//
// The doubled form (`Form::kDoubled`; 1024..4096 points, the default there): a lane does the
// work of two lanes of the 16-point form, so a group has L / 32 lanes (one warp at 1024, which
// synchronises with __syncwarp) that hold 32 values: step 1 takes the two adjacent columns m = 2
// l, 2 l + 1 (loaded as 8-byte words, a warp on 256 adjacent bytes), one 16-point DFT after the
// other; steps 2 and 3 take the 16-point form's lanes l and l + G in turn (step-2 slots (G / R3)
// S1 further, step-3 butterflies C G further: slots (C G / 16) S2 and stores C G words further).
// Its strides at 1024 (71, 3, 20) leave 1171 slots a group, so that three blocks of eight groups
// fit an SM (80 registers a thread); the 16-point form's 1291 fit two. Why: the wide form's
// halved load requests, kept at 1024 without its step-3 bank conflicts and without a two-warp
// group's named barriers. With one round a block it measured slower than the 16-point form
// (2^10 0.780-0.791 against 0.770-0.771 ms: ncu, DRAM 82.4 % against 82.8 %, 21 warps an SM
// against 29), with two rounds a block faster (0.752-0.759), NOTES.md session 34.
#pragma once

#include "pass_params.hpp"
#include "plan_logic.hpp"

namespace fftcore::detail::tc::group_pass {

inline constexpr int kMinLogLength = 9;   ///< L = 512: one warp a group
inline constexpr int kMaxLogLength = 12;  ///< L = 4096: eight warps a group
inline constexpr int kLogValues = 4;      ///< values a lane holds (16)
inline constexpr int kLogMaxThreads = 8;  ///< 256 threads a block: 1..8 groups

inline constexpr int kMaxWideLogLength = 11;     ///< the wide form: 512..2048 (R3 <= 16)
inline constexpr int kMinDoubledLogLength = 10;  ///< the doubled form: 1024..4096

/// The kernel's forms: the 16-point form (16 values a lane, step 1 of radix 16 on one column),
/// the wide form (16 values a lane, step 1 of radix 8 on two adjacent columns) and the doubled
/// form (32 values a lane: the work of two lanes of the 16-point form, step 1 on two adjacent
/// columns, steps 2 and 3 for lanes l and l + G; a group of half the lanes).
enum class Form : int { kSixteen = 0, kWide = 1, kDoubled = 2 };

/// log2 of the values a lane holds: 16, or 32 in the doubled form.
FFTCORE_HD constexpr int log_lane_values(Form form) {
  return form == Form::kDoubled ? kLogValues + 1 : kLogValues;
}
/// log2 of the 16-point-form lanes a lane does the work of in steps 2 and 3 (1 or 2).
FFTCORE_HD constexpr int log_shares(Form form) { return form == Form::kDoubled ? 1 : 0; }
/// log2 of the adjacent columns a lane takes in step 1 (one, or two as one 8-byte word each).
FFTCORE_HD constexpr int log_step1_columns(Form form) { return form == Form::kSixteen ? 0 : 1; }
/// log2 of G = L / 16 (L / 32 in the doubled form), a group's lanes.
FFTCORE_HD constexpr int log_group_lanes(int log_l, Form form = Form::kSixteen) {
  return log_l - log_lane_values(form);
}
/// log2 of step 1's radix R1: 16, or 8 in the wide form.
FFTCORE_HD constexpr int log_first_radix(Form form) {
  return form == Form::kWide ? kLogValues - 1 : kLogValues;
}
/// log2 of R3 = L / (16 R1), the last step's radix (L / 256, or L / 128 in the wide form).
FFTCORE_HD constexpr int log_last_radix(int log_l, Form form = Form::kSixteen) {
  return log_l - kLogValues - log_first_radix(form);
}

/// Whether the group pass runs `p`: FP16 in and out, 512 <= L <= 4096, no hooks, no pass
/// twiddle, no real split, unit element strides on both sides (each sequence's points adjacent),
/// and a layout safe to run in place group by group (a group reads its whole sequence before
/// it writes it, into the places it read).
FFTCORE_HD inline bool eligible(PassParams const& p) {
  return p.log_length >= kMinLogLength && p.log_length <= kMaxLogLength && p.in_fp32 == 0 &&
         p.out_fp32 == 0 && p.load_factors == nullptr && p.store_factors == nullptr &&
         p.conjugate_store == 0 && p.real_in == 0 && p.real_out == 0 && p.real_pairs == 0 &&
         p.real_row_pairs == 0 && p.real_in_columns == 0 && p.real_twin == 0 &&
         p.real_halves == 0 && p.log_twiddle_n == 0 && p.in_elem_stride == 1 &&
         p.out_elem_stride == 1 && (p.scatter != 0 || same_places(p));
}

/// log2 of the block size for tiles of 2^log_tile sequences: 16 values a thread (32 in the
/// doubled form), at most 256 threads, at least one group (a tile holds at least one sequence).
FFTCORE_HD constexpr int log_threads(int log_tile, int log_l, Form form = Form::kSixteen) {
  return log_tile + log_group_lanes(log_l, form) < kLogMaxThreads
             ? log_tile + log_group_lanes(log_l, form)
             : kLogMaxThreads;
}
/// log2 of the rounds a block takes over its tile (each group one sequence a round).
FFTCORE_HD constexpr int log_rounds(int log_tile, int log_l, Form form = Form::kSixteen) {
  return log_tile + log_group_lanes(log_l, form) - log_threads(log_tile, log_l, form);
}
/// The launch's tiles as multiples of the planner's (2^12 elements: one round of 256 threads in
/// the 16-point and wide forms, half a round in the doubled form): log2 of the factor by default,
/// 1 in the 16-point form (two rounds a block), 2 in the wide form (four), 3 in the doubled form
/// (four); kernels/group_pass_kernel.cu has the measurements. FFTCORE_TC_GROUP_ROUNDS forces
/// 0..kMaxLogTileFactor (A/B).
inline constexpr int kMaxLogTileFactor = 5;
FFTCORE_HD constexpr int default_log_tile_factor(Form form) {
  return form == Form::kSixteen ? 1 : form == Form::kWide ? 2 : 3;
}
/// Blocks a launch keeps at least where its tiles grow (some eight blocks an SM on 132 SMs), so
/// that small batches (one 1024 x 1024 image: 1024 rows) keep their blocks spread over the GPU.
inline constexpr std::int64_t kMinRoundBlocks = 1024;
/// The factor (log2) for `pass` (the planner's tiles): `wanted`, lowered while the launch's
/// blocks (retiled's) would be fewer than kMinRoundBlocks. Host only.
inline int fitted_tile_factor(PassParams const& pass, int wanted) {
  int f = wanted;
  while (f > 0 && retiled(pass, pass.log_tile + f).blocks < kMinRoundBlocks) --f;
  return f;
}

/// The tile sequence of group `group` in round r: the block's groups on adjacent sequences.
FFTCORE_HD constexpr int tile_sequence(int round, int group, int log_threads, int log_l,
                                       Form form = Form::kSixteen) {
  return (round << (log_threads - log_group_lanes(log_l, form))) + group;
}

/// The exchange: A[k1][m] and B[k1][k2][m3] (m = m3 + R3 m2, m2 = k2) at the float2 slot
/// k1 S1 + m3 S3 + m2 of the group's area, S3 = 16 + 16 / R3 and S1 the least number = 1 mod 16
/// past the (m2, m3) span: every address is a lane's base plus a constant (no per-access
/// arithmetic: an XOR-swizzled first version held 48 addresses a thread and spilled ~200 bytes
/// at 64 registers), and since S1 = 1, S3 = 16 / R3 and the m2 stride 1 mod 16, step 1's writes
/// (k1 fixed, m over 16 lanes), step 2's reads and writes (m2 fixed, m3 and 16 / R3 values of
/// k1 over the lanes) and step 3's reads (m3 and k2 fixed, k1 over 16 lanes) each hit 16
/// distinct float2 banks per half-warp (tc_group_pass_test checks all three). 1.07-1.51x L
/// slots (4096 down to 512 points).
FFTCORE_HD constexpr int stride_m3(int log_l) { return 16 + (16 >> log_last_radix(log_l)); }
FFTCORE_HD constexpr int span_m(int log_l) {
  return stride_m3(log_l) * ((1 << log_last_radix(log_l)) - 1) + 16;
}
FFTCORE_HD constexpr int stride_k1(int log_l) { return (span_m(log_l) + 14) / 16 * 16 + 1; }

/// The strides of k1, m2 and m3 in the group's area: the 16-point form's above (m2's 1); the
/// wide form's (slot k1 S1 + m3 S3 + m2 S2, k1 < 8) and the doubled form's found by search, the
/// smallest area with the fewest conflicts: wide 512 (71, 3, 20), 1024 (143, 1, 18), 2048
/// (274, 1, 17); doubled 1024 (71, 3, 20: 1171 slots, so that three blocks of eight groups fit
/// an SM, where the 16-point strides' 1291 fit two), 2048 (143, 1, 18), 4096 the 16-point form's.
FFTCORE_HD constexpr int k1_stride(int log_l, Form form = Form::kSixteen) {
  if (form == Form::kWide) return log_l == 9 ? 71 : log_l == 10 ? 143 : 274;
  if (form == Form::kDoubled && log_l < 12) return log_l == 10 ? 71 : 143;
  return stride_k1(log_l);
}
FFTCORE_HD constexpr int m2_stride(int log_l, Form form = Form::kSixteen) {
  return (form == Form::kWide && log_l == 9) || (form == Form::kDoubled && log_l == 10) ? 3 : 1;
}
FFTCORE_HD constexpr int m3_stride(int log_l, Form form = Form::kSixteen) {
  return form != Form::kWide ? stride_m3(log_l) : log_l == 9 ? 20 : log_l == 10 ? 18 : 17;
}
FFTCORE_HD constexpr int slot(int k1, int m2, int m3, int log_l, Form form = Form::kSixteen) {
  return k1 * k1_stride(log_l, form) + m3 * m3_stride(log_l, form) + m2 * m2_stride(log_l, form);
}
/// Slots of a group's area: one past the last slot.
FFTCORE_HD constexpr int group_slots(int log_l, Form form = Form::kSixteen) {
  return slot((1 << log_first_radix(form)) - 1, 15, (1 << log_last_radix(log_l, form)) - 1, log_l,
              form) +
         1;
}

/// Step 2's lane l of a group (in the doubled form l < 2 G: the lane's share j = l / G): k1 = l
/// / R3, m3 = l mod R3.
FFTCORE_HD constexpr int step2_k1(int lane, int log_l, Form form = Form::kSixteen) {
  return lane >> log_last_radix(log_l, form);
}
FFTCORE_HD constexpr int step2_m3(int lane, int log_l, Form form = Form::kSixteen) {
  return lane & ((1 << log_last_radix(log_l, form)) - 1);
}
/// Step 3's lane order: lane l takes the butterflies of lane step3_order(l), a permutation
/// within each warp (so a warp's stores still cover the same runs): the identity, but in the
/// wide form at 512 points bits 3 and 4 swapped, which puts the two k1 halves of a step-3 read
/// into different half-warps (conflict-free, where the identity takes two wavefronts).
FFTCORE_HD constexpr int step3_order(int lane, int log_l, Form form = Form::kSixteen) {
  return form == Form::kWide && log_l == 9 ? (lane & ~24) | ((lane & 8) << 1) | ((lane & 16) >> 1)
                                           : lane;
}
/// Step 3's butterfly i (< C = 16 / R3) of lane l (in the doubled form l < 2 G, as in step 2):
/// b = C step3_order(l) + i, so that a lane's outputs X[b + 16 R1 k3] are C adjacent words (one
/// 8- to 32-byte store where aligned).
FFTCORE_HD constexpr int step3_butterfly(int lane, int i, int log_l, Form form = Form::kSixteen) {
  return (step3_order(lane, log_l, form) << (kLogValues - log_last_radix(log_l, form))) + i;
}

/// Whether every lane's C adjacent outputs (C = 16 / R3) lie on a 4 C-byte boundary relative to
/// the destination: every output stride a multiple of C (the pointer's alignment is the
/// launcher's check).
FFTCORE_HD inline bool aligned_outputs(PassParams const& p) {
  std::int64_t const c_mask = (std::int64_t{1} << (kLogValues - log_last_radix(p.log_length))) - 1;
  bool ok = true;
  for (int i = 0; i < kDigits; ++i) ok = ok && (p.out_stride[i] & c_mask) == 0;
  return ok;
}

/// Whether every lane's 8-byte loads of the wide form lie on 8-byte boundaries relative to the
/// source: every input stride even (the pointer's alignment is the launcher's check).
FFTCORE_HD inline bool aligned_input_pairs(PassParams const& p) {
  bool ok = true;
  for (int i = 0; i < kDigits; ++i) ok = ok && (p.in_stride[i] & 1) == 0;
  return ok;
}
/// Whether the wide form can run `p` (an eligible pass of 512..2048 points with even input
/// strides; the source's alignment is the launcher's check).
FFTCORE_HD inline bool wide_eligible(PassParams const& p) {
  return eligible(p) && p.log_length <= kMaxWideLogLength && aligned_input_pairs(p);
}
/// Whether the doubled form can run `p` (an eligible pass of 1024..4096 points with even input
/// strides; the source's alignment is the launcher's check).
FFTCORE_HD inline bool doubled_eligible(PassParams const& p) {
  return eligible(p) && p.log_length >= kMinDoubledLogLength && aligned_input_pairs(p);
}

}  // namespace fftcore::detail::tc::group_pass
