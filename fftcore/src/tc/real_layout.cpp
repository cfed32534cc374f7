// SPDX-License-Identifier: MIT
// Real-transform planning: the complex sub-plans, their buffer mapping, the split scale and
// the workspace regions.
//
// Scale: the row FFT scales by s_r (1/M or 1/sqrt(M) spread over its passes, as any complex
// plan), the column FFT by s_c (1/rows or 1/sqrt(rows)); the split step applies the rest of
// the policy's 1/n or 1/sqrt(n), n = M * 2 * rows: 1/2 or 1/sqrt(2) (1 for kNone), in both
// directions (the C2R split of real_split.hpp already includes the factor 2 that turns the
// M-point inverse into the n-point one).
//
// Workspace: [Y: rows x (M+1) float2, rank 2 only][region R], where R holds Z (rows x M
// float2) followed by the row FFT's workspace, or, at other times, the column FFT's workspace:
// the column FFT runs only while Z and the row workspace are dead (after the split in R2C,
// before it in C2R, all on one stream).
#include "tc/real_layout.hpp"

#include "tc/column_pass_layout.hpp"
#include "tc/fast_pass_layout.hpp"
#include "tc/long_pass_layout.hpp"
#include "tc/mirror_pass_layout.hpp"
#include "tc/stockham_pass_layout.hpp"
#include "tc/tall_pass_layout.hpp"
#include "tc/tall_real_layout.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace fftcore::detail::tc {
namespace {

constexpr std::size_t kAlign = 256;

std::size_t align_up(std::size_t bytes) { return (bytes + kAlign - 1) / kAlign * kAlign; }

/// Y's row pitch (rank 2, FP16 Y): M + 1 rounded up to whole 32-byte sectors (8 words).
std::int64_t padded_pitch(std::int64_t m) { return (m + 1 + 7) / 8 * 8; }

/// The scaling policy's factor for n points: 1/n, 1/sqrt(n) or 1.
double policy_scale(Scaling scaling, double n) {
  return scaling == Scaling::kByN       ? 1.0 / n
         : scaling == Scaling::kBySqrtN ? 1.0 / std::sqrt(n)
                                        : 1.0;
}

int log2_of(std::int64_t v) {
  int log = 0;
  while ((std::int64_t{1} << log) < v) ++log;
  return log;
}

/// Whether Y (rank 2) is FP16 in rows of y_pitch: where one kernel takes the row FFT and the
/// split (the fused row pass, or the small real kernel) or the row pairs' (rows of M words),
/// else FP32 in rows of M + 1.
bool y_fp16(RealLayout const& layout) { return layout.fused || layout.small || layout.row_pairs; }

/// Z is FP32 unless z_fp16; Y too unless y_fp16.
bool fp32_buffer(RealLayout const& layout, RealBuffer b) {
  return (b == RealBuffer::kZ && !layout.z_fp16) || (b == RealBuffer::kY && !y_fp16(layout));
}

/// Sets the FP16/FP32 flags of the passes reading or writing the FP32 buffers Z and Y.
void map_precision(RealLayout const& layout, bool column, PassLayout& sub) {
  for (auto& p : sub.passes) {
    if (fp32_buffer(layout, real_buffer(layout, column, p.src))) p.in_fp32 = 1;
    if (fp32_buffer(layout, real_buffer(layout, column, p.dst))) p.out_fp32 = 1;
  }
}

}  // namespace

