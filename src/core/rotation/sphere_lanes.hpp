#pragma once
// Four free spheres' rotation halves in lanes: Buss2's first half and the closing spin kick of
// the kick-drift-kick schemes. Shared by the schemes (buss2.cpp, rotation_common.cpp) and the
// free-sphere sweep (core/sphere_sweep.cpp), so both compute the same bits.
#include <cstdint>
#include <cstring>

#include "core/lanes.hpp"
#include "core/world.hpp"

namespace stepwise::sphere_lanes {

// Bodies first .. first + 3 are free spheres: no flag holds them (fixed, driven, pivoted) and
// their three moments are equal (World::sphere_moment is NaN, unequal to itself, where not).
// Four bodies per test, without a branch per body.
inline bool free_four(const World& world, int first) {
  constexpr std::uint32_t kNotFree = (kFixed | kDriven | kPivot | kDrivenSpin) * 0x01010101u;
  std::uint32_t flags;
  std::memcpy(&flags, world.flags.data() + first, 4);
  const lanes::D4 moment = lanes::load(world.sphere_moment.data() + first);
  return !(flags & kNotFree) && lanes::all_lanes(moment == moment);
}

// Free spheres first .. first + 3 (free_four) neither spin nor turn: every component of L and w
// is +0 (as bits: a -0 would become +0) and each moment is positive. Under zero torques both
// halves would leave them so (L + h/2 (+0) = +0, w = +0 / I = +0, Buss2's mean spin +0, the
// quaternions unread), which lets the free-sphere sweep skip them. For speed only.
inline bool unturned_four(const World& world, int first) {
  using namespace lanes;
  const double* L = world.L.data() + 3 * first;
  const double* w = world.w.data() + 3 * first;
  const M4 bits = (M4(load(L)) | M4(load(L + 4)) | M4(load(L + 8))) |
                  (M4(load(w)) | M4(load(w + 4)) | M4(load(w + 8)));
  const D4 moment = load(world.sphere_moment.data() + first);
  return all_lanes(bits == M4{0, 0, 0, 0}) && all_lanes(moment > 0.0);
}

// Four spheres' orientations (stored x, y, z, w: four of them transpose into lanes) turned by
// the Cayley form of a, except the lanes still.
inline void turn(double* q, const lanes::V3& a, lanes::M4 still) {
  using namespace lanes;
  D4 qx = load(q), qy = load(q + 4), qz = load(q + 8), qw = load(q + 12);
  transpose(qx, qy, qz, qw);
  const D4 nw = qw - ((a.x * qx + a.y * qy) + a.z * qz);
  const D4 nx = (qx + qw * a.x) + (a.y * qz - a.z * qy);
  const D4 ny = (qy + qw * a.y) + (a.z * qx - a.x * qz);
  const D4 nz = (qz + qw * a.z) + (a.x * qy - a.y * qx);
  const D4 e = (((nw * nw + nx * nx) + ny * ny) + nz * nz) - 1.0;
  const M4 small = abs(e) < 1e-5;
  D4 inv = (1.0 - 0.5 * e) + (0.375 * e) * e;
  if (!all_lanes(small)) inv = select(small, inv, 1.0 / lanes::sqrt(1.0 + e));
  D4 ox = select(still, qx, nx * inv), oy = select(still, qy, ny * inv);
  D4 oz = select(still, qz, nz * inv), ow = select(still, qw, nw * inv);
  transpose(ox, oy, oz, ow);
  store(q, ox), store(q + 4, oy), store(q + 8, oz), store(q + 12, ow);
}

// Buss2's turn of four spheres by their mean spin over the half step: the quaternions turned by
// the Cayley form of h/2 w_bar, w = L / I and dw = tau / I (inv_I = 1 / I). Where all four stand
// still (grains in free fall, before any contact) their quaternions are not even read: 64 of the
// bytes this pass would move per sphere.
inline void buss2_turn(World& world, const lanes::V3& momentum, const lanes::V3& moment,
                       const lanes::D4& inv_I, double h, int first) {
  using namespace lanes;
  const V3 w = inv_I * momentum, dw = inv_I * moment;
  const V3 w_bar = (w + splat(0.5 * h) * dw) + splat(h * h / 12.0) * cross(dw, w);
  const V3 a = splat(0.5 * h) * w_bar;
  const M4 still = (a.x == 0.0) & (a.y == 0.0) & (a.z == 0.0);
  if (!all_lanes(still)) turn(world.q[first].coeffs().data(), a, still);
}

// Buss2's first half for four free spheres without torque (+0) whose w is spread(1/I) L as the
// half last stored it and whose L has no -0: L + h/2 (+0) is L and w the same, so only the turn
// is left, its bits those of buss2_first_half's. For speed only: the torques read and cleared,
// L and w stored, 96 bytes a sphere, are not.
inline void coasting_turn(World& world, double h, int first) {
  using namespace lanes;
  const D4 inv_I = 1.0 / load(world.sphere_moment.data() + first);
  const V3 none{splat(0.0), splat(0.0), splat(0.0)};
  buss2_turn(world, load_xyz(world.L.data() + 3 * first), none, inv_I, h, first);
}

// No component of four spheres' L is -0 (which L + (+0) makes +0).
inline bool no_negative_zero(const double* L) {
  using namespace lanes;
  const M4 sign = {INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN};
  const M4 hits = (M4(load(L)) == sign) | (M4(load(L + 4)) == sign) | (M4(load(L + 8)) == sign);
  return all_lanes(hits == M4{0, 0, 0, 0});
}

// Buss2's first half for spheres first .. first + 3: the sphere branch of its step_body, the same
// operations in the same order, so each lane's result is that of step_body to the bit.
inline void buss2_first_half(World& world, const double* torque, double h, int first) {
  using namespace lanes;
  const double* L = world.L.data() + 3 * first;
  const double* tau = torque + 3 * first;
  const D4 inv_I = 1.0 / load(world.sphere_moment.data() + first);
  buss2_turn(world, load_xyz(L), load_xyz(tau), inv_I, h, first);
  // The kick as stored, no shuffles out of lanes; 1/I spread over each sphere's components
  // (its three moments are equal), not divided again.
  const Stored after = load_stored(L) + splat(0.5 * h) * load_stored(tau);
  store_stored(world.L.data() + 3 * first, after);
  store_stored(world.w.data() + 3 * first, spread_xyz(inv_I) * after);
}

// L += h/2 tau, w = L / I for spheres first .. first + 3, in the order
// World::sync_angular_velocity uses. A free sphere's three moments are equal (free_spheres):
// each component of L is divided by that one moment (World::sphere_moment) spread over the
// components as stored, no shuffles. spin = false leaves w for a caller that overwrites it before
// anything reads it (three divisions saved; for speed only).
inline void closing_kick(World& world, const double* torque, double h, int first,
                         bool spin = true) {
  using namespace lanes;
  double* L = world.L.data() + 3 * first;
  const Stored kicked = load_stored(L) + splat(0.5 * h) * load_stored(torque + 3 * first);
  store_stored(L, kicked);
  if (!spin) return;
  const Stored I = spread_xyz(load(world.sphere_moment.data() + first));
  store_stored(world.w.data() + 3 * first,
               {kicked.first / I.first, kicked.second / I.second, kicked.third / I.third});
}

}  // namespace stepwise::sphere_lanes
