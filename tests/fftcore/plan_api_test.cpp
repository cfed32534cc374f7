// SPDX-License-Identifier: MIT
// fftcore's host-side API without a GPU: can_implement answers, Status and Backend names,
// make_plan / execute on machines without a device and on empty plans, and the type traits of
// Plan. Links fftcore and GoogleTest only.
#include <fftcore/fftcore.hpp>

#include "common/gpu_test.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <type_traits>

namespace {

using fftcore::Backend;
using fftcore::Precision;
using fftcore::Status;

static_assert(!std::is_copy_constructible_v<fftcore::Plan>, "Plan must not be copyable");
static_assert(!std::is_copy_assignable_v<fftcore::Plan>, "Plan must not be copy-assignable");
static_assert(std::is_nothrow_move_constructible_v<fftcore::Plan>, "Plan must be movable");
static_assert(std::is_nothrow_move_assignable_v<fftcore::Plan>, "Plan must be move-assignable");
static_assert(fftcore::element_bytes(Precision::kHalf) == 4);
static_assert(fftcore::element_bytes(Precision::kSingle) == 8);

fftcore::PlanDesc desc_1d(std::int64_t n, Precision precision, Backend backend,
                          std::int64_t batch = 1) {
  fftcore::PlanDesc desc;
  desc.rank = 1;
  desc.dims[0] = n;
  desc.batch = batch;
  desc.precision = precision;
  desc.backend = backend;
  return desc;
}

TEST(PlanApi, CanImplementRejectsInvalidDescriptors) {
  auto desc = desc_1d(64, Precision::kSingle, Backend::kCufft);
  EXPECT_EQ(fftcore::can_implement(desc), Status::kSuccess);
  for (int rank : {0, 3, -1}) {
    auto bad = desc;
    bad.rank = rank;
    EXPECT_EQ(fftcore::can_implement(bad), Status::kInvalidArgument) << "rank " << rank;
  }
  for (std::int64_t n : {0, -8}) {
    auto bad = desc;
    bad.dims[0] = n;
    EXPECT_EQ(fftcore::can_implement(bad), Status::kInvalidArgument) << "n " << n;
  }
  auto bad_batch = desc;
  bad_batch.batch = 0;
  EXPECT_EQ(fftcore::can_implement(bad_batch), Status::kInvalidArgument);
  auto bad_rank2 = desc;
  bad_rank2.rank = 2;
  bad_rank2.dims[1] = 0;
  EXPECT_EQ(fftcore::can_implement(bad_rank2), Status::kInvalidArgument);
  auto bad_precision = desc;
  bad_precision.precision = static_cast<Precision>(7);
  EXPECT_EQ(fftcore::can_implement(bad_precision), Status::kInvalidArgument);
  auto too_big = desc_1d(std::int64_t{1} << 30, Precision::kSingle, Backend::kCufft,
                         std::int64_t{1} << 20);
  EXPECT_EQ(fftcore::can_implement(too_big), Status::kInvalidArgument);
}

TEST(PlanApi, CufftNeedsPowerOfTwoForFp16AndTakesAnySizeInFp32) {
  for (std::int64_t n : {3, 12, 1000, 4093, 65535}) {
    EXPECT_EQ(fftcore::can_implement(desc_1d(n, Precision::kHalf, Backend::kCufft)),
              Status::kUnsupportedSize)
        << "fp16 n = " << n;
    EXPECT_EQ(fftcore::can_implement(desc_1d(n, Precision::kSingle, Backend::kCufft)),
              Status::kSuccess)
        << "fp32 n = " << n;
  }
  for (std::int64_t n : {1, 2, 16, 1024, 65536, 1 << 20}) {
    EXPECT_EQ(fftcore::can_implement(desc_1d(n, Precision::kHalf, Backend::kCufft, 3)),
              Status::kSuccess)
        << "fp16 n = " << n;
  }
  fftcore::PlanDesc rank2 = desc_1d(16, Precision::kHalf, Backend::kCufft);
  rank2.rank = 2;
  rank2.dims[1] = 32;
  EXPECT_EQ(fftcore::can_implement(rank2), Status::kSuccess);
  rank2.dims[1] = 24;
  EXPECT_EQ(fftcore::can_implement(rank2), Status::kUnsupportedSize);
  rank2.precision = Precision::kSingle;
  EXPECT_EQ(fftcore::can_implement(rank2), Status::kSuccess);
}

TEST(PlanApi, AutoFallsBackToCufftWhereTheTensorCoreBackendCannot) {
  // FP32 of any size: the Tensor Core backend is FP16 only, cuFFT takes it.
  EXPECT_EQ(fftcore::can_implement(desc_1d(1000, Precision::kSingle, Backend::kAuto)),
            Status::kSuccess);
  // FP16 powers of two: one of the two backends always can.
  EXPECT_EQ(fftcore::can_implement(desc_1d(4096, Precision::kHalf, Backend::kAuto)),
            Status::kSuccess);
  // FP16 of a size neither backend does.
  EXPECT_EQ(fftcore::can_implement(desc_1d(1000, Precision::kHalf, Backend::kAuto)),
            Status::kUnsupportedSize);
}

TEST(PlanApi, EveryStatusHasADistinctName) {
  std::set<std::string> names;
  for (int s = static_cast<int>(Status::kSuccess); s <= static_cast<int>(Status::kInternal);
       ++s) {
    char const* name = fftcore::to_string(static_cast<Status>(s));
    ASSERT_NE(name, nullptr);
    EXPECT_GT(std::strlen(name), 0u) << "status " << s;
    EXPECT_STRNE(name, "unknown status") << "status " << s;
    names.insert(name);
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(Status::kInternal) + 1);
  EXPECT_STREQ(fftcore::to_string(Status::kSuccess), "success");
  EXPECT_STREQ(fftcore::to_string(Status::kUnsupportedSize), "unsupported size");
  EXPECT_STREQ(fftcore::to_string(static_cast<Status>(999)), "unknown status");
  EXPECT_STREQ(fftcore::to_string(Backend::kAuto), "auto");
  EXPECT_STREQ(fftcore::to_string(Backend::kTensorCore), "tensor-core");
  EXPECT_STREQ(fftcore::to_string(Backend::kCufft), "cufft");
}

TEST(PlanApi, EmptyPlanIsInvalidAndExecuteRefusesIt) {
  fftcore::Plan plan;
  EXPECT_FALSE(plan.valid());
  EXPECT_EQ(plan.workspace_bytes(), 0u);
  EXPECT_EQ(plan.backend(), Backend::kAuto);
  EXPECT_EQ(plan.desc().batch, 1);
  alignas(8) float data[4] = {};
  EXPECT_EQ(fftcore::execute(plan, data, data, fftcore::Direction::kForward, nullptr, 0, nullptr),
            Status::kInvalidPlan);
  fftcore::Plan moved = std::move(plan);
  EXPECT_FALSE(moved.valid());
}

TEST(PlanApi, MakePlanValidatesBeforeLookingForADevice) {
  fftcore::Plan plan;
  EXPECT_EQ(fftcore::make_plan(desc_1d(0, Precision::kSingle, Backend::kCufft), plan),
            Status::kInvalidArgument);
  EXPECT_EQ(fftcore::make_plan(desc_1d(1000, Precision::kHalf, Backend::kCufft), plan),
            Status::kUnsupportedSize);
  EXPECT_FALSE(plan.valid());
}

TEST(PlanApi, MakePlanWithoutADeviceReturnsNoDevice) {
  if (tcfft::testing::cuda_device_present()) {
    GTEST_SKIP() << "a CUDA device is present: the no-device answer cannot be observed";
  }
  fftcore::Plan plan;
  EXPECT_EQ(fftcore::make_plan(desc_1d(256, Precision::kSingle, Backend::kCufft), plan),
            Status::kNoDevice);
  EXPECT_FALSE(plan.valid());
}

}  // namespace
