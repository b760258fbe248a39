#pragma once
// What the runtime tests (test_runtime*.cpp) share: waiting for the worker thread.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "runtime/physics_worker.hpp"

namespace stepwise::test {

// Polls the worker (running in its thread) until `done` holds for the newest snapshot.
template <class Predicate>
inline const Snapshot& wait_for(PhysicsWorker& worker, Predicate done, double seconds = 20) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    worker.acquire_snapshot();
    if (done(worker.snapshot())) return worker.snapshot();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  FAIL("timed out waiting for the worker");
  return worker.snapshot();
}

}  // namespace stepwise::test
