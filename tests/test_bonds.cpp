// Bonded rigid bodies (Wang 2008): the sequence-independent decomposition, invariance under rigid
// rotation, momentum conservation, torques at large combined rotations and quasi-static twist.
#include <doctest/doctest.h>

#include <cmath>

#include "core/bonds/bond_common.hpp"
#include "core/quaternion.hpp"
#include "test_support.hpp"

using namespace stepwise;
using stepwise::test::scene_simulation;

namespace {

Quat bend(double theta, double phi) {  // tilt z by theta towards (cos phi, sin phi, 0)
  return quat::from_axis_angle(Vec3(-std::sin(phi), std::cos(phi), 0), theta);
}
Quat twist(double psi) { return quat::from_axis_angle(Vec3::UnitZ(), psi); }

const BondModel& bond_model(const Simulation& sim) {
  for (const auto& f : sim.world().forces)
    if (auto model = dynamic_cast<const BondModel*>(f.get())) return *model;
  throw std::logic_error("no bond model");
}

}  // namespace

TEST_CASE("bend-then-twist and twist-then-bend give the same psi, theta, phi to 1e-12") {
  Random random(7);
  for (int trial = 0; trial < 200; ++trial) {
    const double theta = random.uniform(0.0, 3.0), phi = random.uniform(-3.1, 3.1);
    const double psi = random.uniform(-3.0, 3.0);
    // Bend first, then twist about the body's new axis (Wang Fig. 8): g = m n.
    const Quat bend_first = bend(theta, phi) * twist(psi);
    // Twist first about z, then bend in the twisted frame (Fig. 9): g = n m', m' = n* m n.
    const Quat bent_in_twisted = twist(psi).conjugate() * bend(theta, phi) * twist(psi);
    const Quat twist_first = twist(psi) * bent_in_twisted;
    const BondAngles a = decompose_rotation(bend_first), b = decompose_rotation(twist_first);
    INFO("theta " << theta << " phi " << phi << " psi " << psi);
    CHECK(std::abs(a.theta - theta) < 1e-12);
    CHECK(std::abs(a.psi - psi) < 1e-12);
    CHECK(std::abs(std::remainder(a.phi - phi, 2 * M_PI)) < 1e-12);
    CHECK(std::abs(b.theta - a.theta) < 1e-12);
    CHECK(std::abs(b.psi - a.psi) < 1e-12);
    CHECK(std::abs(std::remainder(b.phi - a.phi, 2 * M_PI)) < 1e-12);
  }
}

TEST_CASE("singular cases stay finite: pure twist, theta near pi, r0 along +-z") {
  const BondAngles pure = decompose_rotation(twist(0.7));
  CHECK(pure.psi == doctest::Approx(0.7).epsilon(1e-14));
  CHECK(pure.theta == 0);
  CHECK(pure.bend_x == 0);
  CHECK(pure.bend_y == 0);
  for (double theta : {M_PI, M_PI - 1e-13, M_PI - 1e-7}) {
    const BondAngles flip = decompose_rotation(bend(theta, 0.4) * twist(0.3));
    CHECK(std::isfinite(flip.psi));
    CHECK(std::abs(flip.theta - theta) < 1e-6);
    CHECK(std::hypot(flip.bend_x, flip.bend_y) == doctest::Approx(flip.theta));
    const Vec3 grad = rotation_energy_gradient(bend(theta, 0.4), flip, 1, 1);
    CHECK(grad.allFinite());
  }
  CHECK(axis_frame(Vec3(0, 0, 2)).coeffs() == Quat::Identity().coeffs());
  CHECK((axis_frame(Vec3(0, 0, -2)) * Vec3::UnitZ() - Vec3(0, 0, -1)).norm() < 1e-15);
  CHECK((axis_frame(Vec3(1, 2, 3)) * Vec3::UnitZ() - Vec3(1, 2, 3).normalized()).norm() < 1e-15);
}

