// The comparison views' analyses against what the theory says: reversibility of symmetric
// methods, and the amplification factor of each method on the test oscillator.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <utility>

#include "core/analysis.hpp"
#include "core/integrator.hpp"
#include "core/scene.hpp"

using namespace stepwise;

TEST_CASE("run, flip, run back: Verlet returns to round-off, RK4 and Euler do not") {
  const World kepler = build_scene("kepler", {{"e", ParamValue(0.5)}}).world;
  const double verlet = reversibility(kepler, 0.01, "velocity-verlet", "buss2", 1000).position_error;
  const double leapfrog = reversibility(kepler, 0.01, "leapfrog", "buss2", 1000).position_error;
  const double rk4 = reversibility(kepler, 0.01, "rk4", "buss2", 1000).position_error;
  const double euler = reversibility(kepler, 0.01, "euler", "buss2", 1000).position_error;
  MESSAGE("return error: verlet " << verlet << ", leapfrog " << leapfrog << ", rk4 " << rk4
                                  << ", euler " << euler);
  CHECK(verlet < 1e-10);
  CHECK(leapfrog < 1e-10);
  CHECK(rk4 > 1e3 * verlet);
  CHECK(euler > 1e6 * verlet);
  CHECK(euler > 1e3 * rk4);
}

TEST_CASE("an analysis that can be cancelled steps as one that cannot, bit for bit, until asked") {
  // The window's studies advance in chunks of about a million body-steps, reading a flag between
  // them (advance_unless); a granular 1,000 take chunks of 1,048 steps, so 2,500 steps are three.
  const SceneSetup settle = build_scene("settle", {{"n", ParamValue(1000.0)},
                                                   {"nx", ParamValue(10.0)},
                                                   {"ny", ParamValue(10.0)},
                                                   {"nz", ParamValue(10.0)}});
  const World& world = settle.world;
  const double dt = settle.dt;
  Simulation whole(world, dt, "velocity-verlet", "buss2"), chunked(world, dt, "velocity-verlet",
                                                                   "buss2");
  std::atomic<bool> cancel{false};
  CHECK_FALSE(whole.advance(2500));
  CHECK_FALSE(advance_unless(chunked, 2500, &cancel));
  CHECK(chunked.step_count() == 2500);
  CHECK(chunked.world().x == whole.world().x);
  CHECK(chunked.world().v == whole.world().v);
  CHECK(chunked.world().w == whole.world().w);
  cancel = true;
  CHECK_THROWS_AS(advance_unless(chunked, 2500, &cancel), Cancelled);
  CHECK(chunked.step_count() == 2500);
}

TEST_CASE("amplitude growth per step matches each method's amplification factor") {
  for (double h : {0.1, 0.5, 1.0, 1.8}) {
    CAPTURE(h);
    // Explicit Euler: |1 + i h| = sqrt(1 + h^2); implicit Euler: 1 / sqrt(1 + h^2).
    CHECK(growth_per_step("euler", h, 256) == doctest::Approx(std::sqrt(1 + h * h)).epsilon(1e-9));
    CHECK(growth_per_step("implicit-euler", h, 256) ==
          doctest::Approx(1 / std::sqrt(1 + h * h)).epsilon(1e-6));
    // Central differences and the trapezoidal rule are neutral. Verlet's amplitude wanders on
    // its modified-energy ellipse by up to 1/sqrt(1 - h^2/4): over 256 steps, under 4e-3.
    CHECK(std::abs(growth_per_step("velocity-verlet", h, 256) - 1) < 4e-3);
    CHECK(std::abs(growth_per_step("newmark", h, 256) - 1) < 1e-6);
  }
  // Beyond omega dt = 2 central differences blow up; Newmark's average acceleration does not.
  CHECK(growth_per_step("velocity-verlet", 2.1, 256) > 1.3);
  CHECK(growth_per_step("leapfrog", 2.1, 256) > 1.3);
  CHECK(std::abs(growth_per_step("newmark", 3.0, 256) - 1) < 1e-6);
  // RK4's amplification factor |1 - h^2/2 + h^4/24| on the imaginary axis... with the h^3 terms:
  // |R(ih)|^2 = 1 - h^6/72 + h^8/576.
  const double h = 1.0;
  CHECK(growth_per_step("rk4", h, 256) ==
        doctest::Approx(std::sqrt(1 - std::pow(h, 6) / 72 + std::pow(h, 8) / 576)).epsilon(1e-9));
}

