#include "runtime/memory_check.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>

namespace stepwise {
namespace {

// Bytes this process may still take: MemAvailable, or less under `ulimit -v`; 0 if unknown.
double available_memory() {
  double available = 0;
  if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    double kb = 0;
    while (std::fgets(line, sizeof line, f))
      if (std::sscanf(line, "MemAvailable: %lf kB", &kb) == 1) available = kb * 1024;
    std::fclose(f);
  }
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const double room =
        double(limit.rlim_cur) * 0.9;  // the program and its libraries live there too
    available = available > 0 ? std::min(available, room) : room;
  }
  return available;
}

}  // namespace

// Refuses, before the run allocates its contact structures, a World this machine cannot hold:
// 1,000,000 spheres of the granular benchmark peak at 0.9 GB (about 0.9 kB a body), so 2 kB a
// body plus 64 MB is asked for, a margin for denser packings and other shapes.
void check_memory(const World& world, bool force) {
  const double need = 64e6 + 2048.0 * world.size();
  const double available = available_memory();
  if (force || available <= 0 || need <= available) return;
  char message[320];
  std::snprintf(message, sizeof message,
                "this scene needs about %.2g GB (%d bodies, about 2 kB each) and %.2g GB is "
                "available; fewer bodies, or run it with --force to try anyway",
                need / 1e9, world.size(), available / 1e9);
  throw InputError(message);
}

}  // namespace stepwise
