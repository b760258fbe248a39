#pragma once
// Refusing, before a run allocates its contact structures, a World this machine cannot hold
// (the command line's load, with --force to go on, and the window's).
#include "core/world.hpp"

namespace stepwise {

// InputError naming the estimate and what is available, unless it fits or `force`.
void check_memory(const World& world, bool force);

}  // namespace stepwise
