// Shortcut presses between two frames: each acts once, however slow the frame.
#include <doctest/doctest.h>

#include "app/key_queue.hpp"

using stepwise::cli::KeyQueue;

TEST_CASE("a tap within one slow frame acts once; a held key does not repeat unless it steps") {
  constexpr int kSpace = 32, kRight = 262, kPress = 1, kRepeat = 2, kRelease = 0;
  KeyQueue keys({kRight});
  // Down and up before the frame looks (ImGui 1.86's polling saw nothing): still one press.
  keys.on_key(kSpace, kPress);
  keys.on_key(kSpace, kRelease);
  CHECK(keys.take() == std::vector<int>{kSpace});
  CHECK(keys.take().empty());
  // Held across a slow frame: the system's repeats do not run/pause it again and again.
  keys.on_key(kSpace, kPress);
  for (int k = 0; k < 5; ++k) keys.on_key(kSpace, kRepeat);
  keys.on_key(kSpace, kRelease);
  CHECK(keys.take() == std::vector<int>{kSpace});
  // Two quick taps are two presses, in order with the others.
  keys.on_key(kSpace, kPress);
  keys.on_key(kSpace, kRelease);
  keys.on_key(kRight, kPress);
  keys.on_key(kRight, kRepeat);  // → held: one step per repeat
  keys.on_key(kSpace, kPress);
  CHECK(keys.take() == std::vector<int>{kSpace, kRight, kRight, kSpace});
}
