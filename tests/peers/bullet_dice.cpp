// The peer of `stepwise bench dice --contact impulse`: the same pile in Bullet (Debian's
// libbullet-dev), built from stepwise's own scene so the boxes, masses, throws, walls, friction,
// restitution, dt and solver iterations are the same, timed the same way, printed in the same
// form. Usage: bullet_dice N STEPS DT ITERATIONS RESTITUTION
//   (stepwise: bench dice --set n=N --contact impulse --dt DT --steps STEPS
//              --set impulse.iterations=ITERATIONS --set impulse.restitution=RESTITUTION)
// Bullet's own choices are left at its defaults (split impulse, its contact margins and
// speculative contacts); its max_overlap is the deepest penetration its manifolds report after
// any step, as stepwise's is the deepest overlap a step leaves.
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "core/scene.hpp"

using namespace stepwise;

namespace {

// stepwise combines friction by the lesser coefficient and takes restitution from the contact
// treatment; Bullet multiplies the bodies' by default: each body's own value is used as is.
btScalar lesser_friction(const btCollisionObject* a, const btCollisionObject* b) {
  return std::min(a->getFriction(), b->getFriction());
}
btScalar lesser_restitution(const btCollisionObject* a, const btCollisionObject* b) {
  return std::min(a->getRestitution(), b->getRestitution());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: bullet_dice N STEPS DT ITERATIONS RESTITUTION\n");
    return 2;
  }
  const int n = std::atoi(argv[1]);
  const long steps = std::atol(argv[2]);
  const double dt = std::atof(argv[3]), restitution = std::atof(argv[5]);
  const int iterations = std::atoi(argv[4]);
  const SceneSetup scene = build_scene("dice", {{"n", double(n)}});
  const World& world = scene.world;

  btDefaultCollisionConfiguration configuration;
  btCollisionDispatcher dispatcher(&configuration);
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld bullet(&dispatcher, &broadphase, &solver, &configuration);
  bullet.getSolverInfo().m_numIterations = iterations;
  gCalculateCombinedFrictionCallback = lesser_friction;
  gCalculateCombinedRestitutionCallback = lesser_restitution;

  // Gravity, the friction coefficient and the walls from the scene's force models.
  double mu = 0.5;
  std::vector<std::pair<Vec3, Vec3>> walls;
  for (const auto& model : world.forces) {
    ParamTable saved;
    model->save(saved);
    if (model->kind() == "gravity") {
      const Vec3 g = saved.vec3("g", Vec3(0, 0, -9.81));
      bullet.setGravity(btVector3(g.x(), g.y(), g.z()));
    }
    if (model->kind() == "hooke") {
      mu = saved.number("mu", mu);
      for (const ParamTable& w : saved.tables("wall"))
        walls.push_back({w.vec3("point", Vec3::Zero()), w.vec3("normal", Vec3::UnitZ())});
    }
  }
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btDefaultMotionState>> states;
  std::vector<std::unique_ptr<btRigidBody>> bodies;
  for (const auto& [point, normal] : walls) {
    const Vec3 unit = normal.normalized();
    shapes.push_back(std::make_unique<btStaticPlaneShape>(btVector3(unit.x(), unit.y(), unit.z()),
                                                          unit.dot(point)));
    btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, shapes.back().get());
    bodies.push_back(std::make_unique<btRigidBody>(info));
    bodies.back()->setFriction(btScalar(mu));
    bodies.back()->setRestitution(1);  // the die's own decides (lesser of the two)
    bullet.addRigidBody(bodies.back().get());
  }
  // One box shape for all dice: the scene's cube of side a (its bounding radius a sqrt(3) / 2).
  const double half = world.radius(0) / std::sqrt(3.0);
  shapes.push_back(std::make_unique<btBoxShape>(btVector3(half, half, half)));
  btCollisionShape* die = shapes.back().get();
  for (int i = 0; i < world.size(); ++i) {
    const Quat& q = world.q[i];
    btTransform pose(btQuaternion(q.x(), q.y(), q.z(), q.w()),
                     btVector3(world.x(0, i), world.x(1, i), world.x(2, i)));
    states.push_back(std::make_unique<btDefaultMotionState>(pose));
    btVector3 inertia;
    die->calculateLocalInertia(world.mass(i), inertia);
    btRigidBody::btRigidBodyConstructionInfo info(world.mass(i), states.back().get(), die, inertia);
    bodies.push_back(std::make_unique<btRigidBody>(info));
    btRigidBody& body = *bodies.back();
    body.setLinearVelocity(btVector3(world.v(0, i), world.v(1, i), world.v(2, i)));
    body.setAngularVelocity(btVector3(world.w(0, i), world.w(1, i), world.w(2, i)));
    body.setFriction(btScalar(mu));
    body.setRestitution(btScalar(restitution));
    body.setActivationState(DISABLE_DEACTIVATION);  // no sleeping: stepwise has none
    bullet.addRigidBody(&body);
  }

  double deepest = 0;
  const auto start = std::chrono::steady_clock::now();
  for (long s = 0; s < steps; ++s) {
    bullet.stepSimulation(btScalar(dt), 0, btScalar(dt));  // exactly one step of dt
    for (int m = 0; m < dispatcher.getNumManifolds(); ++m) {
      const btPersistentManifold* manifold = dispatcher.getManifoldByIndexInternal(m);
      for (int p = 0; p < manifold->getNumContacts(); ++p)
        deepest = std::max(deepest, double(-manifold->getContactPoint(p).getDistance()));
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int contacts = 0, wall_contacts = 0;
  for (int m = 0; m < dispatcher.getNumManifolds(); ++m) {
    const btPersistentManifold* manifold = dispatcher.getManifoldByIndexInternal(m);
    bool touching = false;  // Bullet keeps points a little apart too (its speculative margin)
    for (int p = 0; p < manifold->getNumContacts(); ++p)
      touching = touching || manifold->getContactPoint(p).getDistance() <= 0;
    if (!touching) continue;
    const bool wall =
        manifold->getBody0()->isStaticObject() || manifold->getBody1()->isStaticObject();
    ++contacts;
    wall_contacts += wall;
  }
  for (auto& body : bodies) bullet.removeRigidBody(body.get());
  std::printf(
      "bullet N=%d steps=%ld threads=1 loop_s=%.3f particle_steps_per_s=%.0f "
      "contacts_end=%d wall_contacts_end=%d iterations=%d max_overlap=%.4g\n",
      n, steps, seconds, n * double(steps) / seconds, contacts - wall_contacts, wall_contacts,
      iterations, deepest);
  return 0;
}
