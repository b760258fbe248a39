// The energy plot's columns: the error since the last switch starts from zero at each switch,
// so a method run after explicit Euler shows its own error, not Euler's level.
#include <doctest/doctest.h>

#include "ui/energy_history.hpp"

using namespace stepwise;

namespace {

EnergySample sample(double t, double error, const std::string& marker = {}) {
  EnergySample s;
  s.scene_generation = 1;
  s.time = t;
  s.error = s.error_min = s.error_max = error;
  s.marker = marker;
  return s;
}

}  // namespace

TEST_CASE("the error since the last switch is re-based at each switch, and after a rewind") {
  EnergyHistory h;
  h.add({sample(0, 0), sample(1, 0.5), sample(2, 1.0, "integrator rk4"), sample(3, 1.0 + 1e-6)});
  REQUIRE(h.size() == 4);
  CHECK(h.error.back() == 1.0 + 1e-6);  // since the start: Euler's level
  CHECK(h.since_switch.back() == doctest::Approx(1e-6).epsilon(1e-6));  // rk4's own
  CHECK(h.since_switch[1] == 0.5);  // before any switch the two agree
  // Back to t = 1.5 (history scrub): the switch at t = 2 is gone, the base with it.
  h.add({sample(1.5, 0.6)});
  CHECK(h.since_switch.back() == 0.6);
  h.add({sample(1.6, 0.6, "dt 0.005"), sample(1.7, 0.61)});
  CHECK(h.since_switch.back() == doctest::Approx(0.01));
}

TEST_CASE("a new comparison run in a slot starts its own curve, never spliced onto the old one") {
  EnergyHistory h;
  auto run_sample = [](double t, double error, std::uint64_t id) {
    EnergySample s = sample(t, error);
    s.run = 1;
    s.run_id = id;
    return s;
  };
  h.add({sample(0, 0), run_sample(0, 0, 5), run_sample(1, 0.3, 5)});
  REQUIRE(h.comparisons.size() == 1);
  CHECK(h.comparisons[0].time.size() == 2);
  // Run 5 ended (a step back); the old future came in as run 1 with a new id.
  h.add({run_sample(0.5, 0, 7), run_sample(0.6, 1e-3, 7)});
  CHECK(h.comparisons[0].id == 7);
  CHECK(h.comparisons[0].time == std::vector<double>{0.5, 0.6});
  CHECK(h.comparisons[0].error == std::vector<double>{0, 1e-3});
}
