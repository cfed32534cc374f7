// SPDX-License-Identifier: MIT
// Fixture for tests that need a CUDA device: they skip visibly (GTEST_SKIP with the reason)
// on machines without one, never pass silently.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

namespace tcfft::testing {

[[nodiscard]] inline bool cuda_device_present() {
  int count = 0;
  bool const ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  (void)cudaGetLastError();
  return ok;
}

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda_device_present()) GTEST_SKIP() << "no CUDA device visible: GPU test skipped";
  }
};

template <class Param>
class GpuTestWithParam : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    if (!cuda_device_present()) GTEST_SKIP() << "no CUDA device visible: GPU test skipped";
  }
};

}  // namespace tcfft::testing
