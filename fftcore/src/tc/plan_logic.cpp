// SPDX-License-Identifier: MIT
// Factorisation of power-of-two transforms into passes. A transform of N = L_0 ... L_{p-1}
// points is the four-step algorithm applied recursively: passes 0..p-2 take FFTs of length L_j
// down a column of stride L_{j+1}...L_{p-1} and multiply by the twiddles W_{L_j...}^(i k) in
// place; the last pass takes the contiguous FFTs and writes them digit-reversed, which puts the
// result in natural order. p <= 3 keeps every index map linear.
#include "tc/plan_logic.hpp"

#include "tc/column_pass_layout.hpp"
#include "tc/fast_pass_layout.hpp"
#include "tc/long_pass_layout.hpp"
#include "tc/tall_pass_layout.hpp"

#include <algorithm>
#include <cmath>
#include <new>

namespace fftcore::detail::tc {
namespace {

constexpr int kLogMaxLength1d = 27;
constexpr int kLogMaxDim2d = 14;
constexpr int kLogTargetBlockElements = 13;  // 64 KiB of FP32 shared memory, 512 threads
#ifndef FFTCORE_TC_LOG_FAST_TILE
#define FFTCORE_TC_LOG_FAST_TILE 12
#endif
/// Passes of 256..4096 points (the register-chained pass, fast_pass_layout.hpp) aim at smaller
/// tiles: 2^12 FP16 elements, 256 threads, four blocks per SM, whose load, compute and store
/// phases overlap better than those of two 512-thread blocks.
constexpr int kLogTargetBlockElementsFast = FFTCORE_TC_LOG_FAST_TILE;
constexpr int kLogMinCoalescedTile = 3;      // 8 adjacent __half2 = one 32-byte sector
constexpr std::int64_t kMaxElementsFp32Intermediate2d = 4096;
/// The long pass (2^15 points) from 2^21 elements in all: 64 sequences.
constexpr int kLogMinLongPassElements = 21;
/// The split pass (2^16 points) from 2^22 elements: 64 sequences, 128 blocks.
constexpr int kLogMinSplitPassElements = 22;

int log2_exact(std::int64_t v) {
  if (v <= 0 || (v & (v - 1)) != 0) return -1;
  int log = 0;
  while ((std::int64_t{1} << log) < v) ++log;
  return log;
}

int ceil_log2(std::int64_t v) {
  int log = 0;
  while ((std::int64_t{1} << log) < v) ++log;
  return log;
}

/// Blocks a pass should have at least: about two per multiprocessor of an H100/H200 (132).
/// Small batches (one 2^17-point sequence, two 512x256 images) otherwise ran 16-64 blocks of
/// 2^12..2^13 elements, one per SM, each taking its load, compute and store phases in turn.
constexpr std::int64_t kMinBlocks = 256;

/// T for a pass of length 2^log_l over `sequences` sequences: about 2^13 elements per block, at
/// least `log_min` (adjacent columns for whole segments), at most the sequences there are along
/// d0, at least one warp; smaller (down to those limits) while the pass has < kMinBlocks blocks.
int choose_log_tile(int log_l, int log_min, int log_extent0, std::int64_t sequences,
                    PlanOptions const& options) {
  bool const fast_length = log_l >= fast::kMinLogLength && log_l <= fast::kMaxLogLength;
  int const target = fast_length ? kLogTargetBlockElementsFast : kLogTargetBlockElements;
  // The smallest tile a small pass may take: whole 32-byte segments still, one warp at least.
  int const floor = std::max(std::min(log_min, log_extent0), kLogMinBlockElements - log_l);
  // Strided fast passes keep 2^strided_log_columns adjacent columns while the tile stays within
  // 2^strided_log_elements (PlanOptions has the defaults and the measurements behind them).
  if (fast_length && log_min == kLogMinCoalescedTile) {
    log_min = std::max(log_min,
                       std::min(options.strided_log_columns, options.strided_log_elements - log_l));
  }
  int lt = std::max(target - log_l, log_min);
  if (fast_length && log_min >= kLogMinCoalescedTile) {
    lt = std::min(lt, options.strided_max_log_tile);
  }
  lt = std::min(lt, log_extent0);
  while (lt > floor && (sequences >> lt) < kMinBlocks) --lt;
  lt = std::max(lt, kLogMinBlockElements - log_l);
  // One sequence per tile at least (the long pass's 32768 points are past the block limit).
  return std::max(0, std::min(lt, kLogMaxBlockElements - log_l));
}

struct Digit {
  std::int64_t extent;
  std::int64_t in_stride;
  std::int64_t out_stride;
  std::int64_t twiddle_stride;
};

PassParams make_pass(int log_l, int log_tile, std::vector<Digit> const& digits,
                     std::int64_t in_elem, std::int64_t out_elem, int log_twiddle_n,
                     bool scatter) {
  PassParams p;
  p.log_length = log_l;
  p.log_tile = log_tile;
  int rest = log_l;
  if (rest < 4) {
    p.log_radix[p.stage_count++] = rest;
  } else {
    for (; rest >= 4; rest -= 4) p.log_radix[p.stage_count++] = 4;
    if (rest > 0) p.log_radix[p.stage_count++] = rest;
  }
  std::int64_t blocks = 1;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i < kDigits - 1) p.extent[i] = digits[i].extent;
    p.in_stride[i] = digits[i].in_stride;
    p.out_stride[i] = digits[i].out_stride;
    p.twiddle_stride[i] = digits[i].twiddle_stride;
    blocks *= i == 0 ? (digits[0].extent + (std::int64_t{1} << log_tile) - 1) >> log_tile
                     : digits[i].extent;
  }
  p.tiles0 = (digits[0].extent + (std::int64_t{1} << log_tile) - 1) >> log_tile;
  p.blocks = blocks;
  p.in_elem_stride = in_elem;
  p.out_elem_stride = out_elem;
  p.log_twiddle_n = log_twiddle_n;
  p.scatter = scatter ? 1 : 0;
  int const log_e = log_l + log_tile;
  p.threads = (1 << log_e) / kElementsPerThread;
  p.smem_bytes = (1 << log_e) * static_cast<int>(sizeof(float) * 2);
  return p;
}

