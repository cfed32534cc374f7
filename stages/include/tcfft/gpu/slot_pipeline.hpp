// SPDX-License-Identifier: MIT
// The scheduling of the streaming executor, free of CUDA so that CPU tests cover it.
//
// A run moves frames through `slots` reusable slots (a slot: the buffers of one frame in
// flight) and three threads:
//   reader thread   takes a free slot, fills it (read), hands it on;
//   calling thread  enqueues the slot's device work (submit), hands it on in frame order;
//   writer thread   waits for the slot's work and writes it (complete), frees the slot.
// Queues between them are bounded by the slot count, so memory stays slots x frame whatever
// the input size, and frames reach complete() in input order. The first error of any thread
// wins: it is recorded with its frame and phase, every queue is cancelled so no thread stays
// blocked, the threads are joined and the error is rethrown on the calling thread.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>

namespace tcfft::gpu {

/// A bounded FIFO between two threads. close(): no more pushes, pops drain what is queued and
/// then return nullopt. cancel(): pushes and pops return at once (false / nullopt).
template <class T>
class BoundedQueue {
 public:
  explicit BoundedQueue(std::size_t capacity) : capacity_(capacity > 0 ? capacity : 1) {}

  /// Blocks while full; returns false when the queue was closed or cancelled.
  bool push(T value) {
    std::unique_lock lock(mutex_);
    not_full_.wait(lock, [&] { return items_.size() < capacity_ || closed_ || cancelled_; });
    if (closed_ || cancelled_) return false;
    items_.push_back(std::move(value));
    not_empty_.notify_one();
    return true;
  }

  /// Blocks while empty and open; nullopt at the end (closed and drained) or when cancelled.
  std::optional<T> pop() {
    std::unique_lock lock(mutex_);
    not_empty_.wait(lock, [&] { return !items_.empty() || closed_ || cancelled_; });
    if (cancelled_ || items_.empty()) return std::nullopt;
    T value = std::move(items_.front());
    items_.pop_front();
    not_full_.notify_one();
    return value;
  }

  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    not_empty_.notify_all();
    not_full_.notify_all();
  }

  void cancel() {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
    not_empty_.notify_all();
    not_full_.notify_all();
  }

  [[nodiscard]] std::size_t size() const {
    std::lock_guard lock(mutex_);
    return items_.size();
  }

 private:
  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable not_empty_;
  std::condition_variable not_full_;
  std::deque<T> items_;
  bool closed_ = false;
  bool cancelled_ = false;
};

/// One frame in one slot.
struct SlotTicket {
  int slot = 0;
  std::int64_t frame = 0;      ///< frame index in the run
  std::int64_t first_row = 0;  ///< first item of the frame
  std::int64_t rows = 0;       ///< items in the frame
};

/// What the run does with a slot. Each callback runs on one thread only (see the file comment)
/// and may throw; the exception stops the run.
struct SlotCallbacks {
  /// Reader thread: fill slot `ticket.slot` with the next frame and set frame, first_row and
  /// rows; return false at the end of the input.
  std::function<bool(SlotTicket&)> read;
  /// Calling thread: enqueue the slot's device work.
  std::function<void(SlotTicket const&)> submit;
  /// Writer thread: wait for the slot's work and write its results (frames in input order).
  std::function<void(SlotTicket const&)> complete;
  /// Polled by the calling thread before each frame; true stops the run with Interrupted.
  std::function<bool()> should_stop;
};

struct SlotRunStats {
  std::int64_t frames = 0;  ///< frames completed
  int peak_in_use = 0;      ///< most slots held at once (never above the slot count)
};

/// Runs the three-thread pipeline over `slots` slots (>= 1). Rethrows the first error: a
/// tcfft::InputError or Interrupted as it was thrown, any other tcfft::Error with the same exit
/// code and "frame <k> (<phase>): " before its message, other exceptions as tcfft::Error
/// (runtime) with that prefix.
SlotRunStats run_slots(int slots, SlotCallbacks const& callbacks);

}  // namespace tcfft::gpu