TEST_CASE("the stiffest link is the one that sets the critical time step") {
  World world;
  for (int i = 0; i < 4; ++i) {
    BodySpec b;
    b.position = Vec3(i, 0, 0);
    b.mass = i == 2 ? 0.1 : 1.0;  // a light body: its links are the fastest
    world.add_body(b);
  }
  std::vector<ParamTable> links;
  for (int i = 0; i < 3; ++i) {
    ParamTable link;
    link.set("a", double(i));
    link.set("b", double(i + 1));
    link.set("k", i == 0 ? 50.0 : 10.0);
    link.set("rest", 1.0);
    links.push_back(link);
  }
  ParamTable spring;
  spring.set("link", links);
  world.add_force(ForceRegistry::instance().make("spring", spring));
  Simulation sim(world, 0.01);
  // omega^2 = k (1/m_a + 1/m_b): link 0-1 gives 100, links 1-2 and 2-3 give 110.
  const Simulation::Stiffest stiffest = sim.stiffest();
  CHECK(stiffest.i == 1);
  CHECK(stiffest.j == 2);
  CHECK(stiffest.omega == doctest::Approx(std::sqrt(110.0)));
  CHECK(sim.max_frequency() == stiffest.omega);
}

namespace {

// The omega dt where a method's measured amplitude growth first exceeds 5% per step (bisection
// between a stable and an unstable omega dt), or 0 / infinity if it grows everywhere / nowhere.
double measured_limit(const std::string& name, const ParamTable& options = ParamTable()) {
  auto grows = [&](double h) { return growth_per_step(name, h, 256, options) > 1.05; };
  if (grows(0.05)) return 0;
  if (!grows(50)) return std::numeric_limits<double>::infinity();
  double low = 0.05, high = 50;
  while (high - low > 1e-4 * high) {
    const double mid = 0.5 * (low + high);
    (grows(mid) ? high : low) = mid;
  }
  return high;
}

}  // namespace

TEST_CASE("each method's stated stability limit is where its amplitude starts to grow") {
  for (const std::string& name : IntegratorRegistry::instance().names()) {
    CAPTURE(name);
    const double stated = IntegratorRegistry::instance().make(name)->stability_limit();
    if (stated == 0) {  // grows at any step (adaptive around euler only slowly)
      CHECK(growth_per_step(name, 1.0, 256) > 1 + 1e-4);
      CHECK(growth_per_step(name, 0.3, 256) > 1.0);
    } else if (std::isinf(stated)) {
      for (double h : {0.5, 3.0, 30.0, 300.0}) CHECK(growth_per_step(name, h, 256) <= 1 + 1e-6);
    } else {
      CHECK(measured_limit(name) == doctest::Approx(stated).epsilon(0.02));
    }
  }
  // Newmark's limit follows its options: Fox-Goodwin (beta 1/12) at sqrt(6), beta 0.05 at
  // 1/sqrt(0.2); gamma below 1/2 grows at any step.
  for (const auto& options_pair :
       {std::pair{1.0 / 12, 0.5}, std::pair{0.05, 0.5}, std::pair{0.1, 0.4}}) {
    const double beta = options_pair.first, gamma = options_pair.second;  // clang 14 (the
    CAPTURE(beta);  // sanitized build) cannot capture a structured binding in CAPTURE's lambda
    ParamTable options;
    options.set("beta", beta);
    options.set("gamma", gamma);
    auto newmark = IntegratorRegistry::instance().make("newmark");
    newmark->set_option("beta", beta);
    newmark->set_option("gamma", gamma);
    const double stated = newmark->stability_limit();
    if (stated == 0)
      CHECK(growth_per_step("newmark", 1.0, 256, options) > 1.0);
    else
      CHECK(measured_limit("newmark", options) == doctest::Approx(stated).epsilon(0.02));
  }
}
