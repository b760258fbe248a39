#pragma once
// Small helpers shared by the physics tests.
#include <doctest/doctest.h>

#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/scene.hpp"
#include "core/simulation.hpp"

namespace stepwise::test {

// A wall at z = 0 facing up, as a contact model's [[force.wall]] table.
inline ParamTable floor_wall() {
  ParamTable wall;
  wall.set("point", std::vector<double>{0, 0, 0});
  wall.set("normal", std::vector<double>{0, 0, 1});
  return wall;
}

// The six walls of the box [0, box]^3 facing in, as [[force.wall]] tables: the planes at 0 (x,
// y, z) then at box.
inline std::vector<ParamTable> box_walls(double box) {
  std::vector<ParamTable> walls(6);
  for (int k = 0; k < 6; ++k) {
    std::vector<double> normal = {0, 0, 0}, point = {0, 0, 0};
    normal[k % 3] = k < 3 ? 1 : -1;
    point[k % 3] = k < 3 ? 0 : box;
    walls[k].set("point", point);
    walls[k].set("normal", normal);
  }
  return walls;
}

// The World's models of `kind` made again from their parameters with `key` set to `value`.
inline void set_model_text(World& world, const std::string& kind, const std::string& key,
                           const std::string& value) {
  for (auto& model : world.forces)
    if (model->kind() == kind) {
      ParamTable p;
      model->save(p);
      p.set(key, value);
      model = ForceRegistry::instance().make(kind, p);
    }
}

inline Simulation scene_simulation(const std::string& scene, const std::string& integrator, double dt,
                                   const std::map<std::string, ParamValue>& params = {},
                                   const std::string& rotation = "buss2") {
  SceneSetup setup = build_scene(scene, params);
  return Simulation(setup.world, dt, integrator, rotation);
}

// Two tasks run one after the other: two threads' ranges without threads (the runtime tests run
// the passes on a real pool).
class InTurn final : public Parallel {
 public:
  int threads() const override { return 2; }
  void run(int tasks, const std::function<void(int)>& fn) override {
    for (int t = 0; t < tasks; ++t) fn(t);
  }
};

// `steps` steps in one advance (each step's closing passes carried into the next one's sweep)
// or one step() at a time; the run must stay finite.
inline void take_steps(Simulation& sim, long steps, bool carried) {
  if (carried) {
    REQUIRE_FALSE(sim.advance(steps));
  } else {
    for (long s = 0; s < steps; ++s) REQUIRE_FALSE(sim.step());
  }
}

// Where a run ended, for runs that must agree bit for bit: the state and the ledger.
struct RunEnd {
  Positions x, v, L, w;
  std::vector<double> q;  // the orientations' coefficients
  EnergyReport energy;
};
inline RunEnd run_end(Simulation& sim) {
  RunEnd end{sim.world().x, sim.world().v, sim.world().L, sim.world().w, {}, sim.energy()};
  for (const Quat& o : sim.world().q)
    end.q.insert(end.q.end(), o.coeffs().data(), o.coeffs().data() + 4);
  return end;
}
// The same doubles, bit for bit: a -0 is not taken for a +0.
inline bool same_bits(const double* a, const double* b, long count) {
  return std::memcmp(a, b, sizeof(double) * count) == 0;
}
inline bool same_bits(const Positions& a, const Positions& b) {
  return a.cols() == b.cols() && same_bits(a.data(), b.data(), a.size());
}
inline void check_same(const RunEnd& a, const RunEnd& b) {
  CHECK(same_bits(a.x, b.x));
  CHECK(same_bits(a.v, b.v));
  CHECK(same_bits(a.L, b.L));
  CHECK(same_bits(a.w, b.w));
  CHECK((a.q.size() == b.q.size() && same_bits(a.q.data(), b.q.data(), long(a.q.size()))));
  CHECK(a.energy.total == b.energy.total);
  CHECK(a.energy.dissipated == b.energy.dissipated);
  CHECK(a.energy.external_work == b.energy.external_work);
  CHECK(a.energy.energy_error == b.energy.energy_error);
}

// Runs the bodies together (lane groups of four and a scalar tail) and each alone, `steps` steps
// of make(bodies) each, and calls check(alone, together, i) for body i: what the lanes compute
// must be what one body at a time computes.
template <class Make, class Check>
void check_each_alone_as_together(const std::vector<BodySpec>& specs, Make make, long steps,
                                  Check check) {
  Simulation together = make(specs);
  REQUIRE_FALSE(together.advance(steps));
  for (int i = 0; i < int(specs.size()); ++i) {
    Simulation alone = make(std::vector<BodySpec>{specs[i]});
    REQUIRE_FALSE(alone.advance(steps));
    INFO("body " << i);
    check(alone.world(), together.world(), i);
  }
}

}  // namespace stepwise::test