TEST_CASE("the coupled torque gradient has Wang's eq 16 components along z' and the bend axis") {
  const double theta = 0.9, phi = 0.6, psi = 1.2, kt = 3, kb = 5;
  const Quat g = bend(theta, phi) * twist(psi);
  const BondAngles a = decompose_rotation(g);
  const Vec3 grad = rotation_energy_gradient(g, a, kt, kb);
  CHECK(grad.z() == doctest::Approx(kt * psi).epsilon(1e-12));
  CHECK(grad.dot(Vec3(-std::sin(phi), std::cos(phi), 0)) == doctest::Approx(kb * theta).epsilon(1e-12));
  // And it is the true gradient: compare with central differences of the energy.
  auto energy = [&](const Quat& q) {
    const BondAngles b = decompose_rotation(q);
    return 0.5 * kt * b.psi * b.psi + 0.5 * kb * b.theta * b.theta;
  };
  for (int k = 0; k < 3; ++k) {
    Vec3 d = Vec3::Zero();
    d(k) = 1e-6;
    const double numeric = (energy(quat::exp_map(d) * g) - energy(quat::exp_map(-d) * g)) / 2e-6;
    CHECK(grad(k) == doctest::Approx(numeric).epsilon(1e-6));
  }
}

TEST_CASE("the bend vector's derivative matches central differences from 0 to near pi") {
  auto bend_of = [](const Quat& q) {
    const BondAngles a = decompose_rotation(q);
    return Eigen::Vector2d(a.bend_x, a.bend_y);
  };
  Random random(11);
  // Straight, slight bends (the series), moderate, large, and 1e-4 short of pi.
  for (double theta : {0.0, 1e-7, 1e-3, 0.05, 0.19, 0.21, 0.9, 2.0, 3.0, M_PI - 1e-4}) {
    for (int trial = 0; trial < 20; ++trial) {
      const Quat g = bend(theta, random.uniform(-3.1, 3.1)) * twist(random.uniform(-3.0, 3.0));
      Eigen::Matrix<double, 2, 3> jacobian;
      REQUIRE(bend_jacobian(g, decompose_rotation(g), jacobian));
      // (near pi a finer step, whose round-off then limits the comparison)
      const double h = theta > 3 ? 1e-9 : 1e-6, tolerance = theta > 3 ? 1e-6 : 1e-9;
      for (int k = 0; k < 3; ++k) {
        Vec3 d = Vec3::Zero();
        d(k) = h;
        const Eigen::Vector2d numeric =
            (bend_of(quat::exp_map(d) * g) - bend_of(quat::exp_map(-d) * g)) / (2 * h);
        INFO("theta " << theta << " axis " << k << ": " << jacobian.col(k).transpose() << " vs "
                      << numeric.transpose());
        CHECK((jacobian.col(k) - numeric).norm() < tolerance * std::max(1.0, numeric.norm()));
      }
    }
  }
  Eigen::Matrix<double, 2, 3> unused;
  const Quat flipped = bend(M_PI - 1e-7, 0.3);
  CHECK_FALSE(
      bend_jacobian(flipped, decompose_rotation(flipped), unused));  // the bend plane is lost there
}