RealBuffer real_buffer(RealLayout const& layout, bool column, Buffer buffer) noexcept {
  if (layout.row_pairs) {  // R2C: the column FFT (in -> Y), the row pairs (Y -> out); C2R back
    if (buffer == Buffer::kWorkspace) {
      return column ? RealBuffer::kColumnWorkspace : RealBuffer::kRowWorkspace;
    }
    if (column == layout.r2c) return buffer == Buffer::kIn ? RealBuffer::kIn : RealBuffer::kY;
    return buffer == Buffer::kIn ? RealBuffer::kY : RealBuffer::kOut;
  }
  if (layout.fused && !column) {
    // One pass between the data and the half spectrum (Y, FP16, for rank 2).
    RealBuffer const spectrum = layout.rank2 ? RealBuffer::kY : RealBuffer::kOut;
    if (layout.r2c) return buffer == Buffer::kIn ? RealBuffer::kIn : spectrum;
    return buffer == Buffer::kIn ? (layout.rank2 ? RealBuffer::kY : RealBuffer::kIn)
                                 : RealBuffer::kOut;
  }
  if (buffer == Buffer::kWorkspace) {
    return column ? RealBuffer::kColumnWorkspace : RealBuffer::kRowWorkspace;
  }
  if (layout.paired || layout.column_split || layout.twin || layout.halves ||
      layout.mirror) {  // 1-D
    return buffer == Buffer::kIn ? RealBuffer::kIn : RealBuffer::kOut;
  }
  // The row FFT's other side is Z, the column FFT's is Y; the split step sits between them.
  RealBuffer const own = column ? RealBuffer::kY : RealBuffer::kZ;
  bool const reads_data = layout.r2c != column;  // R2C rows and C2R columns read `in`
  if (buffer == Buffer::kIn) return reads_data ? RealBuffer::kIn : own;
  return reads_data ? own : RealBuffer::kOut;
}

