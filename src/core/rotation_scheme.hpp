#pragma once
// Rotational integrators, chosen independently of the translational one. A step is a
// kick-drift(-kick) split: begin_step advances orientations (and angular momenta) over dt with the
// start torques; schemes that want it get the end torques for a closing half kick.
#include <memory>
#include <string>

#include "core/integrator.hpp"
#include "core/parallel.hpp"
#include "core/registry.hpp"
#include "core/types.hpp"

namespace stepwise {

class World;

class RotationScheme {
 public:
  static constexpr const char* kRegistryKind = "rotation scheme";
  virtual ~RotationScheme() = default;
  virtual MethodInfo info() const = 0;
  // A scheme overrides begin_step (and end_step), or offers both halves by ranges below; the
  // defaults here run the ranges over all bodies.
  virtual void begin_step(World& world, const Positions& torque, double dt);
  virtual bool needs_end_torque() const { return false; }
  virtual void end_step(World& world, const Positions& torque, double dt);
  // Schemes that step each body on its own may offer the two halves by ranges of bodies, so the
  // Simulation can run them fused with its other passes over the bodies.
  virtual bool by_ranges() const { return false; }
  virtual void begin_range(World& world, const Positions& torque, double dt, int begin, int end) {}
  virtual void end_range(World& world, const Positions& torque, double dt, int begin, int end) {}
  // Its halves for free spheres are sphere_lanes::buss2_first_half and closing_kick (and the
  // scalar forms of them for the rest): the free-sphere sweep (core/sphere_sweep.hpp) may then
  // do them itself, fused with the kicks. For speed only.
  virtual bool halves_are_buss2() const { return false; }
  virtual void reset() {}
  virtual void save_state(ParamTable& out) const {}
  virtual void load_state(const ParamTable& in) {}
  // Threads a scheme may split its loop over bodies with (core/parallel.hpp); null: one.
  void set_parallel(Parallel* parallel) { parallel_ = parallel; }

 protected:
  Parallel* parallel_ = nullptr;
};

using RotationRegistry = Registry<RotationScheme>;

// Helpers shared by the schemes.
bool rotates_freely(const World& world, int i);  // torque-driven (free or pivoted)
// Bodies first .. first + count - 1 are all free spheres (scalar inertia, no pivot).
bool free_spheres(const World& world, int first, int count);
// Bodies [begin, end): four(i) for each group of four free spheres starting at i (computed side
// by side in lanes), one(i) for every other body.
template <class Four, class One>
void by_sphere_groups(const World& world, int begin, int end, Four&& four, One&& one) {
  int i = begin;
  if (free_spheres(world, begin, end - begin)) {  // most ranges: one test, not one per group
    for (; i + 4 <= end; i += 4) four(i);
    for (; i < end; ++i) one(i);
    return;
  }
  for (; i + 4 <= end; i += 4) {
    if (free_spheres(world, i, 4))
      four(i);
    else
      for (int k = 0; k < 4; ++k) one(i + k);
  }
  for (; i < end; ++i) one(i);
}
void advance_driven_orientation(World& world, int i, double dt);  // prescribed ω
// L += h/2 tau(n+1) and w from L: the closing kick of the kick-drift-kick schemes.
void closing_half_kick(World& world, const Positions& torque, double h,
                       Parallel* parallel = nullptr);
void closing_half_kick(World& world, const Positions& torque, double h, int begin, int end);

}  // namespace stepwise

#define STEPWISE_REGISTER_ROTATION(NAME, CLASS)                                        \
  static const bool STEPWISE_CONCAT(registered_rotation_, __COUNTER__) =               \
      ::stepwise::RotationRegistry::instance().add(NAME, [] {                          \
        return std::unique_ptr<::stepwise::RotationScheme>(std::make_unique<CLASS>()); \
      })
