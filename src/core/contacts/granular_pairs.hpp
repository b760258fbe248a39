#pragma once
// The touching sphere pairs of a granular evaluation, four at a time. GranularContacts first
// collects the pairs that overlap (a cheap pass over the neighbour list), then this kernel computes
// their spring-dashpot forces, Coulomb cap and history side by side, with masks instead of
// branches, and adds the loads to both bodies. The physics is written out in granular_contact.hpp.
#include <algorithm>
#include <array>

#include "core/contacts/contact_materials.hpp"
#include "core/contacts/spring_dashpot.hpp"
#include "core/lanes.hpp"
#include "core/types.hpp"

namespace stepwise {

// What the kernels read of a body: position and radius, read where the state keeps them (a
// packed copy cost a pass writing 32 bytes per body and step, and the step's passes are bound by
// the bytes they move), and velocity, mass, spin and inverse mass, packed in one cache line when
// most bodies touch something. body_columns turns them into 12 columns, indexed below.
struct alignas(64) BodyMotion {
  double c[8];  // v, mass, w, inverse mass
};
struct PackedBodies {
  const double* x;       // 3 x n: the evaluated positions
  const double* radius;  // n: the spheres' radii; -inf for bodies the kernels must not touch
  // Null when few bodies touch anything: the motions are then read from the state's own
  // columns below (for speed only: packing them all costs more than the few reads it saves).
  const BodyMotion* motion;
  const std::uint16_t* material;  // World::material
  const double *v, *w, *mass, *inv_mass;  // 3 x n, 3 x n, n, n
  // For speed only: the arrays the kernels read are larger than a cache holds, so they ask
  // for rows some batches ahead (prefetch_body). Below that size the asking costs more than it
  // saves (the settled 10k packing took 1.06 of the time with it; the settled 50k one 0.83).
  bool ask_ahead = false;
};

// Body i's position and radius as one row.
[[gnu::always_inline]] inline lanes::D4 position_row(const PackedBodies& bodies, int i) {
  const double* p = bodies.x + 3 * i;
  return lanes::D4{p[0], p[1], p[2], bodies.radius[i]};
}
// Body i's motion row: velocity and mass (half 0) or spin and inverse mass (half 1).
[[gnu::always_inline]] inline lanes::D4 motion_row(const PackedBodies& bodies, int i, int half) {
  if (bodies.motion) return lanes::load(bodies.motion[i].c + 4 * half);
  const double* vector = (half == 0 ? bodies.v : bodies.w) + 3 * i;
  return lanes::D4{vector[0], vector[1], vector[2], (half == 0 ? bodies.mass : bodies.inv_mass)[i]};
}
enum BodyColumn { kX = 0, kRadius = 3, kV = 4, kMass = 7, kW = 8, kInvMass = 11 };

// What it adds to a body: force, torque and their dashpot (dissipative) parts.
struct alignas(32) BodyLoad {
  double force[3], torque[3], drag_force[3], drag_torque[3];
  double* row() { return force; }  // all 12, in this order
};
static_assert(sizeof(BodyLoad) == 12 * sizeof(double));

// A pair's tangential spring, padded to four numbers so four springs load as four rows.
struct alignas(32) Spring {
  Vec3 xi = Vec3::Zero();
  double kt = 0;  // laws whose kt varies: the stiffness the spring's energy was booked at
};
static_assert(sizeof(Spring) == 4 * sizeof(double));

// For speed only (no number changes): asks the memory for what a kernel will read and write
// of a body some batches ahead (its motion and its load row). Past the cache each is a miss, and
// one batch's loop is too long for the processor to reach the next batch's loads on its own, so
// without this the misses come a batch at a time.
[[gnu::always_inline]] inline void prefetch_body(PackedBodies bodies, const BodyLoad* load, int b) {
  const char* row = reinterpret_cast<const char*>(load + b);
  lanes::prefetch(row);
  lanes::prefetch(row + sizeof(BodyLoad) - 1);
  if (bodies.motion) {
    lanes::prefetch(bodies.motion + b);
  } else {
    lanes::prefetch(bodies.v + 3 * b);
    lanes::prefetch(bodies.w + 3 * b);
    lanes::prefetch(bodies.mass + b);
    lanes::prefetch(bodies.inv_mass + b);
  }
}
// Pair (i, neighbors[k])'s spring and both bodies (prefetch_body).
[[gnu::always_inline]] inline void prefetch_pair(PackedBodies bodies, const int* neighbors,
                                                 const Spring* history, const BodyLoad* load, int i,
                                                 int k) {
  lanes::prefetch(history + k);
  prefetch_body(bodies, load, i);
  prefetch_body(bodies, load, neighbors[k]);
}
// How far ahead the kernels ask: two batches, about a memory latency of their work.
constexpr int kPrefetchAhead = 8;
// How far ahead the candidates' overlap test asks for both bodies' positions and radii (the
// first bodies come in order, but landing grains' are few and scattered): the test's loop is
// short, so further (1M landing grains: 0.95 of the time; the first body's too, 0.96).
constexpr int kCandidatesAhead = 16;
// How many unscreened groups of four ahead the walls' screening asks for (wall_range).
constexpr int kWallsAhead = 8;
// How many touching pairs the overlap test collects before the kernel takes them (a multiple of
// four, so the kernel's batches and sums are those of the whole list): the pairs' positions and
// radii the test has just read are then still in the cache (past it, at 1M landing grains, the
// kernel read each again from the memory).
constexpr int kPairChunk = 128;
static_assert(kPairChunk % 4 == 0);
// ask(p) for the entries the batch at base asks for, if the kernel asks at all: the first batch
// asks for its own and the next two, every later batch for the one two ahead of it.
template <class Ask>
[[gnu::always_inline]] inline void ask_ahead_of(bool on, int base, int count, Ask&& ask) {
  if (!on) return;
  const int end = std::min(base + kPrefetchAhead + 4, count);
  for (int p = base == 0 ? 0 : base + kPrefetchAhead; p < end; ++p) ask(p);
}

struct PairSums {
  double potential = 0, capped = 0;
  int contacts = 0;
};
// What the kernel sums over its pairs, kept lane by lane until folded into PairSums: a list
// handed to the kernel in pieces of whole batches (of four) then sums to the bits of the list
// handed whole.
struct PairLanes {
  lanes::D4 potential = lanes::splat(0), capped = lanes::splat(0);
  int contacts = 0;
  void fold(PairSums& sums) const {
    sums.potential += lanes::sum(potential);
    sums.capped += lanes::sum(capped);
    sums.contacts += contacts;
  }
};

// Four bodies' position rows turned into four vectors: vector k holds each body's k-th number.
[[gnu::always_inline]] inline std::array<lanes::D4, 4> position_columns(const PackedBodies& bodies,
                                                                        const int* index) {
  lanes::D4 a = position_row(bodies, index[0]), b = position_row(bodies, index[1]),
            c = position_row(bodies, index[2]), d = position_row(bodies, index[3]);
  lanes::transpose(a, b, c, d);
  return {a, b, c, d};
}

// Four bodies' motion rows (motion_row) turned into four vectors, as position_columns does.
[[gnu::always_inline]] inline std::array<lanes::D4, 4> motion_columns(const PackedBodies& bodies,
                                                                      const int* index, int half) {
  lanes::D4 a = motion_row(bodies, index[0], half), b = motion_row(bodies, index[1], half),
            c = motion_row(bodies, index[2], half), d = motion_row(bodies, index[3], half);
  lanes::transpose(a, b, c, d);
  return {a, b, c, d};
}

// Four bodies' 12 numbers, as rows, turned into 12 vectors of four lanes (BodyColumn).
[[gnu::always_inline]] inline void body_columns(PackedBodies bodies, const int* index,
                                                lanes::D4 (&c)[12]) {
  const auto position = position_columns(bodies, index);
  const auto velocity = motion_columns(bodies, index, 0), spin = motion_columns(bodies, index, 1);
  for (int k = 0; k < 4; ++k) c[k] = position[k], c[4 + k] = velocity[k], c[8 + k] = spin[k];
}

// Pairs (pair_i[p], neighbors[pair_k[p]]) for p < count; the arrays are padded to a multiple of
// four by repeating the last pair (its copies are masked out). Pairs that do not overlap are
// masked out too; when Commit, their springs are let go (the energy booked as in release()).
// Histories are indexed by the list slot k; they are written only when Commit. The sums are
// added into `sums` lane by lane (PairLanes), so a list may come in pieces of whole batches.
// Mixed: the pairs may be of several materials (else every lane reads one law, known to the
// compiler, as the hot loop of a one-material packing wants).
template <class Law, bool Commit, bool Mixed>
[[gnu::noinline]] void touching_pairs_of(const MaterialLaws<Law>& laws, const ContactParams& params,
                                         PackedBodies bodies, const int* neighbors,
                                         const int* pair_i, const int* pair_k, int count,
                                         Spring* history, BodyLoad* load, PairLanes& sums) {
  using namespace lanes;
  D4 potential = sums.potential, capped = sums.capped;  // (locals: the loads' stores may alias)
  const D4 zero = splat(0);
  const bool resistance = params.mu_roll > 0 || params.mu_twist > 0;
  for (int base = 0; base < count; base += 4) {
    const int lanes = std::min(4, count - base);
    ask_ahead_of(bodies.ask_ahead, base, count, [&](int p) {
      prefetch_pair(bodies, neighbors, history, load, pair_i[p], pair_k[p]);
    });
    int I[4], J[4], K[4];
    double* h[4];
    for (int l = 0; l < 4; ++l) {
      const int p = base + l;
      I[l] = pair_i[p];
      K[l] = pair_k[p];
      J[l] = neighbors[K[l]];
      h[l] = history[K[l]].xi.data();
    }
    // In stages, so few values are live at once (the kernel is bound by its instruction count,
    // and spilled registers add to it): positions first, the geometry; then the motions.
    const auto pi = position_columns(bodies, I), pj = position_columns(bodies, J);
    const M4 in_batch = {0 < lanes ? -1 : 0, 1 < lanes ? -1 : 0, 2 < lanes ? -1 : 0,
                         3 < lanes ? -1 : 0};
    const V3 d{pi[0] - pj[0], pi[1] - pj[1], pi[2] - pj[2]};
    const D4 ri = pi[3], rj = pj[3];
    const D4 reach = ri + rj;
    const D4 r2 = dot(d, d);
    const M4 valid = in_batch & (r2 < reach * reach);  // the collection's test, to the bit
    const int touching = mask_bits(valid);
    const D4 r = lanes::sqrt(r2);
    const V3 normal = (1.0 / r) * d;
    const auto vi = motion_columns(bodies, I, 0), vj = motion_columns(bodies, J, 0);
    const D4 mi = vi[3], mj = vj[3];  // v, mass
    const auto wi = motion_columns(bodies, I, 1), wj = motion_columns(bodies, J, 1);  // w, 1/m
    const D4 m_eff = select(wi[3] == 0, mj, select(wj[3] == 0, mi, mi * mj / (mi + mj)));
    const V3 spin_arms{ri * wi[0] + rj * wj[0], ri * wi[1] + rj * wj[1], ri * wi[2] + rj * wj[2]};
    const V3 slip = V3{vi[0], vi[1], vi[2]} - V3{vj[0], vj[1], vj[2]} - cross(spin_arms, normal);
    LaneContact contact{normal, slip, reach - r, m_eff, zero, valid};
    if constexpr (!Law::kConstant) contact.r_eff = ri * rj / reach;
    D4 old_x = lanes::load(h[0]), old_y = lanes::load(h[1]), old_z = lanes::load(h[2]),
       old_kt = lanes::load(h[3]);
    transpose(old_x, old_y, old_z, old_kt);
    const LaneLaws<Law> lane_laws =
        Mixed ? laws.lanes(bodies.material, I, J) : uniform_laws(laws.pair(0, 0));
    if constexpr (Commit) {
      const M4 open = in_batch & ~valid;
      if (mask_bits(open) != 0) {  // pairs that just opened let go of their springs
        const V3 old{old_x, old_y, old_z};
        D4 kt = splat(lane_laws.lane[0]->release_kt());
        if (!lane_laws.uniform)
          for (int l = 1; l < 4; ++l) kt[l] = lane_laws.lane[l]->release_kt();
        if constexpr (!Law::kConstant) kt = select(old_kt > 0, old_kt, kt);  // as release() does
        const D4 released =
            splat(0.5) * kt * dot(old, old) + splat(0.5 * params.dt) * kt * dot(old, contact.slip);
        capped += select(open, released, zero);
      }
    }
    // (Before the forces, so the old spring and the slip need not outlive them.)
    const LaneForces f =
        spring_dashpot(lane_laws, params, contact, V3{old_x, old_y, old_z}, old_kt);
    const V3 &force = f.force, &tangential = f.tangential, &drag = f.drag, &xi = f.xi;
    const V3& tangential_drag = f.tangential_drag;
    potential += f.energy;
    if constexpr (Commit) {
      capped += f.capped;
      D4 springs[4] = {select(valid, xi.x, zero), select(valid, xi.y, zero),
                       select(valid, xi.z, zero), zero};
      if constexpr (!Law::kConstant) springs[3] = select(valid & (dot(xi, xi) > 0), f.kt, zero);
      transpose(springs[0], springs[1], springs[2], springs[3]);
      for (int l = 0; l < lanes; ++l) store(h[l], springs[l]);
    }
    // The normal dashpot has no arm: only the tangential drag turns the bodies.
    const V3 arm = cross(normal, tangential), drag_arm = cross(normal, tangential_drag);
    // The loads are added as rows of four numbers (the layout of BodyLoad), one row for all
    // lanes at a time, lane by lane, since lanes may share a body: each number still takes its
    // additions in lane order.
    auto add_row = [&](int row, D4 a0, D4 a1, D4 a2, D4 a3, D4 b0, D4 b1, D4 b2, D4 b3) {
      transpose(a0, a1, a2, a3);
      transpose(b0, b1, b2, b3);
      const D4 a[4] = {a0, a1, a2, a3}, b[4] = {b0, b1, b2, b3};
#pragma GCC unroll 4
      for (int l = 0; l < lanes; ++l) {  // unrolled: the rows stay in registers
        if (!(touching >> l & 1)) continue;
        double* p = load[I[l]].row() + 4 * row;
        double* q = load[J[l]].row() + 4 * row;
        store(p, lanes::load(p) + a[l]);
        store(q, lanes::load(q) + b[l]);
      }
    };
    // Rows: force and torque x; torque y, z and drag x, y; drag z and drag torque.
    add_row(0, force.x, force.y, force.z, -ri * arm.x, -force.x, -force.y, -force.z, -rj * arm.x);
    add_row(1, -ri * arm.y, -ri * arm.z, drag.x, drag.y, -rj * arm.y, -rj * arm.z, -drag.x,
            -drag.y);
    add_row(2, drag.z, -ri * drag_arm.x, -ri * drag_arm.y, -ri * drag_arm.z, -drag.z,
            -rj * drag_arm.x, -rj * drag_arm.y, -rj * drag_arm.z);
    if (resistance) {
      for (int l = 0; l < lanes; ++l) {
        if (!(touching >> l & 1)) continue;
        BodyLoad& bp = load[I[l]];
        BodyLoad& bq = load[J[l]];
        const Vec3 n(normal.x[l], normal.y[l], normal.z[l]);
        const Vec3 spin = Vec3(wi[0][l], wi[1][l], wi[2][l]) - Vec3(wj[0][l], wj[1][l], wj[2][l]);
        const Vec3 f(force.x[l], force.y[l], force.z[l]);
        const double r_eff = ri[l] * rj[l] / reach[l];
        const Vec3 m = rolling_resistance(params, spin, n, n.dot(f), r_eff);
        for (int c = 0; c < 3; ++c)
          bp.torque[c] += m(c), bp.drag_torque[c] += m(c), bq.torque[c] -= m(c),
              bq.drag_torque[c] -= m(c);
      }
    }
    sums.contacts += __builtin_popcount(touching);
  }
  sums.potential = potential, sums.capped = capped;
}

template <class Law, bool Commit>
void touching_pairs(const MaterialLaws<Law>& laws, const ContactParams& params, PackedBodies bodies,
                    const int* neighbors, const int* pair_i, const int* pair_k, int count,
                    Spring* history, BodyLoad* load, PairLanes& sums) {
  if (laws.uniform())
    touching_pairs_of<Law, Commit, false>(laws, params, bodies, neighbors, pair_i, pair_k, count,
                                          history, load, sums);
  else
    touching_pairs_of<Law, Commit, true>(laws, params, bodies, neighbors, pair_i, pair_k, count,
                                         history, load, sums);
}

}  // namespace stepwise
