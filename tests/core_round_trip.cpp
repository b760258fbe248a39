// How long a cache line takes to go from one core to another and back: two threads, pinned to
// the first two cores this process may use, hand a counter to each other. Printed by the
// benchmark suite beside its two-thread rows, because a virtual machine's two cores are not
// always close: on the 2-core Intel machine the round trip was 80-120 ns in some periods and
// 360-420 ns in others (2026-11-29), and two threads that share rows every step run 20-28% slower
// in the slow ones. Usage: core_round_trip [TRIPS] (default 500000); prints
// core_round_trip_ns=<mean>, or core_round_trip_ns=- where there are fewer than two cores.
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace {

bool pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  long trips = 500000;
  if (argc > 2) {
    std::fprintf(stderr, "core_round_trip: at most one argument, TRIPS\n");
    return 2;
  }
  if (argc == 2) {
    char* end = nullptr;
    trips = std::strtol(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || trips < 1 || trips > 100000000) {
      std::fprintf(stderr,
                   "core_round_trip: TRIPS must be a whole number from 1 to 1e8, not '%s'\n",
                   argv[1]);
      return 2;
    }
  }
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  int cpus[2], found = 0;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
    for (int c = 0; c < CPU_SETSIZE && found < 2; ++c)
      if (CPU_ISSET(c, &allowed)) cpus[found++] = c;
  if (found < 2) {
    std::printf("core_round_trip_ns=-\n");
    return 0;
  }
  // The counter alone on its line: odd values are the main thread's, even ones the other's.
  alignas(64) static std::atomic<long> counter{0};
  std::thread other([&] {
    pin(cpus[1]);
    for (long i = 0; i < trips; ++i) {
      while (counter.load(std::memory_order_acquire) != 2 * i + 1) {
      }
      counter.store(2 * i + 2, std::memory_order_release);
    }
  });
  pin(cpus[0]);
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < trips; ++i) {
    counter.store(2 * i + 1, std::memory_order_release);
    while (counter.load(std::memory_order_acquire) != 2 * i + 2) {
    }
  }
  const auto stop = std::chrono::steady_clock::now();
  other.join();
  std::printf("core_round_trip_ns=%.0f\n",
              std::chrono::duration<double, std::nano>(stop - start).count() / double(trips));
  return 0;
}