TEST_CASE("the finite bond's forces and torques are minus the gradient of its energy") {
  // Two cubes bonded along x, then moved apart, sheared, bent and twisted by up to large amounts;
  // every stiffness differs so no term can stand in for another.
  Random random(5);
  for (int trial = 0; trial < 42; ++trial) {
    World world;
    for (int k = 0; k < 2; ++k) {
      BodySpec cube;
      cube.shape = box_shape(Vec3::Constant(0.5));
      cube.position = Vec3(k, 0, 0);
      world.add_body(cube);
    }
    ParamTable table;
    table.set("kr", 1000.0);
    table.set("ks", 700.0);
    table.set("kt", 300.0);
    table.set("kb", 500.0);
    table.set("bond", std::vector<ParamTable>{BondModel::bond_entry(world, 1, 0)});
    world.add_force(ForceRegistry::instance().make("bond-finite", table));
    // The first trials nearly straight (the series' side of both angles), then ever larger.
    const double size = trial < 10 ? 1e-3 : trial < 20 ? 0.1 : 1.2;
    auto turn = [&] {
      return quat::exp_map(size * Vec3(random.normal(), random.normal(), random.normal()));
    };
    world.q[0] = turn();
    world.q[1] = turn();
    world.x.col(1) =
        Vec3(1, 0, 0) + 0.3 * size * Vec3(random.normal(), random.normal(), random.normal());
    if (trial >= 40) {  // where the closed form gives way: gamma = pi, then theta near pi
      world.q[0] = Quat::Identity();
      world.q[1] =
          trial == 40 ? Quat::Identity() : quat::from_axis_angle(Vec3::UnitY(), M_PI - 1e-7);
      world.x.col(1) = Vec3(trial == 40 ? -1 : 1, 0, 0);
    }
    Simulation sim(world, 1e-4, "velocity-verlet", "buss2");
    const Eigen::Matrix3Xd force = sim.forces(), torque = sim.torques();
    if (trial >= 40) {
      CHECK(force.allFinite());
      CHECK(torque.allFinite());
      continue;
    }
    auto potential = [&](int body, const Vec3& shift, const Vec3& rotation) {
      World w = world;
      w.x.col(body) += shift;
      w.q[body] = (quat::exp_map(rotation) * w.q[body]).normalized();
      return Simulation(w, 1e-4, "velocity-verlet", "buss2").energy().potential;
    };
    const double h = 1e-6;
    for (int body = 0; body < 2; ++body) {
      for (int k = 0; k < 3; ++k) {
        const Vec3 e = h * Vec3::Unit(k);
        const double dx =
            (potential(body, e, Vec3::Zero()) - potential(body, -e, Vec3::Zero())) / (2 * h);
        const double dq =
            (potential(body, Vec3::Zero(), e) - potential(body, Vec3::Zero(), -e)) / (2 * h);
        INFO("trial " << trial << " body " << body << " axis " << k);
        CHECK(force(k, body) ==
              doctest::Approx(-dx).epsilon(1e-8).scale(std::max(1.0, force.norm())));
        CHECK(torque(k, body) ==
              doctest::Approx(-dq).epsilon(1e-8).scale(std::max(1.0, torque.norm())));
      }
    }
  }
}

TEST_CASE("rigid rotation of a bonded chain by 170 degrees leaves every bond unloaded") {
  Simulation sim = scene_simulation("cube-chain", "velocity-verlet", 1e-3, {{"rate", 0.0}});
  World& w = sim.world();
  const Quat turn = quat::from_axis_angle(Vec3(1, -2, 0.5), 170.0 * M_PI / 180.0);
  for (int i = 0; i < w.size(); ++i) {
    w.x.col(i) = turn * Vec3(w.x.col(i));
    w.q[i] = turn * w.q[i];
  }
  sim.invalidate();
  CHECK(sim.forces().cwiseAbs().maxCoeff() < 1e-9);
  CHECK(sim.torques().cwiseAbs().maxCoeff() < 1e-9);
  CHECK(std::abs(sim.energy().potential) < 1e-18);
}

