// Sliding friction against rigid-body impact theory: while the contact point slides throughout an
// impact, Coulomb's law gives a friction impulse of exactly mu times the normal impulse, whatever
// the contact's stiffness or damping. Issue "Materials, rigid walls, and friction that is exactly
// Coulomb while sliding".
#include <cmath>

#include <doctest/doctest.h>

#include "core/simulation.hpp"
#include "test_support.hpp"

using namespace stepwise;

namespace {

// The contact law: hertz with restitution e, or hooke damped to about that restitution.
ParamTable law(const std::string& kind, double e, const std::string& coulomb, bool walls) {
  ParamTable p;
  if (kind == "hertz") {
    p.set("E", 1e7);
    p.set("nu", 0.3);
    p.set("e", e);
  } else {
    // m_eff = 1/2 for the pair, 1 for the wall; gamma_n from e at the pair's mass.
    p.set("kn", 1e6);
    const double log_e = std::log(e), w = std::sqrt(1e6 / 0.5);
    p.set("gamma_n", -2 * w * log_e / std::sqrt(M_PI * M_PI + log_e * log_e));
  }
  p.set("mu", 0.4);
  p.set("coulomb", coulomb);
  if (walls) p.set("wall", std::vector<ParamTable>{test::floor_wall()});
  return p;
}

struct Impact {
  double jn, jt;      // normal and friction impulse on body 0, per unit mass
  double spin;        // R |delta omega| of body 0
  double slip_after;  // the contact point's slip after, signed as before (> 0: still sliding)
};

// Sphere 0 (R = 0.1, m = 1) with normal approach speed 1 and contact slip `slip` in +x, of which
// R w_y supplies `spin_part`, hits the floor (partner = false) or an equal sphere coming the
// other way with the mirror motion (partner = true).
Impact impact(const std::string& kind, double e, const std::string& coulomb, bool partner,
              double slip, double spin_part) {
  const double R = 0.1;
  World world;
  BodySpec a;
  a.radius = R;
  a.position = Vec3(0, 0, R + 1e-4);
  a.velocity = Vec3(slip - spin_part, 0, -1);
  a.angular_velocity = Vec3(0, -spin_part / R, 0);  // slip = v_x - R w_y against the floor
  world.add_body(a);
  if (partner) {  // the mirror image below: same spin, opposite velocity
    BodySpec b = a;
    b.position = Vec3(0, 0, -R - 1e-4);
    b.velocity = -a.velocity;
    world.add_body(b);
  }
  world.add_force(ForceRegistry::instance().make(kind, law(kind, e, coulomb, !partner)));
  Simulation sim(world, 2e-7, "velocity-verlet", "buss2");
  const Vec3 w0 = sim.world().w.col(0);
  // The impulses on body 0 along the contact normal and across it, summed step by step with
  // that step's normal: when the spheres pass each other the normal turns, and a friction
  // impulse measured along a fixed axis would take some of the normal one.
  auto normal = [&] {
    const Vec3 d = partner ? Vec3(sim.world().x.col(0) - sim.world().x.col(1)) : Vec3::UnitZ();
    return Vec3(d.normalized());
  };
  double jn = 0, jt = 0;
  bool touched = false;
  for (long step = 0; step < 200000; ++step) {
    const Vec3 v = sim.world().v.col(0), n_before = normal();
    if (sim.step()) FAIL("the run went non-finite");
    const Vec3 n = (n_before + normal()).normalized(), t = n.cross(Vec3::UnitY());
    const Vec3 dv = sim.world().v.col(0) - v;
    jn += dv.dot(n);
    jt += dv.dot(t);
    const double gap = partner ? (sim.world().x.col(0) - sim.world().x.col(1)).norm() - 2 * R
                               : sim.world().x(2, 0) - R;
    touched |= gap < 0;
    if (touched && gap > 0) break;
  }
  REQUIRE(touched);
  const Vec3 v = sim.world().v.col(0), w = sim.world().w.col(0);
  // t = n x y is -x at n = z: the friction impulse on body 0, against its +x slip, counts > 0.
  // Body 0's contact point slips at v_x - R w_y (the mirror sphere's point moves the opposite
  // way, so the pair's slip is twice that).
  return {jn, jt, R * (w - w0).norm(), v.x() - R * w.y()};
}

}  // namespace

TEST_CASE("exact Coulomb: a sphere sliding throughout an impact gets friction impulse mu J_n") {
  const double mu = 0.4;
  for (const std::string kind : {"hertz", "hooke"})
    for (bool partner : {false, true})
      for (double e : {0.5, 1.0})
        for (double spin_part : {0.0, 3.0}) {
          const Impact r = impact(kind, e, "exact", partner, 4.0, spin_part);
          INFO(kind << (partner ? std::string(" sphere-sphere") : std::string(" sphere-wall"))
                    << ", e " << e << ", spin part " << spin_part << ": J_n " << r.jn << ", J_t "
                    << r.jt << ", ratio " << r.jt / (mu * r.jn) << ", R dw " << r.spin
                    << ", slip after " << r.slip_after);
          REQUIRE(r.slip_after > 0.1);  // the point slid throughout: the test's premise
          REQUIRE(r.jn > 0.5);
          CHECK(r.jt / (mu * r.jn) == doctest::Approx(1).epsilon(0.005));
          // R |dw| = R (R J_t) / (2/5 m R^2) = 2.5 mu J_n, J_n = (1 + e) v_n as restituted.
          CHECK(r.spin / (2.5 * mu * r.jn) == doctest::Approx(1).epsilon(0.005));
          if (e == 1.0 && !partner) CHECK(r.jn == doctest::Approx(2).epsilon(1e-3));  // elastic
        }
}

TEST_CASE("LAMMPS-style friction falls short of mu J_n when the contact is damped") {
  // The rescaled spring with the dashpot kept (LAMMPS' gran/*/history) re-sticks while the point
  // still slides: the figures the issue measured, kept as the documented behaviour of 'lammps'.
  const Impact r = impact("hertz", 0.5, "lammps", false, 4.0, 0.0);
  INFO("ratio " << r.jt / (0.4 * r.jn));
  CHECK(r.jt / (0.4 * r.jn) < 0.99);
}