/// Padded rows (in_pitch / out_pitch > 0, `vector` > 1): the first pass of an axis (passes
/// from `first` on) reads, its last writes with the pitch instead of `vector` (every stride of
/// theirs that steps along the axis or the batch is a multiple of `vector`). A pass whose input
/// and output places then differ scatters (it reads Y or the workspace and writes elsewhere;
/// scatter only steers assign_buffers through a pass's predecessors).
void apply_pitches(std::vector<PassParams>& passes, std::size_t first, std::int64_t vector,
                   std::int64_t in_pitch, std::int64_t out_pitch) {
  if (vector == 1) return;
  auto const repitch = [vector](std::int64_t& stride, std::int64_t pitch) {
    if (pitch > 0 && stride % vector == 0 && stride >= vector) stride = stride / vector * pitch;
  };
  PassParams& f = passes[first];
  for (auto& st : f.in_stride) repitch(st, in_pitch);
  repitch(f.in_elem_stride, in_pitch);
  PassParams& l = passes.back();
  for (auto& st : l.out_stride) repitch(st, out_pitch);
  repitch(l.out_elem_stride, out_pitch);
  if (!same_places(f)) f.scatter = 1;
  if (!same_places(l)) l.scatter = 1;
}

/// Appends the passes of FFTs of 2^log_n points on data laid out [batch][2^log_n][vector].
/// in_pitch / out_pitch (>= vector; 0: vector): the distance between consecutive points of the
/// axis in the first pass's input and the last pass's output, where those rows are padded.
void append_axis(int log_n, std::int64_t vector, std::int64_t batch,
                 std::vector<PassParams>& passes, PlanOptions const& options,
                 std::int64_t in_pitch = 0, std::int64_t out_pitch = 0) {
  std::size_t const first = passes.size();
  std::vector<int> const& split = options.split;
  int split_sum = 0;
  for (int part : split) split_sum += part;
  std::int64_t const elements = (std::int64_t{1} << log_n) * vector * batch;
  // The override, else the fast-DRAM split where there is one, else split_length's.
  std::vector<int> parts = options.fast_dram
                               ? fast_dram_split(log_n, vector, elements, options.fp32_ends,
                                                 options.tall_two_pass, options.tall_rows)
                               : std::vector<int>{};
  if (!split.empty() && split_sum == log_n) {
    parts = split;
  } else if (parts.empty()) {
    parts = split_length(log_n, vector, options.fp32_ends, elements, options.tall_two_pass,
                         options.tall_rows, options.long_split);
  }
  int const p = static_cast<int>(parts.size());
  std::int64_t const n = std::int64_t{1} << log_n;
  std::int64_t const v = vector;
  int const log_v = ceil_log2(vector);
  // Elements in all: a pass of length 2^l runs total >> l sequences.
  std::int64_t const total = n * v * batch;
  int const log_min = vector > 1 ? std::min(kLogMinCoalescedTile, log_v) : kLogMinCoalescedTile;
  if (p == 1) {
    if (vector == 1) {
      int const lt = choose_log_tile(log_n, 0, ceil_log2(batch), total >> log_n, options);
      passes.push_back(make_pass(log_n, lt, {{batch, n, n, 0}}, 1, 1, 0, false));
    } else {
      int const lt = choose_log_tile(log_n, log_min, log_v, total >> log_n, options);
      passes.push_back(
          make_pass(log_n, lt, {{v, 1, 1, 0}, {batch, n * v, n * v, 0}}, v, v, 0, false));
    }
    apply_pitches(passes, first, v, in_pitch, out_pitch);
    return;
  }
  std::int64_t outer = batch;
  for (int j = 0; j + 1 < p; ++j) {
    int log_inner = 0;
    for (int i = j + 1; i < p; ++i) log_inner += parts[static_cast<std::size_t>(i)];
    int const log_l = parts[static_cast<std::size_t>(j)];
    std::int64_t const inner = std::int64_t{1} << log_inner;
    std::int64_t const span = (std::int64_t{1} << log_l) * inner;
    std::vector<Digit> digits;
    if (vector > 1) digits.push_back({v, 1, 1, 0});
    digits.push_back({inner, v, v, 1});
    digits.push_back({outer, span * v, span * v, 0});
    int const lt =
        choose_log_tile(log_l, log_min, vector > 1 ? log_v : log_inner, total >> log_l, options);
    passes.push_back(make_pass(log_l, lt, digits, inner * v, inner * v, log_l + log_inner,
                               false));
    outer <<= log_l;
  }
  int const log_l = parts.back();
  std::int64_t const l = std::int64_t{1} << log_l;
  std::int64_t const l0 = std::int64_t{1} << parts.front();
  std::int64_t const middle = p == 3 ? (std::int64_t{1} << parts[1]) : 1;
  std::vector<Digit> digits;
  if (vector > 1) digits.push_back({v, 1, 1, 0});
  digits.push_back({l0, middle * l * v, v, 0});
  if (p == 3) digits.push_back({middle, l * v, l0 * v, 0});
  digits.push_back({batch, n * v, n * v, 0});
  int const lt =
      choose_log_tile(log_l, log_min, vector > 1 ? log_v : parts.front(), total >> log_l, options);
  passes.push_back(make_pass(log_l, lt, digits, v, (n / l) * v, 0, true));
  apply_pitches(passes, first, v, in_pitch, out_pitch);
}