TEST_CASE("a free bonded chain keeps linear and angular momentum to round-off") {
  for (const char* model : {"finite", "incremental"}) {
    Simulation sim = scene_simulation("cube-chain", "velocity-verlet", 1e-3,
                                      {{"n", 5.0}, {"bond.model", std::string(model)}}, "buss2");
    World& w = sim.world();
    Random random(3);
    for (int i = 0; i < w.size(); ++i) {
      w.flags[i] = 0;  // nothing driven
      w.inv_mass(i) = 1.0 / w.mass(i);
      w.v.col(i) = 0.05 * Vec3(random.normal(), random.normal(), random.normal());
      w.set_angular_velocity(i, 0.2 * Vec3(random.normal(), random.normal(), random.normal()));
    }
    sim.invalidate();
    const EnergyReport start = sim.energy();
    REQUIRE_FALSE(sim.advance(3000));
    const EnergyReport end = sim.energy();
    INFO(std::string(model));
    CHECK((end.momentum - start.momentum).norm() < 1e-13);
    CHECK((end.angular_momentum - start.angular_momentum).norm() < 1e-12);
    CHECK(std::abs(end.energy_error) < 5e-3);  // small oscillations conserve energy
  }
}

TEST_CASE("bend 60 degrees then twist 90: finite torques equal the closed form, incremental not") {
  auto drive = [](const std::string& model) {
    Simulation sim = scene_simulation("cube-chain", "velocity-verlet", 1e-3,
                                      {{"n", 2.0}, {"rate", 0.0}, {"bond.model", model}}, "buss2");
    World& w = sim.world();
    w.flags[0] = kFixed;
    const double T = 1.0;  // each phase, 1000 steps
    w.set_angular_velocity(1, Vec3(0, M_PI / 3 / T, 0));  // bend: tilt the bond axis (x) in x-z
    sim.invalidate();
    REQUIRE_FALSE(sim.advance(1000));
    const Vec3 own_axis = w.q[1] * Vec3::UnitX();  // then twist about the cube's own bond axis
    w.set_angular_velocity(1, own_axis * (M_PI / 2 / T));
    sim.invalidate();
    REQUIRE_FALSE(sim.advance(1000));
    return bond_model(sim).bonds().front().report;
  };
  const double k = 1000;
  const BondReport finite = drive("finite");
  CHECK(std::abs(finite.twist_torque) == doctest::Approx(k * M_PI / 2).epsilon(1e-9));
  CHECK(finite.bend_torque == doctest::Approx(k * M_PI / 3).epsilon(1e-9));
  const BondReport incremental = drive("incremental");
  INFO("incremental twist torque " << incremental.twist_torque << " bend " << incremental.bend_torque);
  CHECK(std::abs(std::abs(incremental.twist_torque) / (k * M_PI / 2) - 1) > 0.1);
}

TEST_CASE("quasi-static twist and pure bend of the cube chain: every bond takes 1/6" *
          doctest::test_suite("slow")) {
  for (const char* model : {"finite", "incremental"}) {
    for (const char* loading : {"twist", "bend"}) {
      Simulation sim = scene_simulation("cube-chain", "leapfrog", 1e-3,
                                        {{"loading", std::string(loading)}, {"damping", 0.5},
                                         {"bond.model", std::string(model)}},
                                        "wang-leapfrog");
      REQUIRE_FALSE(sim.advance(30000));  // both ends at 0.01 rad/s: 0.6 rad in all
      for (const Bond& b : bond_model(sim).bonds()) {
        const bool twisting = std::string(loading) == "twist";
        const double angle = twisting ? b.report.twist : b.report.bend;
        const double torque = twisting ? b.report.twist_torque : b.report.bend_torque;
        INFO(std::string(model) << " " << loading << " bond " << b.i << ": " << angle);
        CHECK(std::abs(angle / 0.1 - 1) < 0.01);
        CHECK(std::abs(torque / 100.0 - 1) < 0.01);
      }
    }
  }
}

