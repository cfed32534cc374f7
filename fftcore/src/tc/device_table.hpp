// SPDX-License-Identifier: MIT
// A device array of float2 uploaded once at plan time, and the upload of the Tensor Core
// backend's twiddle tables into two of them.
#pragma once

#include "detail/backend_plan.hpp"
#include "tc/fast_constants.hpp"
#include "tc/twiddle_tables.hpp"

#include <cuda_runtime_api.h>

#include <new>
#include <vector>

namespace fftcore::detail::tc {

/// Owner of a device array of float2; not copyable, frees without throwing.
class DeviceTable {
 public:
  DeviceTable() = default;
  DeviceTable(DeviceTable const&) = delete;
  DeviceTable& operator=(DeviceTable const&) = delete;
  ~DeviceTable() {
    if (data_ != nullptr) (void)cudaFree(data_);
  }

  /// Allocates and uploads `values` (synchronous: plan time only).
  Status upload(std::vector<float2> const& values) noexcept {
    std::size_t const bytes = values.size() * sizeof(float2);
    void* raw = nullptr;
    if (Status s = from_cuda(cudaMalloc(&raw, bytes)); s != Status::kSuccess) return s;
    data_ = static_cast<float2*>(raw);
    return from_cuda(cudaMemcpy(data_, values.data(), bytes, cudaMemcpyHostToDevice));
  }
  [[nodiscard]] float2 const* get() const noexcept { return data_; }

 private:
  float2* data_ = nullptr;
};

/// Uploads the coarse and fine twiddle tables of the pass kernels (plan time); the register-
/// chained pass's constants (fast_constants.hpp) follow the coarse table.
inline Status upload_twiddle_tables(DeviceTable& coarse, DeviceTable& fine) noexcept {
  try {
    std::vector<float2> table = make_coarse_twiddles();
    std::vector<float2> const constants = make_fast_constants(table);
    table.insert(table.end(), constants.begin(), constants.end());
    if (Status s = coarse.upload(table); s != Status::kSuccess) return s;
    return fine.upload(make_fine_twiddles());
  } catch (std::bad_alloc const&) {
    return Status::kInternal;
  }
}

}  // namespace fftcore::detail::tc
