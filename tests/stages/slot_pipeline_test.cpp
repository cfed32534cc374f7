// SPDX-License-Identifier: MIT
// The streaming executor's scheduling without a GPU: BoundedQueue, run_slots (order, bounded
// slots, first error wins with frame and phase, interrupt, no hang) and the profile timeline.
#include <tcfft/core/error.hpp>
#include <tcfft/gpu/slot_pipeline.hpp>
#include <tcfft/gpu/timeline.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace tcfft::gpu {
namespace {

TEST(BoundedQueue, FifoCloseDrainsCancelStops) {
  BoundedQueue<int> q(2);
  EXPECT_TRUE(q.push(1));
  EXPECT_TRUE(q.push(2));
  q.close();
  EXPECT_FALSE(q.push(3));
  EXPECT_EQ(q.pop().value(), 1);
  EXPECT_EQ(q.pop().value(), 2);
  EXPECT_FALSE(q.pop().has_value());

  BoundedQueue<int> c(1);
  EXPECT_TRUE(c.push(7));
  std::thread blocked([&] { EXPECT_FALSE(c.push(8)); });  // full: blocks until cancel
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  c.cancel();
  blocked.join();
  EXPECT_FALSE(c.pop().has_value());
}

/// A fake run: `frames` frames, each slot "holds" its frame number; random delays per phase.
struct FakeRun {
  int slots = 3;
  std::int64_t frames = 20;
  std::int64_t fail_read = -1;
  std::int64_t fail_submit = -1;
  std::int64_t fail_complete = -1;
  std::atomic<bool> stop{false};
  std::vector<std::int64_t> slot_frame;  // what each slot holds
  std::vector<std::int64_t> written;
  std::atomic<int> max_busy{0};
  std::atomic<int> busy{0};
  std::mutex mutex;