TEST_CASE("a bond past its strength breaks and its stored energy becomes dissipation") {
  for (const char* model : {"bond-finite", "bond-incremental"}) {
    World world;
    for (int k = 0; k < 2; ++k) {
      BodySpec cube;
      cube.shape = box_shape(Vec3::Constant(0.5));
      cube.position = Vec3(k, 0, 0);
      cube.velocity = Vec3(k == 0 ? -2.0 : 2.0, 0, 0);  // flying apart: KE 4 > 0.2 needed
      world.add_body(cube);
    }
    ParamTable table;
    table.set("kr", 1000.0);
    table.set("tensile_strength", 20.0);  // breaks at a stretch of 0.02
    table.set("bond", std::vector<ParamTable>{BondModel::bond_entry(world, 1, 0)});
    world.add_force(ForceRegistry::instance().make(model, table));
    Simulation sim(world, 1e-4, "velocity-verlet", "buss2");
    long steps = 0;
    while (sim.energy().bonds_broken == 0 && steps < 20000) {
      REQUIRE_FALSE(sim.step());
      ++steps;
    }
    const EnergyReport r = sim.energy();
    INFO(std::string(model) << " broke after " << steps << " steps, D = " << r.dissipated);
    CHECK(r.bonds_broken == 1);
    CHECK(bond_reports(sim.world()).front().broken);
    CHECK(r.dissipated == doctest::Approx(0.5 * 1000 * 0.02 * 0.02).epsilon(0.05));
    CHECK(std::abs(r.energy_error) < 1e-3);
    REQUIRE_FALSE(sim.advance(100));
    CHECK(sim.forces().norm() == 0);  // a broken bond carries nothing
  }
}

TEST_CASE("settled cantilever: each bond bends by F times its lever arm and shears by F" *
          doctest::test_suite("slow")) {
  // Settled once by viscous bond damping and once by PFC local damping alone.
  for (const char* model : {"finite", "incremental", "finite-local"}) {
    const bool local = std::string(model) == "finite-local";
    Simulation sim = scene_simulation(
        "cantilever", "velocity-verlet", 2e-3,
        {{"damping", local ? 0.0 : 1.0}, {"local_damping", local ? 0.7 : 0.0}, {"F", 1.0},
         {"bond.model", std::string(local ? "finite" : model)}});
    REQUIRE_FALSE(sim.advance(100000));  // 200 s: settled
    CHECK(sim.energy().kinetic < 1e-8);  // settled (potential energy is ~5e-3)
    CHECK(std::abs(sim.energy().energy_error) < 1e-3);  // damping work is booked as dissipation
    const int n = sim.world().size();
    for (const Bond& b : bond_model(sim).bonds()) {
      const double lever = (n - 1) - (b.i - 0.5);  // tip centre to the bond's midpoint
      INFO(std::string(model) << " bond " << b.i << " bend torque " << b.report.bend_torque);
      CHECK(std::abs(b.report.bend_torque / lever - 1) < 0.002);
      CHECK(std::abs(b.report.shear_force - 1) < 0.002);
    }
  }
}

TEST_CASE("Wang's experiment: the incremental bond's energy error grows with dt, the finite's not" *
          doctest::test_suite("slow")) {
  // cube-chain, bend-twist, 40,000 steps; relative error (KE + PE - W)/W at the end of the run.
  auto final_error = [](const std::string& model, double dt) {
    Simulation sim = scene_simulation("cube-chain", "leapfrog", dt,
                                      {{"bond.model", model}}, "wang-leapfrog");
    REQUIRE_FALSE(sim.advance(40000));
    return std::abs(sim.energy().energy_error);
  };
  const double inc_small = final_error("incremental", 1e-4), inc_large = final_error("incremental", 2e-3);
  const double fin_small = final_error("finite", 1e-4), fin_large = final_error("finite", 2e-3);
  INFO("incremental " << inc_small << " -> " << inc_large << ", finite " << fin_small << " -> " << fin_large);
  CHECK(inc_large > 100 * inc_small);  // grows about as dt^2
  CHECK(inc_large > 100 * fin_large);  // and far above the finite bond's at the large step
  CHECK(fin_large < 1e-8);             // the finite bond stays conservative at every step size
  CHECK(fin_small < 1e-8);
}