/// Buffers: the last pass writes `out`; walking back, a pass writes where its successor reads,
/// which is the successor's own destination unless the successor scatters (then the other one
/// of out / workspace). The first pass reads `in`.
void assign_buffers(std::vector<PassParams>& passes, bool all_through_workspace) {
  if (all_through_workspace) {  // no pass but the last scatters in this case (see caller)
    for (auto& p : passes) {
      p.src = Buffer::kWorkspace;
      p.dst = Buffer::kWorkspace;
    }
    passes.front().src = Buffer::kIn;
    passes.back().dst = Buffer::kOut;
    return;
  }
  Buffer next = Buffer::kOut;
  for (auto it = passes.rbegin(); it != passes.rend(); ++it) {
    it->dst = next;
    if (it->scatter) next = next == Buffer::kOut ? Buffer::kWorkspace : Buffer::kOut;
    it->src = next;
  }
  passes.front().src = Buffer::kIn;
}

}  // namespace

std::vector<int> split_length(int log_n, std::int64_t vector, bool fp32_ends, std::int64_t total,
                              bool tall_two_pass, bool tall_rows, bool long_split) {
  if (vector == 1 && fp32_ends && (log_n == 13 || log_n == 14)) {
    return {log_n - 12, 12};  // the short pass, then a 4096-point one (both FP16 inside)
  }
  // 2^15 points in one pass: the long pass (long_pass_layout.hpp), whose sequence stays in
  // shared memory as FP16 words, instead of two passes over global memory (7, 8), where the
  // batch fills the GPU: the long pass runs one sequence per SM at a time, so below ~64
  // sequences it leaves SMs idle that the two passes' smaller blocks would use.
  if (vector == 1 && !fp32_ends && log_n == long_pass::kLogLength &&
      total >= (std::int64_t{1} << kLogMinLongPassElements)) {
    return {log_n};
  }
  // 2^16 points in one pass: the long pass's split (long_pass_layout.hpp), a cluster of two
  // blocks per sequence, from 64 sequences.
  if (vector == 1 && !fp32_ends && long_split && log_n == long_pass::kLogSplitLength &&
      total >= (std::int64_t{1} << kLogMinSplitPassElements)) {
    return {log_n};
  }
  // Two passes with a twiddled 4096-point first pass on the tall pass (PlanOptions::tall_two_pass
  // has the measurements); from 2^24 elements, so that its items (8 columns) fill the GPU. 2^24
  // with a 4096-point last pass on the tall pass's rows form (PlanOptions::tall_rows).
  int const max_two_pass = tall_rows ? 2 * tall_pass::kMaxLogLength : 23;
  if (vector == 1 && tall_two_pass && !fp32_ends && log_n >= 21 && log_n <= max_two_pass &&
      total >= (std::int64_t{1} << 24)) {
    return {tall_pass::kMaxLogLength, log_n - tall_pass::kMaxLogLength};
  }
  // A 128-point first pass on the column pass (column_pass_layout.hpp), where it gets its whole
  // 32-column tiles (>= kMinBlocks of them: total >= 128 x 32 x 256 elements), then
  // register-chained passes of >= 256 points. H200, same run, ms per 2^28 elements (planner's
  // split before -> this one): 2^15 1.80 -> 1.45, 2^16 1.72 -> 1.58, 2^17 1.85 -> 1.67,
  // 2^18 1.94 -> 1.81, 2^21 2.30 -> 2.17, 2^22 2.61 -> 2.26, 2^23 2.73 -> 2.49,
  // 2^24 2.78 -> 2.63, 2^25 2.88 -> 2.76, 2^26 3.02 -> 2.85, 2^27 3.14 -> 2.99. 2^21 and 2^22
  // so take three passes where two would do (per-pass figures then count three). Not at 2^19
  // and 2^20 (7,12 and 8,12: a scattering 4096-point last pass, 3.3 and 3.8 ms then; since the
  // tall pass's rows form takes that pass, 7,12 runs 1.64 ms on the H200: fast_dram_split), nor
  // 2^13 and 2^14 (one pass is as fast or faster).
  if (vector == 1 && !fp32_ends && total >= (std::int64_t{1} << 20)) {
    int const rest = log_n - column::kMaxLogLength;
    if (log_n >= 15 && log_n <= 18) return {column::kMaxLogLength, rest};
    if (log_n >= 21) {
      int const last = std::max(8, (rest + 1) / 2);
      return {column::kMaxLogLength, rest - last, last};
    }
  }
  if (vector == 1) {
    // Splits measured faster than the even one on the H200 (FFTCORE_TC_SPLIT sweeps, same run,
    // ms per 2^28 elements; fftcore/NOTES.md, sessions 4 to 7). 2^15 and 2^23 lead with a
    // strided pass of 2..8 points on CUDA cores (the short pass, near copy bandwidth) and end
    // with 4096- or 1024-point register-chained passes. 2^13 and 2^14 are one pass (the
    // register-chained pass with split step C).
    switch (log_n) {
      case 15: return {3, 12};      // 2.62 (8, 7) -> 1.80
      case 18: return {8, 10};      // 2.14 (9, 9) -> 2.08
      case 19: return {9, 10};      // 2.30 (10, 9) -> 2.23
      case 21: return {10, 11};     // 2.64 (11, 10) -> 2.41 (H100, session 6)
      case 23: return {3, 10, 10};  // 3.75 (8, 8, 7) -> 2.88
      default: break;
    }
  }
  int const log_v = ceil_log2(vector);
  int const log_min = vector > 1 ? std::min(kLogMinCoalescedTile, log_v) : kLogMinCoalescedTile;
  // A 4096-point column transform runs as one register-chained pass over 4 adjacent columns
  // (16-byte segments) rather than two 64-point passes of the general kernel: 4096x4096 took
  // 2.89 ms instead of 4.58 per 2^28 elements (H200, same run).
  bool const fast_columns = vector > 1 && log_n == fast::kMaxLogChained;
  bool const single = vector == 1 ? log_n <= kLogMaxBlockElements
                                  : fast_columns || log_n + log_min <= kLogMaxBlockElements;
  int p = 1;
  if (!single) {
    p = 2;
    while ((log_n + p - 1) / p + log_min > kLogMaxBlockElements) ++p;
  }
  std::vector<int> parts(static_cast<std::size_t>(p), log_n / p);
  for (int i = 0; i < log_n % p; ++i) ++parts[static_cast<std::size_t>(i)];
  return parts;
}

