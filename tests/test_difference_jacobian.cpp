// Jacobians by differences for the implicit integrators: bodies that share no pair perturbed
// together give the Jacobian taken body by body, at a cost that grows as n, not n^2.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <utility>

#include "core/difference_jacobian.hpp"
#include "core/limits.hpp"
#include "core/random.hpp"
#include "test_support.hpp"

using namespace stepwise;
using stepwise::test::scene_simulation;

namespace {

// Springs between bodies 2k and 2k + 1, their pairs named or not (then any body's load may
// depend on any other's).
class PairedSprings final : public ForceModel {
 public:
  explicit PairedSprings(bool named) : named_(named) {}
  std::string kind() const override { return named_ ? "named" : "unnamed"; }
  std::unique_ptr<ForceModel> clone() const override {
    return std::make_unique<PairedSprings>(*this);
  }
  void apply(const StateView& s, ForceSums& out, const EvalContext&) override {
    for (int i = 0; i + 1 < s.world.size(); i += 2) {
      const Vec3 f = 3.0 * (s.x.col(i + 1) - s.x.col(i));
      out.force.col(i) += f;
      out.force.col(i + 1) -= f;
    }
  }
  bool coupled_pairs(const StateView& s, std::vector<std::pair<int, int>>& out) const override {
    for (int i = 0; named_ && i + 1 < s.world.size(); i += 2) out.emplace_back(i, i + 1);
    return named_;
  }
  void save(ParamTable&) const override {}

 private:
  bool named_;
};

std::map<std::string, ParamValue> lattice(double side) {
  return {{"n", side * side * side}, {"nx", side}, {"ny", side}, {"nz", side}};
}

}  // namespace

TEST_CASE("contact models couple only the listed pairs that overlap or nearly") {
  // Spheres of radius 0.5 near x = 12, where a difference step is 1.2e-5: 0 and 1 overlap by
  // 1e-3; 1 and 2 are 2e-5 apart, which two steps close; 2 and 3 are 0.05 apart, listed (the
  // skin is 0.2) but out of the steps' reach; 3 and 4 are 5e-5 apart, within kCoupledReach (4e-6)
  // times their largest coordinate (13.05).
  for (const std::string kind : {"hooke", "wca", "soft"}) {
    CAPTURE(kind);
    World world;
    for (const Vec3& at : {Vec3(10, 0, 0), Vec3(10.999, 0, 0), Vec3(11.99902, 0, 0),
                           Vec3(13.04902, 0, 0), Vec3(13.04902, 1.00005, 0)}) {
      BodySpec b;
      b.position = at;
      b.radius = 0.5;
      world.add_body(b);
    }
    ParamTable p;
    p.set("skin", 0.2);
    world.add_force(ForceRegistry::instance().make(kind, p));
    Simulation sim(world, 1e-9);
    REQUIRE_FALSE(sim.step());  // (the list built; the bodies moved by less than 1e-12)
    ForceModel& model = *sim.world().forces.back();
    const StateView s{sim.world(), sim.world().x, sim.world().v, sim.world().w};
    std::vector<std::pair<int, int>> pairs;
    REQUIRE(model.coupled_pairs(s, pairs));
    std::sort(pairs.begin(), pairs.end());
    CHECK(pairs == std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {3, 4}});
  }
}

TEST_CASE("groups for differences: no row sees two bodies of a group, every moving body once") {
  Random random(11);
  const int n = 400;
  VecX inv_mass = VecX::Ones(n);
  for (int b = 0; b < n; b += 37) inv_mass(b) = 0;  // fixed: never perturbed
  std::vector<std::pair<int, int>> pairs;
  std::vector<int> degree(n, 0);
  for (int k = 0; k < 1200; ++k) {
    const int i = int(random.uniform(0, n)), j = int(random.uniform(0, n));
    pairs.emplace_back(i, j);
    if (i != j) ++degree[i], ++degree[j];
  }
  const DifferenceGroups g = difference_groups(inv_mass, &pairs);
  REQUIRE_FALSE(g.all_rows);
  std::vector<int> group_of(n, -1);
  for (size_t k = 0; k < g.groups.size(); ++k)
    for (int b : g.groups[k]) {
      CHECK(group_of[b] == -1);
      group_of[b] = int(k);
    }
  for (int b = 0; b < n; ++b) CHECK((group_of[b] >= 0) == (inv_mass(b) > 0));
  // Row r reads the bodies it is paired with and itself: at most one of each group.
  for (int r = 0; r < n; ++r) {
    std::map<int, int> seen;
    for (int b : g.rows[r])
      if (group_of[b] >= 0) CHECK(++seen[group_of[b]] == 1);
    for (const auto& [i, j] : pairs)
      if (i == r || j == r)
        CHECK(std::count(g.rows[r].begin(), g.rows[r].end(), i == r ? j : i) == 1);
  }
  const int most = *std::max_element(degree.begin(), degree.end());
  CHECK(int(g.groups.size()) <= most * most + 1);
  CHECK(int(g.groups.size()) < n / 4);
  // Without pairs: each moving body alone.
  CHECK(difference_groups(inv_mass, nullptr).groups.size() ==
        size_t((inv_mass.array() > 0).count()));
}

