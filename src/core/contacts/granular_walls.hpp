#pragma once
// Sphere-wall contacts four at a time: the pairs' spring-dashpot (spring_dashpot in
// granular_pairs.hpp) against planes, which have no mass and no spin, and may move. A wall's
// spring with a body lives per body and wall; a moving wall's work on the body is external work.
#include <algorithm>

#include "core/contacts/granular_pairs.hpp"

namespace stepwise {

// A wall plane as the kernel reads it: unit normal (into the space the bodies are in), velocity,
// and the plane's n.x at this evaluation's time.
struct WallPlane {
  Vec3 normal, velocity;
  double offset;
};

// Body i touching wall w.
struct WallSlot {
  int i, w;
};

struct WallSums {
  double potential = 0, capped = 0, external = 0, dissipation = 0;
};

// The contacts slots[p] for p < count, all overlapping, padded to a multiple of four by repeating
// the last (its copies are masked out). springs[i * wall_count + w] is body i's spring with wall w;
// written only when Commit.
template <class Law, bool Commit>
[[gnu::noinline]] void touching_walls(const MaterialLaws<Law>& laws, const ContactParams& params,
                                      PackedBodies bodies, const WallPlane* walls, int wall_count,
                                      const WallSlot* slots, int count, Spring* springs,
                                      BodyLoad* load, WallSums& sums) {
  using namespace lanes;
  D4 potential = splat(0), capped = splat(0), external = splat(0), dissipation = splat(0);
  const D4 zero = splat(0);
  const bool resistance = params.mu_roll > 0 || params.mu_twist > 0;
  for (int base = 0; base < count; base += 4) {
    const int lanes = std::min(4, count - base);
    ask_ahead_of(bodies.ask_ahead, base, count, [&](int p) {  // slot p's spring and body
      lanes::prefetch(springs + size_t(slots[p].i) * wall_count + slots[p].w);
      prefetch_body(bodies, load, slots[p].i);
    });
    int I[4], W[4];
    const WallPlane* plane[4];
    double* h[4];
    for (int l = 0; l < 4; ++l) {
      const WallSlot& slot = slots[base + l];
      I[l] = slot.i;
      W[l] = slot.w;
      plane[l] = walls + slot.w;
      h[l] = springs[size_t(slot.i) * wall_count + slot.w].xi.data();  // xi, then kt
    }
    D4 c[12];
    body_columns(bodies, I, c);
    auto vec3 = [&c](int k) { return V3{c[k], c[k + 1], c[k + 2]}; };
    auto wall3 = [&plane](Vec3 WallPlane::*field) {
      V3 out;
      for (int l = 0; l < 4; ++l)
        out.x[l] = (plane[l]->*field).x(), out.y[l] = (plane[l]->*field).y(),
        out.z[l] = (plane[l]->*field).z();
      return out;
    };
    const V3 n = wall3(&WallPlane::normal), wall_velocity = wall3(&WallPlane::velocity);
    const D4 offset{plane[0]->offset, plane[1]->offset, plane[2]->offset, plane[3]->offset};
    const M4 valid = {0 < lanes ? -1 : 0, 1 < lanes ? -1 : 0, 2 < lanes ? -1 : 0,
                      3 < lanes ? -1 : 0};
    const V3 x = vec3(kX), w = vec3(kW);
    const D4 r = c[kRadius];
    // The same sum as the walls' screening, so the two agree on every gap's sign.
    const D4 gap = ((x.x * n.x + x.y * n.y) + x.z * n.z - offset) - r;
    const V3 slip = vec3(kV) - wall_velocity - r * cross(w, n);
    const LaneContact contact{n, slip, -gap, c[kMass], r, valid};
    const V3 old{D4{h[0][0], h[1][0], h[2][0], h[3][0]}, D4{h[0][1], h[1][1], h[2][1], h[3][1]},
                 D4{h[0][2], h[1][2], h[2][2], h[3][2]}};
    const D4 old_kt{h[0][3], h[1][3], h[2][3], h[3][3]};
    const LaneForces f =
        spring_dashpot(laws.wall_lanes(bodies.material, I, W), params, contact, old, old_kt);
    potential += f.energy;
    if constexpr (Commit) capped += f.capped;
    external += select(valid, dot(f.force, wall_velocity), zero);
    dissipation += select(valid, dot(f.drag, wall_velocity), zero);
    const V3 torque = -r * cross(n, f.tangential), drag_torque = -r * cross(n, f.tangential_drag);
    D4 rows[12] = {f.force.x, f.force.y, f.force.z, torque.x,      torque.y,      torque.z,
                   f.drag.x,  f.drag.y,  f.drag.z,  drag_torque.x, drag_torque.y, drag_torque.z};
    for (int row = 0; row < 3; ++row)
      transpose(rows[4 * row], rows[4 * row + 1], rows[4 * row + 2], rows[4 * row + 3]);
    for (int l = 0; l < lanes; ++l) {
      double* p = load[I[l]].row();
      for (int row = 0; row < 3; ++row)
        store(p + 4 * row, lanes::load(p + 4 * row) + rows[4 * row + l]);
      if constexpr (Commit) {
        h[l][0] = f.xi.x[l], h[l][1] = f.xi.y[l], h[l][2] = f.xi.z[l];
        h[l][3] = Law::kConstant || (h[l][0] == 0 && h[l][1] == 0 && h[l][2] == 0) ? 0 : f.kt[l];
      }
      if (resistance) {
        BodyLoad& body = load[I[l]];
        const Vec3 normal(n.x[l], n.y[l], n.z[l]);
        const Vec3 force(f.force.x[l], f.force.y[l], f.force.z[l]);
        const Vec3 m = rolling_resistance(params, Vec3(w.x[l], w.y[l], w.z[l]), normal,
                                          force.dot(normal), r[l]);
        for (int k = 0; k < 3; ++k) body.torque[k] += m(k), body.drag_torque[k] += m(k);
      }
    }
  }
  sums.potential += sum(potential);
  sums.capped += sum(capped);
  sums.external += sum(external);
  sums.dissipation += sum(dissipation);
}

}  // namespace stepwise