namespace {

/// Zeroes the digit strides of `p`, which a rewritten pass then sets for its own digits.
void clear_strides(PassParams& p) {
  for (int i = 0; i < kDigits; ++i) {
    p.in_stride[i] = 0;
    p.out_stride[i] = 0;
    p.twiddle_stride[i] = 0;
  }
}

/// The fused row pass (real_layout.hpp), when `row` is one pass that can take it: the split
/// rides in its store (R2C: output rows of M + 1) or its load (C2R: input rows of M + 1, the
/// values times 1/4, so the scale times 4), and the split's scale joins the pass's.
bool fuse_split(RealLayout& layout) {
  if (layout.row.passes.size() != 1) return false;
  PassParams p = layout.row.passes.front();
  // 2^16 reals in large batches: the long pass takes the C2R's split in its load, the R2C's in
  // its stage 3.
  bool const long_real = !layout.rank2 && long_pass::eligible(p) && !long_pass::split(p) &&
                         p.extent[1] == 1 && p.extent[2] == 1;
  if (!long_real && (!fast::real_row_eligible(p) || p.extent[1] != 1 || p.extent[2] != 1)) {
    return false;
  }
  std::int64_t const m = std::int64_t{1} << layout.log_m;
  // The half spectrum's rows: M + 1 in `out` / `in` (cuFFT's layout); in Y (rank 2) padded to
  // whole 32-byte sectors, so that the column passes read and write aligned segments and copy
  // 16 bytes at a time (odd pitches took 2048x2048 to 1.39x of the C2C only, H200).
  std::int64_t const pitch = layout.rank2 ? padded_pitch(m) : m + 1;
  if (layout.r2c) {
    p.real_out = 1;
    p.out_stride[0] = pitch;
    p.scale *= layout.split_factor;
  } else {
    p.real_in = 1;
    p.in_stride[0] = pitch;
    p.scale *= 4.0f * layout.split_factor;
  }
  layout.y_pitch = layout.rank2 ? pitch : 0;
  p.src = Buffer::kIn;
  p.dst = Buffer::kOut;
  if (long_real) p.scatter = 1;  // rows of M + 1 one side, M the other (long_pass::eligible)
  set_origin_shortcuts(p);
  if (long_real && !long_pass::eligible(p)) return false;
  layout.row.passes.front() = p;
  layout.row.workspace_bytes = 0;
  layout.fused = true;
  return true;
}

/// The paired split (real_layout.hpp), when the row FFT's last pass can take it: the pass
/// rewritten to tiles of pair_log_tile over the P = M / L sequences of each transform (digit 0,
/// whose rows it finds itself from the sequence digits t0, t1 of the planner's pass) and the
/// batch (digit 1), writing rows of M + 1; the split's scale joins the pass's.
bool fuse_pairs(RealLayout& layout) {
  std::vector<PassParams>& passes = layout.row.passes;
  if (!layout.r2c || layout.rank2 || passes.size() < 2 || passes.size() > 3) return false;
  PassParams const& last = passes.back();
  int const log_l = last.log_length;
  int const log_p = layout.log_m - log_l;
  int const log_tile = fast::pairs_log_tile(log_l);
  if (log_tile < 1 || log_p < log_tile || log_p > fast::kPairsMaxLogSequences) return false;
  bool const three = passes.size() == 3;
  int const log_l0 = log2_of(last.extent[0]);
  // The planner's last pass (plan_logic.cpp, append_axis): sequence (t0, t1) writes output k at
  // t0 + L0 t1 + P k; the batch is the last digit, M apart on both sides.
  std::int64_t const m = std::int64_t{1} << layout.log_m;
  int const batch_digit = three ? 2 : 1;
  if (last.log_twiddle_n != 0 || last.in_fp32 != 0 || last.out_fp32 != 0 ||
      last.in_elem_stride != 1 || last.out_elem_stride != (std::int64_t{1} << log_p) ||
      last.out_stride[0] != 1 || (three && last.out_stride[1] != last.extent[0]) ||
      (std::int64_t{1} << (log_l0 + (three ? log2_of(last.extent[1]) : 0))) !=
          (std::int64_t{1} << log_p) ||
      last.in_stride[batch_digit] != m || last.out_stride[batch_digit] != m) {
    return false;
  }
  PassParams p = last;
  p.real_pairs = 1;
  p.pair_log_sequences = log_p;
  p.pair_log_l0 = log_l0;
  p.pair_in_stride0 = last.in_stride[0];
  p.pair_in_stride1 = three ? last.in_stride[1] : 0;
  p.log_tile = log_tile;
  clear_strides(p);
  p.extent[0] = std::int64_t{1} << log_p;
  p.extent[1] = layout.rows;
  p.extent[2] = 1;
  p.in_stride[1] = m;
  p.out_stride[1] = m + 1;
  p.out_elem_stride = 1;
  p.tiles0 = std::int64_t{1} << (log_p - log_tile);
  p.blocks = p.tiles0 * layout.rows;
  p.threads = (1 << (log_l + log_tile)) / kElementsPerThread;
  p.smem_bytes = (1 << (log_l + log_tile)) * static_cast<int>(sizeof(float) * 2);
  p.scale *= layout.split_factor;
  p.scatter = 1;
  p.dst = Buffer::kOut;
  set_origin_shortcuts(p);
  passes.back() = p;
  layout.paired = true;
  return true;
}

/// The two passes of the halves (tall_real_layout.hpp), a and b with their own fields set (kind,
/// lengths, extent[0], strides, twiddles): the items (whole ones of C), the batch, the scale
/// `each`, the buffers (in -> the row workspace -> out, Y of y_words words a transform), in
/// `layout` if each has tall_pass::kMinItems items, as the tall pass's other passes
/// (runs_tall_pass), and `eligible` takes them.
template <typename Eligible>
bool install_halves(RealLayout& layout, PassParams a, PassParams b, int log_n, int log_n2,
                    float each, std::int64_t y_words, Eligible eligible) {
  for (PassParams* p : {&a, &b}) {
    p->log_tile = tall_pass::log_columns(p->log_length);
    p->extent[1] = layout.rows;
    p->tiles0 = p->extent[0] >> p->log_tile;
    p->blocks = p->tiles0 * layout.rows;
    if (p->blocks < tall_pass::kMinItems) return false;
    p->threads = tall_pass::threads(p->log_length);
    p->scale = each;
    p->scatter = 1;
    p->halves_log_n = log_n;
    p->halves_log_n2 = log_n2;
  }
  a.src = Buffer::kIn;
  a.dst = Buffer::kWorkspace;
  b.src = Buffer::kWorkspace;
  b.dst = Buffer::kOut;
  set_origin_shortcuts(a);
  set_origin_shortcuts(b);
  if (!eligible(a, b)) return false;
  layout.row.passes = {a, b};
  layout.row.workspace_bytes = static_cast<std::size_t>(y_words * layout.rows) * 4;
  layout.halves = true;
  return true;
}

/// The C2R's halves: pass A, the column form over the P columns k2 of the half spectrum (in ->
/// Y, rows of P words), then pass B, the rows form over the N1 / 2 row pairs of Y (Y -> out).
bool build_c2r_halves(RealLayout& layout, int log_n, float each) {
  if (!tall_real::c2r_splits(log_n)) return false;
  int const log_n2 = tall_real::c2r_log_n2(log_n), log_n1 = log_n - log_n2;
  std::int64_t const n1 = std::int64_t{1} << log_n1, n2 = std::int64_t{1} << log_n2;
  std::int64_t const pitch = tall_real::c2r_pitch(log_n, log_n2);
  PassParams a;  // pass A: the column form over the columns of the half spectrum
  a.log_length = log_n1;
  a.extent[0] = pitch;
  a.in_stride[0] = 1;
  a.in_stride[1] = n1 * n2 / 2 + 1;
  a.in_elem_stride = n2;
  a.out_stride[0] = 1;
  a.out_stride[1] = pitch * n1;
  a.out_elem_stride = pitch;
  a.log_twiddle_n = log_n;
  a.twiddle_stride[0] = 1;
  a.real_halves = tall_real::kC2rColumnsPass;
  PassParams b;  // pass B: the rows form over the row pairs of Y
  b.log_length = log_n2;
  b.extent[0] = n1 / 2;
  b.in_stride[0] = 2 * pitch;
  b.in_stride[1] = pitch * n1;
  b.in_elem_stride = 1;
  b.out_stride[0] = 1;
  b.out_stride[1] = n1 * n2 / 2;
  b.out_elem_stride = n1 / 2;
  b.real_halves = tall_real::kC2rRowsPass;
  return install_halves(
      layout, a, b, log_n, log_n2, each, pitch * n1, [](PassParams const& x, PassParams const& y) {
        return tall_real::c2r_columns_eligible(x) && tall_real::c2r_rows_eligible(y);
      });
}

/// The halves (real_layout.hpp, tall_real_layout.hpp): a 1-D R2C or C2R of N = N1 N2 reals as
/// two tall passes, when N splits into their lengths (tall_real::splits, c2r_splits). The
/// scale (1, 1/N or 1/sqrt N) in two equal factors, one per pass.
bool build_halves(PlanDesc const& desc, RealLayout& layout) {
  int const log_n = layout.log_m + 1;
  if (layout.rank2) return false;
  auto const each = static_cast<float>(
      std::sqrt(policy_scale(desc.scaling, static_cast<double>(std::int64_t{1} << log_n))));
  if (!layout.r2c) return build_c2r_halves(layout, log_n, each);
  if (!tall_real::splits(log_n)) return false;
  int const log_n2 = tall_real::log_n2(log_n), log_n1 = log_n - log_n2;
  std::int64_t const n1 = std::int64_t{1} << log_n1, n2 = std::int64_t{1} << log_n2;
  std::int64_t const c2 = std::int64_t{1} << tall_pass::log_columns(log_n1);
  std::int64_t const y_rows = n2 / 2 + c2;  // pass 2's sequences, padded to whole items
  std::int64_t const y_stride = y_rows * n1;
  PassParams a;  // pass 1: the column form over the N1 / 2 complex columns
  a.log_length = log_n2;
  a.extent[0] = n1 / 2;
  a.in_stride[0] = 1;
  a.in_stride[1] = n1 * n2 / 2;
  a.in_elem_stride = n1 / 2;
  a.out_stride[0] = 2;
  a.out_stride[1] = y_stride;
  a.out_elem_stride = n1;
  a.real_halves = tall_real::kColumnsPass;
  PassParams b;  // pass 2: the rows form over the rows of Y
  b.log_length = log_n1;
  b.extent[0] = y_rows;
  b.in_stride[0] = n1;
  b.in_stride[1] = y_stride;
  b.in_elem_stride = 1;
  b.out_stride[0] = 0;
  b.out_stride[1] = n1 * n2 / 2 + 1;
  b.out_elem_stride = 1;
  b.real_halves = tall_real::kRowsPass;
  return install_halves(layout, a, b, log_n, log_n2, each, y_stride,
                        [](PassParams const& x, PassParams const& y) {
                          return tall_real::columns_eligible(x) && tall_real::rows_eligible(y);
                        });
}

/// The column split (real_layout.hpp), when the row FFT's first pass runs down the D0 = M / L
/// adjacent columns of each transform (digit 0) and the batch (digit 1) on a kernel that takes
/// the split (the column pass, or the register-chained pass at 256..1024 points): it reads
/// the half spectrum's rows of M + 1 instead of Z, and the split's scale joins the pass's.
bool fuse_column_split(RealLayout& layout) {
  std::vector<PassParams>& passes = layout.row.passes;
  if (layout.r2c || layout.rank2 || passes.size() < 2) return false;
  std::int64_t const m = std::int64_t{1} << layout.log_m;
  PassParams p = passes.front();
  if (p.src != Buffer::kIn || p.in_fp32 != 0 || p.in_stride[0] != 1 ||
      p.extent[0] != p.in_elem_stride || (p.extent[0] << p.log_length) != m ||
      p.extent[1] != layout.rows || p.extent[2] != 1 || p.in_stride[1] != m) {
    return false;
  }
  p.real_in_columns = 1;
  p.in_stride[1] = m + 1;
  p.scatter = 1;  // reads `in`, writes the workspace (the first pass: no predecessor to steer)
  p.scale *= 4.0f * layout.split_factor;  // the pass reads Z / 4
  set_origin_shortcuts(p);
  if (!column::eligible(p) && !fast::real_columns_eligible(p)) return false;
  passes.front() = p;
  layout.column_split = true;
  return true;
}

/// The mirror pass (real_layout.hpp, mirror_pass_layout.hpp), for a 1-D R2C or C2R of M = 128
/// D0 complex points, 2^min_log_d0 <= D0 <= 4096 (min_log_d0 > 0), whose D0-point pass has at
/// least tall_pass::kMinItems items. R2C: the first pass of the complex plan of split
/// {log D0, 7} (in -> the row workspace: D0 twiddled points down the 128 columns, leaving
/// Y[k_lo][n]), then the mirror pass over the D0 / 64 group pairs of each transform, writing
/// rows of M + 1. C2R: the mirror pass backwards first (rows of M + 1 -> the row workspace, with
/// the pass twiddles W_M^(-n k_lo)), then the untwiddled inverse column FFT of D0 points over the
/// 128 adjacent columns (-> out). The mirror pass has the 128-point DFTs' share of the scale and
/// the split's.
bool fuse_mirror(PlanDesc const& desc, RealLayout& layout, int min_log_d0) {
  int const log_d0 = layout.log_m - mirror_pass::kLogLength;
  if (layout.rank2 || min_log_d0 <= 0 ||
      log_d0 < std::max(min_log_d0, mirror_pass::kMinLogSequences) ||
      log_d0 > mirror_pass::kMaxLogSequences) {
    return false;
  }
  std::int64_t const m = std::int64_t{1} << layout.log_m;
  // The D0-point pass.
  PassLayout d0;
  if (layout.r2c) {
    if (build_axis_layout(layout.log_m, 1, layout.rows, desc.scaling, d0, false, 0, 0, false,
                          false, {log_d0, mirror_pass::kLogLength}) != Status::kSuccess ||
        d0.passes.size() != 2) {
      return false;
    }
    d0.passes.pop_back();  // the planner's 128-point last pass: the mirror pass's place
  } else if (build_axis_layout(log_d0, mirror_pass::kLength, layout.rows, desc.scaling, d0) !=
                 Status::kSuccess ||
             d0.passes.size() != 1) {
    return false;
  }
  PassParams& q = d0.passes.front();
  // Both ways the D0 points of column n lie 128 words apart; the R2C's outputs stay there
  // (Y[k_lo][n] at n + 128 k_lo), twiddled; the C2R's come from there, untwiddled.
  if (q.log_length != log_d0 || q.extent[0] != mirror_pass::kLength ||
      q.in_elem_stride != mirror_pass::kLength || q.out_elem_stride != mirror_pass::kLength ||
      q.in_stride[0] != 1 || q.out_stride[0] != 1 || (q.log_twiddle_n != 0) != layout.r2c ||
      (q.extent[0] >> tall_pass::log_columns(log_d0)) * q.extent[1] * q.extent[2] <
          tall_pass::kMinItems) {
    return false;
  }
  if (!layout.r2c) {  // the R2C's is the planner's first pass already (in -> the workspace)
    q.src = Buffer::kWorkspace;
    q.dst = Buffer::kOut;
    q.scatter = 1;
    set_origin_shortcuts(q);
  }
  PassParams p;
  p.log_length = mirror_pass::kLogLength;
  p.real_mirror = 1;
  p.mirror_log_sequences = log_d0;
  p.extent[0] = std::int64_t{1} << mirror_pass::log_groups(log_d0);
  p.extent[1] = layout.rows;
  p.in_stride[1] = layout.r2c ? m : m + 1;
  p.out_stride[1] = layout.r2c ? m + 1 : m;
  p.tiles0 = p.extent[0];
  p.blocks = p.extent[0] * layout.rows;
  p.threads = mirror_pass::kThreads;
  p.smem_bytes = mirror_pass::kSmemBytes;
  p.scale = static_cast<float>(policy_scale(desc.scaling, mirror_pass::kLength)) *
            layout.split_factor;
  p.scatter = 1;
  p.src = layout.r2c ? Buffer::kWorkspace : Buffer::kIn;
  p.dst = layout.r2c ? Buffer::kOut : Buffer::kWorkspace;
  set_origin_shortcuts(p);
  if (!mirror_pass::eligible(p)) return false;
  layout.row.passes = layout.r2c ? std::vector<PassParams>{q, p} : std::vector<PassParams>{p, q};
  layout.row.workspace_bytes = static_cast<std::size_t>(m * layout.rows) * 4;
  layout.mirror = true;
  return true;
}

/// The twin R2C (real_layout.hpp), when the 2^15-point complex FFT of the row pairs is one long
/// pass: that pass over rows / 2 (rounded up) items of two rows, `in` to `out`, at the R2C's
/// whole scale (the split's 1/2 is the kernel's).
bool fuse_twin(PlanDesc const& desc, RealLayout& layout) {
  if (!layout.r2c || layout.rank2 || layout.log_m != long_pass::kLogLength - 1 ||
      layout.rows < (std::int64_t{1} << kLogMinTwinRows)) {
    return false;
  }
  std::int64_t const items = (layout.rows + 1) / 2;
  PassLayout pair;
  if (build_axis_layout(long_pass::kLogLength, 1, items, desc.scaling, pair) != Status::kSuccess ||
      pair.passes.size() != 1 || pair.passes.front().log_length != long_pass::kLogLength) {
    return false;
  }
  PassParams p = pair.passes.front();
  p.real_twin = 1;
  p.twin_odd = static_cast<std::int32_t>(layout.rows & 1);
  clear_strides(p);
  p.extent[0] = 1;
  p.extent[1] = items;
  p.extent[2] = 1;
  p.in_stride[1] = 2 * long_pass::kTwinInRow;
  p.out_stride[1] = 2 * long_pass::kTwinOutRow;
  p.in_elem_stride = 1;
  p.out_elem_stride = 1;
  p.tiles0 = 1;
  p.blocks = items;
  p.scatter = 1;
  p.src = Buffer::kIn;
  p.dst = Buffer::kOut;
  set_origin_shortcuts(p);
  if (!long_pass::eligible(p)) return false;
  layout.row.passes.assign(1, p);
  layout.row.workspace_bytes = 0;
  layout.twin = true;
  return true;
}

/// The row pairs (real_layout.hpp), for a rank-2 R2C of R = dims[0] rows of 2M reals with
/// 2^kLogMinRowPairsColumns <= 2M <= 16384: the column FFT of R points over the M complex
/// columns of the reals read as complex (in -> Y, rows of M words), then one Stockham pass of
/// 2M points over the R / 2 + 1 row pairs of each image (Y -> out, rows of M + 1); the C2R the
/// same backwards (in -> Y by the row pairs, Y -> out by the column FFT). The column FFT takes
/// its share of the scale (1/R or 1/sqrt(R)), the pass the rest (1/2M or 1/sqrt(2M), times the
/// 1/2 of the R2C's separation).
bool fuse_row_pairs(PlanDesc const& desc, RealLayout& layout, int min_log_columns) {
  int const log_l = layout.log_m + 1;
  if (!layout.rank2 || log_l < min_log_columns || log_l < stockham::kMinLogLengthRowPairs ||
      log_l > stockham::kMaxLogLengthRowPairs) {
    return false;
  }
  std::int64_t const m = std::int64_t{1} << layout.log_m;
  std::int64_t const rows = desc.dims[0];
  int const log_rows = log2_of(rows);
  std::int64_t const pairs = rows / 2 + 1;
  PassLayout column;
  PassLayout line;
  if (build_axis_layout(log_rows, m, desc.batch, desc.scaling, column) != Status::kSuccess ||
      build_axis_layout(log_l, 1, desc.batch * pairs, desc.scaling, line) != Status::kSuccess ||
      line.passes.size() != 1) {
    return false;
  }
  PassParams p = line.passes.front();
  p.real_row_pairs = 1;
  p.row_pairs_log_rows = log_rows;
  clear_strides(p);
  p.extent[0] = pairs;
  p.extent[1] = desc.batch;
  p.extent[2] = 1;
  std::int64_t const y_row = m, x_row = m + 1;  // Y's rows, the half spectrum's
  p.in_stride[0] = layout.r2c ? y_row : x_row;
  p.out_stride[0] = layout.r2c ? x_row : y_row;
  p.in_stride[1] = rows * p.in_stride[0];
  p.out_stride[1] = rows * p.out_stride[0];
  p.in_elem_stride = 1;
  p.out_elem_stride = 1;
  // No more sequences per tile than an image has pairs (R = 2: one tile of two).
  p.log_tile = std::min(p.log_tile, log_rows);
  p.tiles0 = (pairs + (std::int64_t{1} << p.log_tile) - 1) >> p.log_tile;
  p.blocks = p.tiles0 * desc.batch;
  if (layout.r2c) p.scale *= 0.5f;
  p.scatter = 1;
  p.src = Buffer::kIn;
  p.dst = Buffer::kOut;
  set_origin_shortcuts(p);
  if (!stockham::eligible(p)) return false;
  for (PassParams& c : column.passes) c.prefer_stockham_columns = 1;
  layout.column = std::move(column);
  layout.row.passes.assign(1, p);
  layout.row.workspace_bytes = 0;
  layout.y_pitch = m;
  layout.row_pairs = true;
  return true;
}

}  // namespace

