// SPDX-License-Identifier: MIT
// ExecuteHooks (issue 4's fusion): the input times per-index factors before the transform and
// the output times per-frequency factors (or their conjugates) after it, on the Tensor Core
// backend (inside its first and last pass) and on cuFFT FP16 (separate kernels), against a
// double-precision reference of the same products. Passes when the hooked transform's error is
// within the plain transform's error on the same input plus the factors' extra FP16 roundings.
#include "tc_test_support.hpp"

#include "../../fftcore/src/tc/kernels/pass_launch.hpp"
#include "../../fftcore/src/tc/plan_logic.hpp"
#include "../../fftcore/src/tc/tall_pass_layout.hpp"
#include "tc_plan_helpers.hpp"

#include "common/gpu_test.hpp"
#include "common/reference_dft.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

namespace {

using fftcore::Backend;
using fftcore::Direction;
using tcfft::testing::cd;
using tcfft::testing::DeviceBuffer;

class Hooks : public tcfft::testing::GpuTest {};

std::vector<float2> random_factors(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> radius(0.25f, 1.0f), angle(-3.14159265f, 3.14159265f);
  std::vector<float2> f(n);
  for (auto& v : f) {
    float const r = radius(gen), a = angle(gen);
    v = make_float2(r * std::cos(a), r * std::sin(a));
  }
  return f;
}

/// Runs desc on x (FP16-representable) with the given hooks (null vectors: no hook).
void run(fftcore::PlanDesc desc, Backend backend, std::vector<cd> const& x, Direction dir,
         std::vector<float2> const& load, std::vector<float2> const& store, bool conjugate,
         std::vector<cd>& y) {
  desc.backend = backend;
  fftcore::Plan plan;
  TC_STATUS_OK(fftcore::make_plan(desc, plan));
  auto const h = tcfft::testing::to_half(x);
  std::size_t const bytes = h.size() * sizeof(__half2);
  DeviceBuffer in(bytes), out(bytes), ws(plan.workspace_bytes());
  DeviceBuffer load_d(load.size() * sizeof(float2)), store_d(store.size() * sizeof(float2));
  ASSERT_NE(in.get(), nullptr);
  ASSERT_NE(out.get(), nullptr);
  TC_CUDA_OK(cudaMemcpy(in.get(), h.data(), bytes, cudaMemcpyHostToDevice));
  fftcore::ExecuteHooks hooks;
  if (!load.empty()) {
    TC_CUDA_OK(cudaMemcpy(load_d.get(), load.data(), load_d.bytes(), cudaMemcpyHostToDevice));
    hooks.load_factors = static_cast<float2 const*>(load_d.get());
  }
  if (!store.empty()) {
    TC_CUDA_OK(cudaMemcpy(store_d.get(), store.data(), store_d.bytes(), cudaMemcpyHostToDevice));
    hooks.store_factors = static_cast<float2 const*>(store_d.get());
  }
  hooks.conjugate_store = conjugate;
  TC_STATUS_OK(fftcore::execute(plan, in.get(), out.get(), dir, ws.get(), ws.bytes(), nullptr,
                                hooks));
  TC_CUDA_OK(cudaDeviceSynchronize());
  std::vector<__half2> r(h.size());
  TC_CUDA_OK(cudaMemcpy(r.data(), out.get(), bytes, cudaMemcpyDeviceToHost));
  y = tcfft::testing::to_double(r);
}

struct Shape {
  std::int64_t rows, cols, batch;  // rows = 1: 1-D
};

void check(Shape s, Backend backend, Direction dir, bool with_load, bool conjugate) {
  fftcore::PlanDesc desc;
  desc.rank = s.rows > 1 ? 2 : 1;
  desc.dims[0] = s.rows > 1 ? s.rows : s.cols;
  desc.dims[1] = s.rows > 1 ? s.cols : 0;
  desc.batch = s.batch;
  auto const n = static_cast<std::size_t>(s.rows * s.cols);
  unsigned seed = 0;
  auto const x = tcfft::testing::round_to_half(
      tcfft::testing::random_complex(n * static_cast<std::size_t>(s.batch), seed));
  auto const load = with_load ? random_factors(n, seed + 1) : std::vector<float2>{};
  auto const store = random_factors(n, seed + 2);
  int const sign = dir == Direction::kForward ? -1 : 1;
  // Reference: (x .* load) transformed in double, times store (or its conjugate).
  std::vector<cd> z = x;
  for (std::size_t i = 0; i < z.size() && with_load; ++i) {
    z[i] *= cd(load[i % n].x, load[i % n].y);
  }
  auto ref = tcfft::testing::reference_fft(z, s.rows, s.cols, s.batch, sign);
  for (std::size_t k = 0; k < ref.size(); ++k) {
    cd const f(store[k % n].x, conjugate ? -store[k % n].y : store[k % n].y);
    ref[k] *= f;
  }
  std::vector<cd> hooked, plain;
  ASSERT_NO_FATAL_FAILURE(run(desc, backend, x, dir, load, store, conjugate, hooked));
  ASSERT_NO_FATAL_FAILURE(run(desc, backend, x, dir, {}, {}, false, plain));
  auto const plain_ref = tcfft::testing::reference_fft(x, s.rows, s.cols, s.batch, sign);
  double const err = tcfft::testing::relative_l2_error(hooked, ref);
  double const err_plain = tcfft::testing::relative_l2_error(plain, plain_ref);
  double peak = 0;
  for (auto const& v : hooked) peak = std::max(peak, std::abs(v));
  std::printf("[hooks] %-11s %5lld x %-9lld batch %-3lld %s load %d conj %d  L2 %.3e (plain %.3e)"
              "  seed %u\n",
              fftcore::to_string(backend), static_cast<long long>(s.rows),
              static_cast<long long>(s.cols), static_cast<long long>(s.batch),
              sign < 0 ? "fwd" : "inv", with_load ? 1 : 0, conjugate ? 1 : 0, err, err_plain,
              seed);
  EXPECT_GT(peak, 0.0) << "all-zero output";
  // The factors add at most two FP16 roundings of the data (unfused: x .* load and the
  // output product are rounded; fused: none beyond the plain path's), ~2.3e-4 each.
  EXPECT_LT(err, 1.5 * err_plain + 5e-4) << "seed " << seed;
}

std::vector<Shape> const kShapes = {{1, 256, 33},    {1, 4096, 5},     {1, 1 << 15, 64},
                                    {1, 1 << 16, 3}, {1, 1 << 16, 64}, {1, 1 << 23, 1},
                                    {64, 128, 3},    {512, 512, 1},    {4096, 64, 3}};

TEST_F(Hooks, LoadAndStoreFactorsTensorCore) {
  for (Shape s : kShapes) {
    SCOPED_TRACE(std::to_string(s.rows) + " x " + std::to_string(s.cols));
    check(s, Backend::kTensorCore, Direction::kForward, true, false);
    check(s, Backend::kTensorCore, Direction::kInverse, false, true);
    // The long pass (and its split, 2^16 in batches of 64) applies both hooks itself: the
    // load hook on the inverse too.
    if (s.cols == 1 << 15 || (s.cols == 1 << 16 && s.batch >= 64)) {
      check(s, Backend::kTensorCore, Direction::kInverse, true, true);
    }
  }
}

// Plans of 2^24 elements and more: on fast-DRAM devices (the H200) they take
// fast_dram_split's splits (session 40), where a hooked first or last pass may leave the tall
// pass's rows or twiddled form for another kernel (tall_pass::eligible, rows_eligible). ctest
// runs this again as either device kind (Hooks.LargeBatchesAsSlowDramDevice / AsFastDram...).
// 2^26 and 2^27 (12 + 3 + 11, 5 + 11 + 11) are left out for the double reference's time (2^27
// took the test to 124 s on the H200 machine); 2^25 runs a three-pass hooked plan.
TEST_F(Hooks, LargeBatchesTensorCore) {
  struct Case {
    Shape shape;
    Direction dir;
    bool conjugate;
  };
  std::vector<Case> const cases = {{{1, 1 << 19, 32}, Direction::kForward, false},
                                   {{1, 1 << 20, 16}, Direction::kInverse, true},
                                   {{1, 1 << 22, 4}, Direction::kForward, true},
                                   {{1, 1 << 25, 1}, Direction::kInverse, false}};
  for (Case const& c : cases) {
    SCOPED_TRACE(std::to_string(c.shape.cols) + " x batch " + std::to_string(c.shape.batch));
    check(c.shape, Backend::kTensorCore, c.dir, true, c.conjugate);
  }
}

// The tall pass's rows form with a store hook (session 41): small two-pass plans forced by
// FFTCORE_TC_SPLIT whose last pass (2048 or 4096 points, read as rows, written transposed) the
// rows form takes, so that execute hands the hooked copy of that pass to it too (runs_tall_pass;
// without it the factors go to a separate multiply kernel), forward with a load hook on the
// first pass and inverse with the conjugated factors; small enough for compute-sanitizer.
// FFTCORE_TC_TALL_ROWS_HOOK=0 (A/B) keeps the separate multiply.
TEST_F(Hooks, RowsFormStoreHook) {
  namespace tc = fftcore::detail::tc;
  struct Case {
    std::int64_t cols, batch;
    char const* split;
  };
  char const* hook_switch = std::getenv("FFTCORE_TC_TALL_ROWS_HOOK");
  bool const rows_hook = hook_switch == nullptr || std::strcmp(hook_switch, "0") != 0;
  for (Case const& c : std::vector<Case>{{1 << 16, 1, "4,12"}, {1 << 15, 3, "4,11"}}) {
    SCOPED_TRACE(std::string(c.split) + " batch " + std::to_string(c.batch));
    tc::PlanOptions options;
    options.split = tc::split_override(c.split);
    options.tall_two_pass = true;
    options.tall_rows = true;
    auto const layout =
        tcfft::testing::plans::layout_of(tcfft::testing::plans::desc(1, c.cols, c.batch), options);
    ASSERT_EQ(layout.passes.size(), 2u);
    tc::PassParams last = layout.passes.back();
    ASSERT_TRUE(tc::runs_tall_pass(last)) << "the plan's last pass is not on the rows form";
    float2 const factor{1.f, 0.f};
    last.store_factors = &factor;
    EXPECT_EQ(tc::runs_tall_pass(last), rows_hook);
    ASSERT_EQ(setenv("FFTCORE_TC_SPLIT", c.split, 1), 0);
    check({1, c.cols, c.batch}, Backend::kTensorCore, Direction::kForward, true, false);
    check({1, c.cols, c.batch}, Backend::kTensorCore, Direction::kInverse, false, true);
    ASSERT_EQ(unsetenv("FFTCORE_TC_SPLIT"), 0);
  }
}

// 2-D shapes with enough items for the tall pass's column form (tall_pass::kMinItems) on their
// last (column) pass, whose hooked copy runs there too (runs_tall_pass; not the Tensor Core
// stages of the unhooked 512- and 1024-row passes, runs_tall_mma, which take no hooks). By
// default the column form applies the store factors; with FFTCORE_TC_TALL_COLUMN_HOOK=0 (ctest
// Hooks.TallColumnHookUnfused) execute multiplies by them in a separate kernel.
TEST_F(Hooks, TallColumnPassStoreHook) {
  namespace tc = fftcore::detail::tc;
  for (Shape s : {Shape{512, 512, 32}, Shape{1024, 1024, 8}, Shape{2048, 2048, 2}}) {
    SCOPED_TRACE(std::to_string(s.rows) + " x " + std::to_string(s.cols) + " batch " +
                 std::to_string(s.batch));
    auto const layout =
        tcfft::testing::plans::layout_of(tcfft::testing::plans::desc(s.rows, s.cols, s.batch));
    ASSERT_FALSE(layout.passes.empty());
    tc::PassParams last = layout.passes.back();
    float2 const factor{1.f, 0.f};
    last.store_factors = &factor;
    ASSERT_TRUE(tc::runs_tall_pass(last)) << "the hooked column pass is not on the tall pass";
    EXPECT_TRUE(tc::tall_pass::eligible(last));
    check(s, Backend::kTensorCore, Direction::kForward, true, false);
    check(s, Backend::kTensorCore, Direction::kInverse, false, true);
  }
}

TEST_F(Hooks, LoadAndStoreFactorsCufftUnfused) {
  for (Shape s : kShapes) {
    SCOPED_TRACE(std::to_string(s.rows) + " x " + std::to_string(s.cols));
    check(s, Backend::kCufft, Direction::kForward, true, false);
    check(s, Backend::kCufft, Direction::kInverse, false, true);
  }
}

TEST_F(Hooks, RefusesRealPlansAndMisalignedFactors) {
  fftcore::PlanDesc desc;
  desc.dims[0] = 256;
  desc.kind = fftcore::Transform::kR2C;
  desc.backend = Backend::kTensorCore;
  fftcore::Plan plan;
  TC_STATUS_OK(fftcore::make_plan(desc, plan));
  DeviceBuffer in(256 * 2), out(129 * 4), ws(plan.workspace_bytes() + 16), f(257 * 8);
  fftcore::ExecuteHooks hooks;
  hooks.store_factors = static_cast<float2 const*>(f.get());
  EXPECT_EQ(fftcore::execute(plan, in.get(), out.get(), Direction::kForward, ws.get(),
                             ws.bytes(), nullptr, hooks),
            fftcore::Status::kInvalidArgument);
  fftcore::PlanDesc c2c;
  c2c.dims[0] = 256;
  c2c.backend = Backend::kTensorCore;
  fftcore::Plan complex_plan;
  TC_STATUS_OK(fftcore::make_plan(c2c, complex_plan));
  DeviceBuffer data(256 * 4);
  hooks.store_factors =
      reinterpret_cast<float2 const*>(static_cast<char const*>(f.get()) + 4);  // misaligned
  EXPECT_EQ(fftcore::execute(complex_plan, data.get(), data.get(), Direction::kForward, nullptr,
                             0, nullptr, hooks),
            fftcore::Status::kMisaligned);
}

}  // namespace
