#include <doctest/doctest.h>

#include "core/integrator.hpp"
#include "core/rotation_scheme.hpp"
#include "core/scene.hpp"
#include "core/world.hpp"

using namespace stepwise;

TEST_CASE("every expected plug-in is registered") {
  for (const char* name : {"euler", "symplectic-euler", "leapfrog", "velocity-verlet", "midpoint",
                           "rk4", "adaptive", "newmark", "implicit-euler", "baoab"})
    CHECK_MESSAGE(IntegratorRegistry::instance().contains(name), std::string(name));
  for (const char* name : {"euler", "wang-leapfrog", "buss2", "rk4", "splitting"})
    CHECK_MESSAGE(RotationRegistry::instance().contains(name), std::string(name));
  for (const char* name : {"gravity", "linear-drag", "quadratic-drag", "spring", "central",
                           "point-force", "mouse-spring", "bond-finite", "bond-incremental", "hooke",
                           "soft", "wca", "active", "hertz"})
    CHECK_MESSAGE(ForceRegistry::instance().contains(name), std::string(name));
  for (const char* name : {"oscillator", "kepler", "spring-chain", "spring-pendulum", "top",
                           "symmetric-top", "heavy-top", "spinning-spheres", "cube-chain", "cantilever", "impact",
                           "incline", "settle",
                           "active-brownian", "newtons-cradle", "column-collapse", "dice", "box-stack",
                           "clumps", "box-incline", "rocking-block"})
    CHECK_MESSAGE(SceneRegistry::instance().contains(name), std::string(name));
}
