#pragma once
// Refusing, before a run allocates its contact structures, a World this machine cannot hold
// (the command line's load, with --force to go on, and the window's), and the window's copies of
// a run (comparison runs, the reference run, studies, history checkpoints) that would not fit.
#include <optional>
#include <string>

#include "core/world.hpp"

namespace stepwise {

// What a body is taken to cost, a run or a copy of one (1,000,000 spheres of the granular
// benchmark peak at 0.9 kB a body; the margin for denser packings and other shapes).
constexpr double kBytesPerBody = 2048;

// Bytes this process may still take: MemAvailable, or less under `ulimit -v`; 0 if unknown.
double available_memory();
// What available_memory() answers instead when above 0 (tests: a machine nearly full).
inline double& assumed_available_memory() {
  static double bytes = 0;
  return bytes;
}

// InputError naming the estimate and what is available, unless it fits or `force`.
void check_memory(const World& world, bool force);
// The same for a copy of a running World (`what`: "a comparison run"), in the window's words:
// the message, or nothing when it fits; check_copy_memory throws it.
std::optional<std::string> copy_refusal(const World& world, const std::string& what);
void check_copy_memory(const World& world, const std::string& what);

}  // namespace stepwise
