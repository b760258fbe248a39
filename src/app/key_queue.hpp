#pragma once
// Shortcut keys as GLFW reports them, queued between frames. ImGui 1.86 polls key state once a
// frame and repeats held keys itself, so on a slow frame a quick tap is lost (down and up before
// the frame looks) and a held key fires again and again. Here every press acts exactly once;
// only the keys listed as repeating (stepping) act again while held.
#include <vector>

namespace stepwise::cli {

class KeyQueue {
 public:
  explicit KeyQueue(std::vector<int> repeating = {}) : repeating_(std::move(repeating)) {}
  // From the GLFW key callback: action is GLFW_PRESS (1), GLFW_REPEAT (2) or GLFW_RELEASE (0).
  void on_key(int key, int action) {
    constexpr int kPress = 1, kRepeat = 2;
    if (action == kPress) pending_.push_back(key);
    if (action == kRepeat)
      for (int k : repeating_)
        if (k == key) pending_.push_back(key);
  }
  // The presses since the last call, in order.
  std::vector<int> take() {
    std::vector<int> out;
    out.swap(pending_);
    return out;
  }

 private:
  std::vector<int> repeating_;
  std::vector<int> pending_;
};

}  // namespace stepwise::cli