std::vector<int> fast_dram_split(int log_n, std::int64_t vector, std::int64_t total,
                                 bool fp32_ends, bool tall_two_pass, bool tall_rows) {
  if (vector != 1 || fp32_ends || !tall_two_pass || !tall_rows ||
      total < (std::int64_t{1} << 24)) {
    return {};
  }
  // H200, ms per 2^28 elements, FFTCORE_TC_SPLIT sweeps, two runs each in each of two calls
  // (NOTES.md, session 40), split_length's split -> this one: 2^19 (9, 10) 2.054-2.069 ->
  // 1.637-1.645, 2^20 (10, 10) 2.025-2.049 -> 1.811-1.822, 2^22 (12, 10) 2.031-2.041 ->
  // 1.950-1.951, 2^25 (7, 9, 9) 2.742-2.764 -> 2.481-2.492, 2^26 (7, 10, 9) 2.836-2.850 ->
  // 2.774-2.779, 2^27 (7, 10, 10) 2.839-2.859 -> 2.669-2.673. Mostly a 4096-point pass (the tall
  // pass: twiddled first, or the rows form last) in place of a 512..1024-point one; 2^21, 2^23
  // and 2^24 keep theirs (12, 9 / 12, 11 / 12, 12: 11, 10 / 11, 12 / 12, 12 no faster).
  switch (log_n) {
    case 19: return {7, 12};
    case 20: return {12, 8};
    case 22: return {11, 11};
    case 25: return {12, 4, 9};
    case 26: return {12, 3, 11};
    case 27: return {5, 11, 11};
    default: return {};
  }
}

