#pragma once
// What the constraint tests (test_constraints.cpp, test_joints.cpp) share: a swing's period
// from its crossings, a constraint model's reported figure, the 90-degree pendulum's period.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/simulation.hpp"

namespace stepwise::test {

// Time between two successive downward crossings of coordinate `axis` of `body` through
// `level`, linearly interpolated; 0 if there were not two within max_steps.
inline double crossing_period(Simulation& sim, int body, int axis, double level, long max_steps) {
  std::vector<double> crossings;
  double before = sim.world().x(axis, body) - level;
  for (long s = 0; s < max_steps && crossings.size() < 2; ++s) {
    const double t0 = sim.time();
    REQUIRE_FALSE(sim.step());
    const double after = sim.world().x(axis, body) - level;
    if (before > 0 && after <= 0) crossings.push_back(t0 + sim.dt() * before / (before - after));
    before = after;
  }
  return crossings.size() == 2 ? crossings[1] - crossings[0] : 0.0;
}

inline double figure(const Simulation& sim, const std::string& name) {
  for (const auto& model : sim.world().forces) {
    std::vector<ForceModel::Figure> figures;
    model->figures(sim.world(), figures);
    for (const auto& f : figures)
      if (f.name == name) return f.value;
  }
  FAIL("no figure " << name);
  return 0;
}

inline const double kPeriod90 = 7.416298709205487;  // 4 K(sin² 45°): the 90° pendulum, in sqrt(L/g)

}  // namespace stepwise::test
