#include "runtime/memory_check.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <utility>

namespace stepwise {

double available_memory() {
  if (assumed_available_memory() > 0) return assumed_available_memory();
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

namespace {

// What a World of this size needs (64 MB + kBytesPerBody a body) and what is available, when
// it needs more; nothing when it fits or what is available is not known.
std::optional<std::pair<double, double>> shortfall(const World& world) {
  const double need = 64e6 + kBytesPerBody * world.size();
  const double available = available_memory();
  if (available <= 0 || need <= available) return std::nullopt;
  return std::pair{need, available};
}

}  // namespace

// Refuses, before the run allocates its contact structures, a World this machine cannot hold.
void check_memory(const World& world, bool force) {
  const auto short_by = force ? std::nullopt : shortfall(world);
  if (!short_by) return;
  char message[320];
  std::snprintf(message, sizeof message,
                "this scene needs about %.2g GB (%d bodies, about 2 kB each) and %.2g GB is "
                "available; fewer bodies, or run it with --force to try anyway",
                short_by->first / 1e9, world.size(), short_by->second / 1e9);
  throw InputError(message);
}

std::optional<std::string> copy_refusal(const World& world, const std::string& what) {
  const auto short_by = shortfall(world);
  if (!short_by) return std::nullopt;
  char message[320];
  std::snprintf(message, sizeof message,
                "%s of this scene would need about %.2g GB (%d bodies, about 2 kB each) and "
                "%.2g GB is available",
                what.c_str(), short_by->first / 1e9, world.size(), short_by->second / 1e9);
  return std::string(message);
}

// On Linux a copy that does not fit is not a bad_alloc but the kernel ending the program (memory
// is overcommitted): so it is refused here, before it is made.
void check_copy_memory(const World& world, const std::string& what) {
  if (auto refusal = copy_refusal(world, what)) throw InputError(*refusal);
}

}  // namespace stepwise