Status build_real_layout(PlanDesc const& desc, RealLayout& layout, bool fuse, bool twin,
                         int row_pairs_log_columns, bool tall, bool halves,
                         bool small_512, bool fast_dram, int mirror_log_sequences,
                         int c2r_split_log_m) noexcept {
  if (desc.kind != Transform::kR2C && desc.kind != Transform::kC2R) {
    return Status::kInvalidArgument;
  }
  if (Status s = check_descriptor(desc); s != Status::kSuccess) return s;
  layout = RealLayout{};
  layout.r2c = desc.kind == Transform::kR2C;
  std::int64_t const last = desc.dims[desc.rank - 1];
  std::int64_t const m = last / 2;
  layout.log_m = log2_of(m);
  layout.rows = desc.batch * (desc.rank == 2 ? desc.dims[0] : 1);
  double const rest = policy_scale(desc.scaling, 2.0);
  layout.split_factor = static_cast<float>(rest);
  layout.rank2 = desc.rank == 2;
  // The small real kernels: 1-D up to M = 256 (M = 256 with `small_512`); rank 2 with M = 64 or
  // 128 above 4096 elements (the medium real kernel writes or reads the FP16 half spectrum Y;
  // the column FFT meets it).
  bool const small_2d = layout.rank2 && m >= kMediumRealMinM && desc.elements() > 4096;
  bool const small_1d =
      !layout.rank2 && (m < kSmallRealMaxM1d || (small_512 && m == kSmallRealMaxM1d));
  if (fuse && ((m <= kSmallRealMaxM && small_2d) || small_1d)) {
    // The row FFT's scale (1/M or 1/sqrt(M)) joins the split's.
    double const row = policy_scale(desc.scaling, static_cast<double>(m));
    layout.split_factor = static_cast<float>(rest * row);
    layout.small = true;
    if (!layout.rank2) return Status::kSuccess;
    layout.y_pitch = padded_pitch(m);
  }
  // FP16 rows (fused, or FP16 Z) unless the caller asks for the FP32 layout; small 2-D
  // transforms keep the FP32 half spectrum Y for accuracy (as the complex path keeps its FP32
  // intermediate below 4096 elements, build_layout).
  bool const fp16_rows = fuse && m > 1 && !(layout.rank2 && desc.elements() <= 4096);
  // The C2R's split kernel and the complex plan's row passes (kLogMinC2rSplitKernelM).
  bool const c2r_kernel = fuse && !layout.r2c && !layout.rank2 && c2r_split_log_m > 0 &&
                          layout.log_m >= c2r_split_log_m;
  // The FP32 ends split 8192 and 16384 points as a short pass and a 4096-point one (the
  // register-chained pass cannot write FP32 Z); FP16 rows take the plain split.
  auto const build_rows = [&](bool fp32_ends) {
    bool const two_pass = tall && (layout.r2c || c2r_kernel) && !fp32_ends && !layout.rank2;
    return build_axis_layout(layout.log_m, 1, layout.rows, desc.scaling, layout.row, fp32_ends, 0,
                             0, two_pass, two_pass && fast_dram);
  };
  if (fuse && twin && fuse_twin(desc, layout)) {
    // One pass from the reals to the half spectrum (no workspace): the rest does not apply.
    return Status::kSuccess;
  }
  // The row pairs build the column FFT and their one row pass, the halves their two row
  // passes: only the workspace is left.
  bool const pairs_built = fuse && row_pairs_log_columns > 0 && fp16_rows &&
                           fuse_row_pairs(desc, layout, row_pairs_log_columns);
  bool const halves_here = halves && !(fast_dram && layout.r2c &&
                                        !tall_real::r2c_halves_on_fast_dram(layout.log_m + 1));
  bool const mirror_built =
      fuse && fp16_rows && fuse_mirror(desc, layout, mirror_log_sequences);
  bool const halves_built =
      !mirror_built && fuse && halves_here && fp16_rows && build_halves(desc, layout);
  if (!pairs_built && !halves_built && !mirror_built && m > 1 && !layout.small) {
    if (Status s = build_rows(!fp16_rows); s != Status::kSuccess) return s;
  }
  if (fp16_rows && !layout.small && !layout.row_pairs && !layout.halves && !layout.mirror &&
      !fuse_split(layout) &&
      !fuse_pairs(layout) && (c2r_kernel || !fuse_column_split(layout))) {
    if (desc.rank == 1 && (m > (std::int64_t{1} << fast::kMaxLogLength) || m >= 16)) {
      // 1-D of 2^16 points and more (M > 16384, two or three row passes; 32..512 points, M =
      // 16..256, take the small real kernels above): Z in FP16, so that the row FFT runs the
      // FP16 kernels, and the split kernel reads and writes FP16 (one rounding more, of Z).
      // Not below M = 16, where one FP16 rounding more would take the error to cuFFT FP16's.
      // C2R: the split's Z / 4 stays in FP16's range, the row FFT's first pass scales by 4.
      layout.z_fp16 = true;
      if (!layout.r2c) {
        layout.split_factor *= 0.25f;
        layout.row.passes.front().scale *= 4.0f;
      }
    } else if (Status s = build_rows(true); s != Status::kSuccess) {
      return s;
    }
  }
  if (layout.rank2 && !layout.row_pairs) {  // fused or small: the column FFT meets Y's padded rows
    std::int64_t const y_in = y_fp16(layout) && layout.r2c ? layout.y_pitch : 0;
    std::int64_t const y_out = y_fp16(layout) && !layout.r2c ? layout.y_pitch : 0;
    if (Status s = build_axis_layout(log2_of(desc.dims[0]), m + 1, desc.batch, desc.scaling,
                                     layout.column, false, y_in, y_out);
        s != Status::kSuccess) {
      return s;
    }
  }
  map_precision(layout, false, layout.row);
  map_precision(layout, true, layout.column);

  auto const rows = static_cast<std::size_t>(layout.rows);
  auto const um = static_cast<std::size_t>(m);
  // Y: FP16 rows of y_pitch (y_fp16), else FP32 rows of M + 1.
  std::size_t const y_bytes =
      desc.rank != 2   ? 0
      : y_fp16(layout) ? align_up(rows * static_cast<std::size_t>(layout.y_pitch) * 4)
                       : align_up(rows * (um + 1) * sizeof(float) * 2);
  std::size_t const z_bytes = m > 1 && !layout.small && !layout.split_in_row_pass()
                                  ? align_up(rows * um * (layout.z_fp16 ? 4 : sizeof(float) * 2))
                                  : 0;
  std::size_t const row_ws = align_up(layout.row.workspace_bytes);
  std::size_t const column_ws = align_up(layout.column.workspace_bytes);
  layout.y_offset = 0;
  layout.z_offset = y_bytes;
  layout.row_workspace_offset = y_bytes + z_bytes;
  layout.column_workspace_offset = y_bytes;
  layout.workspace_bytes = y_bytes + std::max(z_bytes + row_ws, column_ws);
  return Status::kSuccess;
}

}  // namespace fftcore::detail::tc