std::vector<int> split_override(char const* text) {
  std::vector<int> parts;
  if (text == nullptr) return parts;
  char const* c = text;
  while (*c != '\0') {
    int v = 0;
    int digits = 0;
    for (; *c >= '0' && *c <= '9' && digits < 3; ++c, ++digits) v = 10 * v + (*c - '0');
    // 15 and 16 only alone: the long pass's one-pass 2^15 and its split's 2^16 (it takes no
    // other pass).
    bool const long_alone = (v == long_pass::kLogLength || v == long_pass::kLogSplitLength) &&
                            parts.empty() && *c == '\0';
    if (digits == 0 || v < 1 || (v > kLogMaxBlockElements && !long_alone) || parts.size() == 3) {
      return {};
    }
    parts.push_back(v);
    if (*c == ',') {
      ++c;
      if (*c == '\0') return {};
    } else if (*c != '\0') {
      return {};
    }
  }
  return parts;
}

Status check_descriptor(PlanDesc const& desc) noexcept {
  if (desc.precision != Precision::kHalf) return Status::kUnsupportedSize;
  if (desc.batch <= 0) return Status::kInvalidArgument;
  if (desc.rank == 1) {
    int const log_n = log2_exact(desc.dims[0]);
    if (log_n < 1 || log_n > kLogMaxLength1d) return Status::kUnsupportedSize;
  } else if (desc.rank == 2) {
    int const log_r = log2_exact(desc.dims[0]);
    int const log_c = log2_exact(desc.dims[1]);
    if (log_r < 1 || log_r > kLogMaxDim2d || log_c < 1 || log_c > kLogMaxDim2d) {
      return Status::kUnsupportedSize;
    }
    if (log_r + log_c > kLogMaxLength1d) return Status::kUnsupportedSize;
  } else {
    return Status::kInvalidArgument;
  }
  // A grid dimension holds 2^31 - 1 blocks of at least 2^9 elements.
  if (desc.elements() > (std::int64_t{1} << 40) / desc.batch) return Status::kUnsupportedSize;
  return Status::kSuccess;
}