TEST_CASE("a touching packing's contact Jacobian by groups equals the one taken body by body") {
  // Each stepped until its bodies touch; the contact model names its neighbour list's pairs.
  struct Case {
    std::string scene;
    std::map<std::string, ParamValue> params;
    int contacts;  // stepped until at least these touch
  };
  std::map<std::string, ParamValue> close = lattice(7);  // 343 spheres, touching sooner
  close["spacing"] = 1.05;
  const std::vector<Case> cases = {
      {"settle", close, 400}, {"clumps", {{"n", 60.0}}, 100}, {"disk-settle", {{"n", 200.0}}, 200}};
  for (const Case& c : cases) {
    CAPTURE(c.scene);
    SceneSetup setup = build_scene(c.scene, c.params);
    Simulation sim(setup.world, setup.dt, "velocity-verlet");
    for (int k = 0; k < 20000 && sim.energy().contacts < c.contacts; ++k) REQUIRE_FALSE(sim.step());
    REQUIRE(sim.energy().contacts >= c.contacts);
    World& world = sim.world();
    const int n = world.size();
    SparseMatrix K, C;
    Dynamics(sim, sim.time(), sim.dt()).jacobians(world.x, world.v, sim.time(), K, C);

    Triplets tx, tv;
    const EvalContext ctx{sim.time(), sim.dt(), false, nullptr};
    for (auto& model : world.forces) {
      if (model->jacobian({world, world.x, world.v, world.w}, tx, tv)) continue;  // (gravity)
      std::vector<std::pair<int, int>> pairs;
      REQUIRE(model->coupled_pairs({world, world.x, world.v, world.w}, pairs));
      const size_t groups = difference_groups(world.inv_mass, &pairs).groups.size();
      INFO(model->kind() << ": " << groups << " groups for " << n << " bodies");
      CHECK(groups * 3 < size_t(n));
      difference_jacobian(*model, world, world.x, world.v, ctx, kDragWork | kExternalWork,
                          difference_groups(world.inv_mass, nullptr), tx, tv);
    }
    SparseMatrix K1(3 * n, 3 * n), C1(3 * n, 3 * n);
    K1.setFromTriplets(tx.begin(), tx.end());
    C1.setFromTriplets(tv.begin(), tv.end());
    const double k_scale = Eigen::MatrixXd(K1).cwiseAbs().maxCoeff();
    const double c_scale = Eigen::MatrixXd(C1).cwiseAbs().maxCoeff();
    CHECK(k_scale > 1e3);  // contacts' stiffness, not round-off
    CHECK(Eigen::MatrixXd(K - K1).cwiseAbs().maxCoeff() <= 1e-9 * k_scale);
    CHECK(Eigen::MatrixXd(C - C1).cwiseAbs().maxCoeff() <= 1e-9 * c_scale);
    CHECK(K.nonZeros() > 9 * n / 2);  // off-diagonal blocks: pairs in contact
  }
}

