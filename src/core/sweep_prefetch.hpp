#pragma once
// For speed only (no number depends on it): the free-sphere sweep (sphere_sweep.cpp) asks the
// memory for a group of four spheres' rotation state some groups ahead of the one it steps.
// A group that spins or is under a torque reads and writes its quaternions, L, w and torques
// (and, marked, reads its drag loads); a group left alone reads none of them. Past the cache (a
// million grains landing: some 40% of the groups spinning, scattered among still ones) those
// arrays are read with gaps, the processor's own prefetchers do not follow them, and each such
// group waited on the memory for every one of its arrays in turn: 1M grains' steps 600-800
// cost 31 ns a body-step, three times 10k grains' 11 ns in the same phase.
#include <cstdint>

#include "core/lanes.hpp"
#include "core/sphere_sweep.hpp"
#include "core/world.hpp"

namespace stepwise::sweep_prefetch {

// Bodies ahead: about a memory latency of the sweep's work (16, 32 and 64 measured alike at 1M
// grains).
constexpr int kAhead = 64;

// The sweep's arrays a body: position, velocity, loads, masses, rotation state, drag loads.
constexpr long kBytesPerBody = 240;

// Whether a sweep over n bodies asks at all: where its arrays pass 16 MB (some 70,000 bodies).
// Below, they come from a cache and the asking is only work: 10k grains' first 800 steps took
// 1.05 of the time with it, 64,000 grains' 1.016; 125,000 grains' 0.92.
inline bool worth_asking(long n) {
  return n * kBytesPerBody > (long{16} << 20);
}

// Whether it also asks for every group's position, velocity and loads, which it reads in order:
// far past the cache the processor's own prefetchers fell behind them. The first 200 steps of
// settle stepped without free flight (2026-12-07, an Intel Xeon VM): 729,000 grains 0.79 of the
// time, 1,000,000 0.82 (first 800 steps 0.97, the landing alike); 262,144 and 512,000 alike and
// 97,336 1.02 (there the arrays sit in the last level), so from 128 MB (some 560,000 grains).
inline bool worth_asking_streams(long n) {
  return n * kBytesPerBody > (long{128} << 20);
}

// The cache lines of bytes [p, p + size), size 65 to 192.
[[gnu::always_inline]] inline void lines(const void* p, int size) {
  const char* c = static_cast<const char*>(p);
  lanes::prefetch(c);
  lanes::prefetch(c + 64);
  if (size > 128) lanes::prefetch(c + 128);
  lanes::prefetch(c + size - 1);
}

// Group first .. first + 3 (free spheres or not: a body the sweep hands to the rotation scheme
// reads the same arrays): its position, velocity and loads if asked (SphereSweep::ask_streams);
// its rotation state unless the marks the sweep will read for it say it is left alone
// (SphereSweep::left_still, as the sweep decides). Whether it asked for the rotation state.
[[gnu::always_inline]] inline bool ask(World& world, const SphereSweep& s, int first) {
  const std::uint32_t marked = s.four_marks(first);
  if (s.ask_streams) {
    lines(world.x.data() + 3 * first, 96);
    lines(world.v.data() + 3 * first, 96);
    lines(s.force + 3 * first, 96);
  }
  if (s.stills_known() && s.left_still(first, marked)) return false;
  lines(world.q[first].coeffs().data(), 128);
  lines(world.L.data() + 3 * first, 96);
  lines(world.w.data() + 3 * first, 96);
  lines(s.torque->data() + 3 * first, 96);
  if (s.drag_force && marked) {
    lines(s.drag_force + 3 * first, 96);
    lines(s.drag_torque + 3 * first, 96);
  }
  return true;
}

}  // namespace stepwise::sweep_prefetch