PassParams retiled(PassParams const& p, int log_tile) noexcept {
  PassParams t = p;
  std::int64_t const rest = p.blocks / p.tiles0;  // the digits above d0
  t.log_tile = log_tile;
  t.tiles0 = (p.extent[0] + (std::int64_t{1} << log_tile) - 1) >> log_tile;
  t.blocks = t.tiles0 * rest;
  set_origin_shortcuts(t);
  return t;
}

void set_origin_shortcuts(PassParams& p) noexcept {
  int const l0 = log2_exact(p.tiles0);
  int const l1 = log2_exact(p.extent[1]);
  int const l2 = log2_exact(p.extent[2]);
  bool const pow2 = l0 >= 0 && l1 >= 0 && l2 >= 0;
  p.log_tiles0 = pow2 ? l0 : -1;
  p.log_extent1 = pow2 ? l1 : -1;
  p.log_extent2 = pow2 ? l2 : -1;
  // The largest value of each digit, then the largest offset of each kind.
  std::int64_t const per_d3 = p.tiles0 * p.extent[1] * p.extent[2];
  std::int64_t const top[kDigits] = {(p.tiles0 << p.log_tile) - 1, p.extent[1] - 1,
                                     p.extent[2] - 1, (p.blocks + per_d3 - 1) / per_d3 - 1};
  constexpr std::int64_t kLimit = (std::int64_t{1} << 31) - 1;
  bool fits = true;
  for (std::int64_t const* stride : {p.in_stride, p.out_stride, p.twiddle_stride}) {
    std::int64_t sum = 0;
    for (int i = 0; i < kDigits; ++i) {
      if (stride[i] < 0 || top[i] < 0 || (stride[i] > 0 && top[i] > kLimit / stride[i])) {
        fits = false;
        break;
      }
      sum += top[i] * stride[i];
      if (sum > kLimit) fits = false;
    }
  }
  p.offsets32 = fits ? 1 : 0;
  // Linear origins: whole tiles, and every digit that takes more than one value strided by the
  // span of the digits below it, on both sides.
  std::int64_t const ranges[kDigits] = {p.extent[0], p.extent[1], p.extent[2], top[3] + 1};
  bool linear = (p.tiles0 << p.log_tile) == p.extent[0];
  for (std::int64_t const* stride : {p.in_stride, p.out_stride}) {
    std::int64_t span = stride[0] * ranges[0];
    for (int i = 1; i < kDigits && linear; ++i) {
      if (ranges[i] <= 1) continue;
      linear = stride[i] == span;
      span *= ranges[i];
    }
  }
  p.linear_blocks = linear ? 1 : 0;
  p.block_in_step = linear ? p.in_stride[0] << p.log_tile : 0;
  p.block_out_step = linear ? p.out_stride[0] << p.log_tile : 0;
}

