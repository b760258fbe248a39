#pragma once
// One writer, one reader, no tearing and no waiting: the writer fills its private slot and swaps
// it with the shared middle slot; the reader swaps the middle slot for its own when it is newer.
#include <atomic>
#include <cstdint>

namespace stepwise {

template <class T>
class TripleBuffer {
 public:
  // Writer side: fill write_slot(), then publish().
  T& write_slot() { return slots_[write_]; }
  void publish() {
    const std::uint8_t previous = middle_.exchange(write_ | kFresh, std::memory_order_acq_rel);
    write_ = previous & kIndex;
  }

  // Reader side: returns true if a newer value was taken into read_slot().
  bool acquire() {
    if (!(middle_.load(std::memory_order_acquire) & kFresh)) return false;
    const std::uint8_t previous = middle_.exchange(read_, std::memory_order_acq_rel);
    read_ = previous & kIndex;
    return true;
  }
  const T& read_slot() const { return slots_[read_]; }

 private:
  static constexpr std::uint8_t kIndex = 3, kFresh = 4;
  T slots_[3];
  std::uint8_t write_ = 0, read_ = 2;
  std::atomic<std::uint8_t> middle_{1};
};

}  // namespace stepwise