TEST_CASE("implicit methods step a settling packing past 2,000 spheres") {
  // Body by body the contacts' Jacobian took 12 n evaluations a Newton iteration and was refused
  // past 2,000 bodies; grouped it takes a few dozen groups.
  std::map<std::string, ParamValue> close = lattice(13);  // 2,197 spheres, touching sooner
  close["spacing"] = 1.05;
  Simulation sim = scene_simulation("settle", "velocity-verlet", 1e-4, close);
  while (sim.energy().contacts < 100) REQUIRE_FALSE(sim.step());
  for (const std::string method : {"newmark", "implicit-euler"}) {
    std::unique_ptr<Simulation> run = Simulation::make_run(sim.copy());
    run->set_integrator(method);
    // One Jacobian a step, reused to convergence (Newton rebuilding it at each iterate: two).
    int most_matrices = 0, matrices = 0, iterated = 0;
    for (int k = 0; k < 5; ++k) {
      REQUIRE_FALSE(run->step());
      const IntegratorStats stats = run->integrator().stats();
      most_matrices = std::max(most_matrices, stats.newton_matrices);
      matrices += stats.newton_matrices, iterated += stats.newton_iterated;
    }
    CHECK(most_matrices == 1);
    // At the packing's step the masses outweigh h^2 k and h c: every matrix diagonally
    // dominant, solved by iteration instead of a sparse LU.
    CHECK(matrices >= 4);
    CHECK(iterated == matrices);
    CHECK(run->integrator().stats().newton_residual < 1e-10);
    CHECK(run->energy().contacts >= 50);  // (still a packing in contact)
  }
}

TEST_CASE("a Jacobian by differences is refused past its stated work and bodies, named") {
  // 12 n evaluations of an n-body model a Newton iteration: 8,000 settling spheres took minutes
  // a step, the window's commands waiting on it (found by the commands fuzz target); grouped,
  // the Newton matrix's sparse LU still grows faster than n.
  auto refusal = [](int n, bool named) {
    World world;
    for (int i = 0; i < n; ++i) {
      BodySpec b;
      b.position = Vec3(i, 0, 0);
      world.add_body(b);
    }
    world.add_force(std::make_unique<PairedSprings>(named));
    Simulation sim(world, 0.01, "newmark");
    try {
      (void)sim.step();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no refusal");
  };
  CHECK(refusal(2001, false) ==
        "newmark: its Jacobian of 'unnamed' is taken by differences, 2001 bodies one by one "
        "perturbed in turn, each evaluating all 2001: at most 4000000 body evaluations a Newton "
        "iteration (this run needs 4004001); use an explicit method");
  CHECK(refusal(2001, true) == "no refusal");  // (two groups)
  CHECK(limits::max_differenced_bodies() == 100000);
  const int bodies = std::exchange(limits::max_differenced_bodies(), 2000);  // (quick to build)
  CHECK(refusal(2001, true) ==
        "newmark: its Jacobian of 'named' is taken by differences and its Newton matrix, where "
        "not diagonally dominant, solved by sparse LU: at most 2000 bodies (this run has 2001); "
        "use an explicit method");
  limits::max_differenced_bodies() = bodies;
}

TEST_CASE("the mouse spring's analytic Jacobian is its Jacobian by differences") {
  World world;
  for (int i = 0; i < 3; ++i) {
    BodySpec b;
    b.mass = 1.5 + i;
    b.position = Vec3(i, 0.3 * i, -0.2);
    b.velocity = Vec3(0.1, -0.4 * i, 0.7);
    world.add_body(b);
  }
  ParamTable pull;
  pull.set("body", 1.0);
  pull.set("target", std::vector<double>{2.0, -1.0, 0.5});
  pull.set("k", 40.0);
  pull.set("zeta", 0.7);
  world.add_force(ForceRegistry::instance().make("mouse-spring", pull));
  ForceModel& spring = *world.forces.back();
  Triplets ax, av, dx, dv;
  REQUIRE(spring.jacobian({world, world.x, world.v, world.w}, ax, av));
  difference_jacobian(spring, world, world.x, world.v, EvalContext{}, kExternalWork,
                      difference_groups(world.inv_mass, nullptr), dx, dv);
  auto matrix = [](const Triplets& t) {
    SparseMatrix m(9, 9);
    m.setFromTriplets(t.begin(), t.end());
    return Eigen::MatrixXd(m);
  };
  CHECK((matrix(ax) - matrix(dx)).cwiseAbs().maxCoeff() < 1e-7);
  CHECK((matrix(av) - matrix(dv)).cwiseAbs().maxCoeff() < 1e-7);
  CHECK(matrix(ax)(3, 3) == -40.0);  // (body 1's x row and column)
  CHECK(matrix(av)(4, 4) == doctest::Approx(-2 * 0.7 * std::sqrt(40.0 * 2.5)));
}
