#pragma once
// Shared by the fuzz targets: the input as text, and running a loaded scene a few steps without
// letting a legitimately large scene turn into a timeout.
#include <cstdint>
#include <string>

#include "core/limits.hpp"
#include "core/simulation.hpp"

namespace stepwise::fuzz {

// Also lowers the body limit: a scene of 2,000,000 legitimate bodies takes more than the
// fuzzer's seconds per input to build under the sanitizers (their realloc copies: arrays grown
// body by body cost the square of the count). At 5,000, 20,010 clumps took 5.5 s on an idle
// machine and timed out at 10 s on a busy one; none past 2,000 is stepped below anyway.
inline std::string text(const std::uint8_t* data, std::size_t size) {
  limits::max_bodies() = 2000;
  return std::string(reinterpret_cast<const char*>(data), size);
}

// A few steps, skipped for scenes too large to step within the fuzzer's time per input.
inline void run_briefly(Simulation& sim) {
  if (sim.world().size() > 2000) return;
  for (int k = 0; k < 5; ++k)
    if (sim.step()) return;  // went non-finite: reported, as a run would
  sim.energy();
}

}  // namespace stepwise::fuzz
