#pragma once
// A lossless multi-producer queue between threads. Pushing never blocks for longer than a vector
// append; the consumer takes everything queued in one swap, so neither side waits for the other.
#include <mutex>
#include <vector>

namespace stepwise {

template <class T>
class MessageQueue {
 public:
  void push(T item) {
    std::lock_guard lock(mutex_);
    items_.push_back(std::move(item));
  }
  // Moves every queued item into `out` (cleared first), oldest first.
  void take_all(std::vector<T>& out) {
    out.clear();
    std::lock_guard lock(mutex_);
    out.swap(items_);
  }
  bool empty() const {
    std::lock_guard lock(mutex_);
    return items_.empty();
  }

 private:
  mutable std::mutex mutex_;
  std::vector<T> items_;
};

}  // namespace stepwise