  SlotRunStats run() {
    slot_frame.assign(static_cast<std::size_t>(slots), -1);
    std::int64_t next = 0;
    auto const nap = [](unsigned seed) {
      std::this_thread::sleep_for(std::chrono::microseconds(seed % 300));
    };
    SlotCallbacks cb;
    cb.read = [&](SlotTicket& t) {
      if (next >= frames) return false;
      if (next == fail_read) throw IoError("read failed");
      nap(static_cast<unsigned>(next * 7919));
      int const now = ++busy;
      int seen = max_busy.load();
      while (now > seen && !max_busy.compare_exchange_weak(seen, now)) {
      }
      EXPECT_EQ(slot_frame[static_cast<std::size_t>(t.slot)], -1) << "slot reused while busy";
      slot_frame[static_cast<std::size_t>(t.slot)] = next;
      t.frame = next;
      t.first_row = 10 * next;
      t.rows = 10;
      ++next;
      return true;
    };
    cb.submit = [&](SlotTicket const& t) {
      if (t.frame == fail_submit) throw CudaError("launch failed");
      nap(static_cast<unsigned>(t.frame * 104729));
    };
    cb.complete = [&](SlotTicket const& t) {
      if (t.frame == fail_complete) throw IoError("write failed");
      nap(static_cast<unsigned>(t.frame * 15485863));
      EXPECT_EQ(slot_frame[static_cast<std::size_t>(t.slot)], t.frame);
      slot_frame[static_cast<std::size_t>(t.slot)] = -1;
      --busy;
      std::lock_guard lock(mutex);
      written.push_back(t.frame);
    };
    cb.should_stop = [&] { return stop.load(); };
    return run_slots(slots, cb);
  }
};

TEST(RunSlots, FramesCompleteInInputOrderWithBoundedSlots) {
  for (int slots : {1, 2, 3, 5}) {
    FakeRun run;
    run.slots = slots;
    run.frames = 40;  // many times the slot count
    auto const stats = run.run();
    EXPECT_EQ(stats.frames, 40);
    ASSERT_EQ(run.written.size(), 40u);
    for (std::int64_t i = 0; i < 40; ++i) EXPECT_EQ(run.written[static_cast<std::size_t>(i)], i);
    EXPECT_LE(stats.peak_in_use, slots);
    EXPECT_GE(stats.peak_in_use, 1);
    EXPECT_LE(run.max_busy.load(), slots);
  }
}

TEST(RunSlots, EmptyInputCompletesNothing) {
  FakeRun run;
  run.frames = 0;
  EXPECT_EQ(run.run().frames, 0);
  EXPECT_TRUE(run.written.empty());
}

TEST(RunSlots, FirstErrorStopsEveryThreadAndNamesFrameAndPhase) {
  struct Case {
    std::int64_t read, submit, complete;
    std::string phase;
    ExitCode code;
  };
  for (auto const& c : {Case{5, -1, -1, "frame 5 (read): read failed", ExitCode::kRuntime},
                        Case{-1, 7, -1, "frame 7 (gpu): launch failed", ExitCode::kRuntime},
                        Case{-1, -1, 3, "frame 3 (write): write failed", ExitCode::kRuntime}}) {
    FakeRun run;
    run.frames = 30;
    run.fail_read = c.read;
    run.fail_submit = c.submit;
    run.fail_complete = c.complete;
    try {
      run.run();
      ADD_FAILURE() << "no error for " << c.phase;
    } catch (Error const& e) {
      EXPECT_EQ(std::string(e.what()), c.phase);
      EXPECT_EQ(e.code(), c.code);
    }
    std::int64_t const limit = std::max({c.read, c.submit, c.complete});
    EXPECT_LE(static_cast<std::int64_t>(run.written.size()), limit);
    for (std::size_t i = 0; i < run.written.size(); ++i) {
      EXPECT_EQ(run.written[i], static_cast<std::int64_t>(i));
    }
  }
}

TEST(RunSlots, InputErrorsAndInterruptsKeepTheirType) {
  SlotCallbacks cb;
  std::int64_t next = 0;
  cb.read = [&](SlotTicket& t) {
    t.frame = next++;
    t.rows = 1;
    return next < 100;
  };
  cb.submit = [](SlotTicket const&) {};
  cb.complete = [](SlotTicket const& t) {
    if (t.frame == 2) throw InputError("file.h5:/x: sample [2] is NaN");
  };
  EXPECT_THROW(run_slots(2, cb), InputError);

  FakeRun run;
  run.frames = 1000000;
  run.stop = true;
  EXPECT_THROW(run.run(), Interrupted);
}

TEST(Timeline, BusyAndHiddenTimes) {
  // read [0,2] [2,4]; gpu [1,3] [3,5] overlaps reads; write [6,7] alone.
  std::vector<Interval> const iv{{0, 0, 2}, {0, 2, 4}, {1, 1, 3}, {1, 3, 5}, {2, 6, 7}};
  auto const s = summarize_timeline({"read", "gpu", "write"}, iv);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_DOUBLE_EQ(s[0].busy, 4.0);
  EXPECT_DOUBLE_EQ(s[0].hidden, 3.0);  // [1, 4]
  EXPECT_DOUBLE_EQ(s[1].busy, 4.0);
  EXPECT_DOUBLE_EQ(s[1].hidden, 3.0);
  EXPECT_DOUBLE_EQ(s[2].busy, 1.0);
  EXPECT_DOUBLE_EQ(s[2].hidden, 0.0);
  EXPECT_EQ(s[0].count, 2);
  EXPECT_DOUBLE_EQ(s[1].total, 4.0);
  auto const lines = format_timeline(s, 7.0);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_NE(lines[0].find("read"), std::string::npos);
  EXPECT_NE(lines[3].find("wall 7.0000 s"), std::string::npos);
}

TEST(Timeline, OverlapWithinOnePhaseIsNotHidden) {
  auto const s = summarize_timeline({"h2d", "d2h"}, {{0, 0, 2}, {0, 1, 3}, {1, 10, 11}});
  EXPECT_DOUBLE_EQ(s[0].busy, 3.0);
  EXPECT_DOUBLE_EQ(s[0].hidden, 0.0);
  EXPECT_DOUBLE_EQ(s[0].total, 4.0);
}

}  // namespace
}  // namespace tcfft::gpu