namespace {

/// Per-pass scale, FP16/FP32 flags and the workspace of `passes` (already buffer-assigned) for
/// transforms of `total` elements in all.
Status finish_layout(Scaling scaling, bool fp32_intermediate, std::int64_t total,
                     PassLayout& layout) noexcept {
  bool uses_workspace = false;
  for (auto& p : layout.passes) {
    if (p.blocks >= (std::int64_t{1} << 31)) return Status::kUnsupportedSize;
    double const l = std::ldexp(1.0, p.log_length);
    p.scale = scaling == Scaling::kByN       ? static_cast<float>(1.0 / l)
              : scaling == Scaling::kBySqrtN ? static_cast<float>(1.0 / std::sqrt(l))
                                             : 1.0f;
    p.in_fp32 = fp32_intermediate && p.src == Buffer::kWorkspace;
    p.out_fp32 = fp32_intermediate && p.dst == Buffer::kWorkspace;
    set_origin_shortcuts(p);
    uses_workspace = uses_workspace || p.dst == Buffer::kWorkspace;
  }
  layout.workspace_bytes =
      uses_workspace ? static_cast<std::size_t>(total) * (fp32_intermediate ? 8u : 4u) : 0;
  return Status::kSuccess;
}

}  // namespace

Status build_layout(PlanDesc const& desc, PlanOptions const& options,
                    PassLayout& layout) noexcept {
  if (Status s = check_descriptor(desc); s != Status::kSuccess) return s;
  try {
    layout = PassLayout{};
    auto& passes = layout.passes;
    if (desc.rank == 1) {
      append_axis(log2_exact(desc.dims[0]), 1, desc.batch, passes, options);
    } else {
      append_axis(log2_exact(desc.dims[1]), 1, desc.batch * desc.dims[0], passes, options);
      append_axis(log2_exact(desc.dims[0]), desc.dims[1], desc.batch, passes, options);
    }
    // Small 2-D transforms keep the row results in FP32: cuFFT does them in one kernel, so a
    // second FP16 rounding would make them less accurate than cuFFT's.
    bool const fp32_intermediate =
        options.fp32_intermediate ||
        (desc.rank == 2 && desc.elements() <= kMaxElementsFp32Intermediate2d);
    assign_buffers(passes, fp32_intermediate);
    return finish_layout(desc.scaling, fp32_intermediate, desc.batch * desc.elements(), layout);
  } catch (std::bad_alloc const&) {
    return Status::kInternal;
  }
}

Status build_axis_layout(int log_n, std::int64_t vector, std::int64_t batch, Scaling scaling,
                         PassLayout& layout, bool fp32_ends, std::int64_t in_pitch,
                         std::int64_t out_pitch, bool tall, bool fast_dram,
                         std::vector<int> const& split) noexcept {
  if (log_n < 1 || log_n > kLogMaxLength1d || vector < 1 || batch < 1) {
    return Status::kUnsupportedSize;
  }
  if ((std::int64_t{1} << log_n) * vector > (std::int64_t{1} << 40) / batch) {
    return Status::kUnsupportedSize;
  }
  try {
    layout = PassLayout{};
    PlanOptions options;
    options.fp32_ends = fp32_ends;
    options.tall_two_pass = tall;
    options.tall_rows = tall;
    options.fast_dram = fast_dram;
    options.long_split = false;  // the real row FFTs: two passes, one of which takes the split
    options.split = split;
    append_axis(log_n, vector, batch, layout.passes, options, in_pitch, out_pitch);
    assign_buffers(layout.passes, false);
    return finish_layout(scaling, false, batch * vector * (std::int64_t{1} << log_n), layout);
  } catch (std::bad_alloc const&) {
    return Status::kInternal;
  }
}

}  // namespace fftcore::detail::tc
