#pragma once
// A seeded generator whose output is identical on every platform and standard library
// (std::normal_distribution is not), so runs are bit-reproducible.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/types.hpp"

namespace stepwise {

class Random {
 public:
  explicit Random(std::uint64_t seed = 1) { reseed(seed); }
  void reseed(std::uint64_t seed) {
    state_ = seed ^ 0x9E3779B97F4A7C15ull;
    has_spare_ = false;
    next();
  }
  // splitmix64
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // The exact generator state as text (64-bit integers do not survive a double).
  std::string save() const {
    char text[64];
    std::snprintf(text, sizeof text, "%016llx %d %a", static_cast<unsigned long long>(state_),
                  has_spare_ ? 1 : 0, spare_);
    return text;
  }
  bool load(const std::string& text) {  // false if the text is not a saved state
    unsigned long long state = 0;
    int spare = 0;
    double value = 0;
    if (std::sscanf(text.c_str(), "%llx %d %la", &state, &spare, &value) != 3) return false;
    state_ = state;
    has_spare_ = spare != 0;
    spare_ = value;
    return true;
  }
  double uniform() { return (next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u1 = 0;
    while (u1 <= 0) u1 = uniform();
    const double u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    spare_ = r * std::sin(2.0 * M_PI * u2);
    has_spare_ = true;
    return r * std::cos(2.0 * M_PI * u2);
  }
  std::uint64_t state() const { return state_; }

 private:
  std::uint64_t state_ = 0;
  bool has_spare_ = false;
  double spare_ = 0;
};

// A uniformly random orientation: a normalised 4-D Gaussian, its numbers drawn in a fixed order
// (the order of a call's arguments is the compiler's choice).
inline Quat random_orientation(Random& random) {
  const double w = random.normal(), x = random.normal(), y = random.normal(), z = random.normal();
  return Quat(w, x, y, z).normalized();
}

}  // namespace stepwise
