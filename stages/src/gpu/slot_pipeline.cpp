// SPDX-License-Identifier: MIT
// run_slots: three threads, three bounded queues, first error wins.
#include <tcfft/gpu/slot_pipeline.hpp>

#include <tcfft/core/error.hpp>

#include <algorithm>
#include <atomic>
#include <exception>
#include <string>
#include <thread>

namespace tcfft::gpu {
namespace {

/// The first error of the run, with the frame and phase it happened in.
class FirstError {
 public:
  void record(std::int64_t frame, char const* phase, std::exception_ptr error) {
    std::lock_guard lock(mutex_);
    if (error_) return;
    error_ = std::move(error);
    frame_ = frame;
    phase_ = phase;
    failed_.store(true);
  }
  [[nodiscard]] bool failed() const { return failed_.load(); }

  [[noreturn]] void rethrow() const {
    std::string const prefix = "frame " + std::to_string(frame_) + " (" + phase_ + "): ";
    try {
      std::rethrow_exception(error_);
    } catch (InputError const&) {
      throw;  // the message already names the dataset and position, as on the host path
    } catch (Interrupted const&) {
      throw;
    } catch (Error const& e) {
      throw Error(e.code(), prefix + e.what());
    } catch (std::exception const& e) {
      throw Error(ExitCode::kRuntime, prefix + e.what());
    }
  }

 private:
  std::mutex mutex_;
  std::exception_ptr error_;
  std::int64_t frame_ = -1;
  std::string phase_;
  std::atomic<bool> failed_{false};
};

}  // namespace

SlotRunStats run_slots(int slots, SlotCallbacks const& callbacks) {
  TCFFT_EXPECTS(slots >= 1, "run_slots needs at least one slot, got " + std::to_string(slots));
  auto const capacity = static_cast<std::size_t>(slots);
  BoundedQueue<int> free_slots(capacity);
  BoundedQueue<SlotTicket> filled(capacity);
  BoundedQueue<SlotTicket> submitted(capacity);
  for (int s = 0; s < slots; ++s) free_slots.push(s);

  FirstError first_error;
  std::atomic<int> in_use{0};
  std::atomic<int> peak{0};
  std::atomic<std::int64_t> completed{0};
  auto const cancel_all = [&] {
    free_slots.cancel();
    filled.cancel();
    submitted.cancel();
  };

  std::thread reader([&] {
    std::int64_t frame = 0;
    try {
      while (!first_error.failed()) {
        auto slot = free_slots.pop();
        if (!slot) break;
        int const now = ++in_use;
        int seen = peak.load();
        while (now > seen && !peak.compare_exchange_weak(seen, now)) {
        }
        SlotTicket ticket;
        ticket.slot = *slot;
        ticket.frame = frame;
        if (!callbacks.read(ticket)) {
          --in_use;
          break;
        }
        frame = ticket.frame + 1;
        if (!filled.push(ticket)) break;
      }
      filled.close();
    } catch (...) {
      first_error.record(frame, "read", std::current_exception());
      cancel_all();
    }
  });

  std::thread writer([&] {
    std::int64_t frame = 0;
    try {
      while (auto ticket = submitted.pop()) {
        frame = ticket->frame;
        callbacks.complete(*ticket);
        ++completed;
        --in_use;
        if (!free_slots.push(ticket->slot)) break;
      }
    } catch (...) {
      first_error.record(frame, "write", std::current_exception());
      cancel_all();
    }
  });

  std::int64_t frame = 0;
  try {
    while (auto ticket = filled.pop()) {
      frame = ticket->frame;
      if (callbacks.should_stop && callbacks.should_stop()) throw Interrupted();
      callbacks.submit(*ticket);
      if (!submitted.push(*ticket)) break;
    }
    submitted.close();
  } catch (...) {
    first_error.record(frame, "gpu", std::current_exception());
    cancel_all();
  }
  reader.join();
  writer.join();
  if (first_error.failed()) first_error.rethrow();
  return {completed.load(), peak.load()};
}

}  // namespace tcfft::gpu
