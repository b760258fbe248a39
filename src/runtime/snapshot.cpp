#include "runtime/snapshot.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/bonds/bond_common.hpp"
#include "core/shapes/convex_hull.hpp"
#include "core/simulation.hpp"

namespace stepwise {
namespace {

Float3 to_float(const Vec3& v) {
  return {static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z())};
}

// A body's shape, drawn into the snapshot's instance lists (Shape::draw).
class SnapshotSink final : public DrawSink {
 public:
  SnapshotSink(Snapshot& out) : out_(out) {}
  void place(const Vec3& x, const Quat& q, int body) { x_ = x, q_ = q, body_ = body; }
  void sphere(const Vec3& centre, double radius) override {
    out_.spheres.push_back({to_float(x_ + q_ * centre), static_cast<float>(radius), body_});
  }
  void disk(const Vec3& centre, double radius) override {
    sphere(centre, radius);
    out_.spokes.push_back(
        {to_float(x_ + q_ * centre), to_float(x_ + q_ * (centre + radius * Vec3::UnitX()))});
  }
  void box(const Vec3& half_extents) override {
    out_.boxes.push_back({to_float(x_), orientation(), to_float(half_extents), body_});
  }
  void hull(const ConvexHull& hull) override {
    // Each distinct hull once, as triangles in its body frame; instances point at it.
    int mesh = 0;
    while (mesh < int(meshes_.size()) && meshes_[mesh] != &hull) ++mesh;
    if (mesh == int(meshes_.size())) {
      meshes_.push_back(&hull);
      std::vector<Float3> triangles;
      for (const ConvexHull::Face& f : hull.faces)
        for (size_t k = 1; k + 1 < f.corners.size(); ++k)
          for (int c : {f.corners[0], f.corners[k], f.corners[k + 1]})
            triangles.push_back(to_float(hull.vertices[c]));
      out_.meshes.push_back(std::move(triangles));
    }
    out_.hulls.push_back({to_float(x_), orientation(), mesh, body_});
  }

 private:
  Float4 orientation() const {
    return {float(q_.w()), float(q_.x()), float(q_.y()), float(q_.z())};
  }
  Snapshot& out_;
  std::vector<const ConvexHull*> meshes_;
  Vec3 x_ = Vec3::Zero();
  Quat q_ = Quat::Identity();
  int body_ = 0;
};

// n bodies to come: the instance lists emptied, a place for each.
void begin_bodies(Snapshot& out, int n) {
  out.bodies = n;
  out.spheres.clear();
  out.boxes.clear();
  out.hulls.clear();
  out.meshes.clear();
  out.position.resize(n);
}

// A shown body's figure (generalised coordinates: no force or spin is reported for them).
float shown_figure(const ForceModel::Shown& b, BodyFigure figure) {
  switch (figure) {
    case BodyFigure::Speed:
      return static_cast<float>(b.velocity.norm());
    case BodyFigure::KineticEnergy:
      return static_cast<float>(0.5 * b.mass * b.velocity.squaredNorm());
    default:
      return 0;
  }
}

// Generalised coordinates: the bodies they stand for, drawn and listed in their place.
bool fill_shown(const World& world, const SnapshotDetail& detail, Snapshot& out) {
  std::vector<ForceModel::Shown> shown;
  for (const auto& model : world.forces)
    if (model->shown_bodies(world, shown)) break;
  if (shown.empty()) return false;
  const int n = static_cast<int>(shown.size());
  begin_bodies(out, n);
  out.fixed.assign(n, 0);
  out.material.assign(n, 0);
  out.ids.clear();
  for (int i = 0; i < n; ++i) {
    out.position[i] = to_float(shown[i].position);
    out.spheres.push_back({out.position[i], static_cast<float>(shown[i].radius), i});
  }
  out.figures.resize(out.figure == BodyFigure::None ? 0 : n);
  for (int i = 0; i < int(out.figures.size()); ++i)
    out.figures[i] = shown_figure(shown[i], out.figure);
  if (detail.detailed >= 0 && detail.detailed < n) {
    const ForceModel::Shown& b = shown[detail.detailed];
    out.detail.body = detail.detailed;
    out.detail.velocity = to_float(b.velocity);
    out.detail.mass = static_cast<float>(b.mass);
    out.detail.kinetic_energy = shown_figure(b, BodyFigure::KineticEnergy);
  }
  return true;
}

// Every body's figure for the colour mode in use (out.figure).
void fill_figures(Simulation& sim, Snapshot& out) {
  const World& world = sim.world();
  const int n = world.size();
  out.figures.resize(out.figure == BodyFigure::None ? 0 : n);
  auto each = [&](auto&& figure) {
    for (int i = 0; i < int(out.figures.size()); ++i)
      out.figures[i] = static_cast<float>(figure(i));
  };
  switch (out.figure) {
    case BodyFigure::Speed:
      return each([&](int i) { return world.v.col(i).norm(); });
    case BodyFigure::AngularSpeed:
      return each([&](int i) { return world.w.col(i).norm(); });
    case BodyFigure::KineticEnergy:
      return each([&](int i) { return world.kinetic_energy(i); });
    case BodyFigure::Force: {
      const Positions& force = sim.forces();
      return each([&](int i) { return force.col(i).norm(); });
    }
    case BodyFigure::None:
      return;
  }
}

void fill_bodies(Simulation& sim, const SnapshotDetail& detail, Snapshot& out) {
  const World& world = sim.world();
  out.dimensions = world.dimensions;
  out.spokes.clear();
  out.figure = detail.figure;
  out.detail = BodyDetail();
  if (fill_shown(world, detail, out)) return;
  sim.forces();  // the step's evaluation, if none yet: the models' contact lists come from it
  const int n = world.size();
  begin_bodies(out, n);
  SnapshotSink sink(out);
  out.fixed.resize(n);
  out.material.assign(world.material.begin(), world.material.end());
  out.ids = world.ids;
  for (int i = 0; i < n; ++i) {
    const Vec3 x = world.x.col(i);
    out.position[i] = to_float(x);
    out.fixed[i] = world.flags[i] & kFixed ? 1 : 0;
    // Most bodies are spheres: no call through the shape (disks are drawn with their spoke).
    if (world.shape[i]->type() == sphere_type() && !world.shape[i]->planar()) {
      out.spheres.push_back({out.position[i], static_cast<float>(world.radius(i)), i});
      continue;
    }
    sink.place(x, world.q[i], i);
    world.shape[i]->draw(sink);
  }
  fill_figures(sim, out);
  if (detail.detailed >= 0 && detail.detailed < n) {
    const int i = detail.detailed;
    out.detail = {i,
                  to_float(world.v.col(i)),
                  to_float(world.w.col(i)),
                  to_float(sim.forces().col(i)),
                  to_float(sim.torques().col(i)),
                  static_cast<float>(world.mass(i)),
                  static_cast<float>(world.kinetic_energy(i))};
  }
}

void fill_bonds(const World& world, Snapshot& out) {
  out.bonds.clear();
  const std::vector<BondReport> reports = bond_reports(world);
  double max_n = 0, max_s = 0, max_t = 0, max_b = 0;
  for (const BondReport& r : reports) {
    max_n = std::max(max_n, std::abs(r.normal_force));
    max_s = std::max(max_s, std::abs(r.shear_force));
    max_t = std::max(max_t, std::abs(r.twist_torque));
    max_b = std::max(max_b, std::abs(r.bend_torque));
  }
  auto relative = [](double value, double max) { return max > 0 ? std::abs(value) / max : 0.0; };
  for (const BondReport& r : reports) {
    const double load = std::max({relative(r.normal_force, max_n), relative(r.shear_force, max_s),
                                  relative(r.twist_torque, max_t), relative(r.bend_torque, max_b)});
    out.bonds.push_back({r.i, r.j, static_cast<float>(load), static_cast<float>(r.twist),
                         static_cast<float>(r.bend), r.broken, float(r.stretch), float(r.shear),
                         float(r.plane), float(r.normal_force), float(r.shear_force),
                         float(r.twist_torque), float(r.bend_torque)});
  }
}

// The contact models' lists, or under rigid contact the impulse solver's (the models' own are
// then what they last found as springs, before the switch).
void fill_contacts(const Simulation& sim, Snapshot& out) {
  const World& world = sim.world();
  static thread_local std::vector<ForceModel::ContactForce> contacts;
  contacts.clear();
  if (world.contact.impulse())
    sim.rigid_contact_forces(contacts);
  else
    for (const auto& model : world.forces) model->contact_forces(world, contacts);
  for (const auto& c : contacts)
    if (c.j >= 0) out.contacts.push_back({c.i, c.j, static_cast<float>(c.normal_force)});
}

void fill_inspected(const Simulation& sim, int body, Snapshot& out) {
  const World& world = sim.world();
  out.inspected = body >= 0 && body < world.size() ? body : -1;
  out.inspected_contacts.clear();
  if (out.inspected < 0) return;
  static thread_local std::vector<ForceModel::ContactReport> points;
  points.clear();
  if (world.contact.impulse())
    sim.rigid_contact_points(body, points);
  else
    for (const auto& model : world.forces) model->contact_points(world, body, points);
  for (const auto& p : points)
    out.inspected_contacts.push_back({p.other, to_float(p.position), to_float(p.normal),
                                      static_cast<float>(p.depth),
                                      static_cast<float>(p.normal_force)});
}

void fill_models(Simulation& sim, Snapshot& out) {
  const World& world = sim.world();
  out.walls.clear();
  out.springs.clear();
  out.centres.clear();
  out.models.clear();
  out.materials.clear();
  for (int m = 1; m <= world.materials.size(); ++m)
    out.materials.push_back({world.materials.at(m).name, world.materials.tunables(m), {}});
  out.dragged_body = -1;
  Vec3 gravity = Vec3::Zero();
  for (const auto& model : world.forces) {
    out.models.push_back({model->kind(), model->tunables(), {}});
    ParamTable saved;
    model->save(saved);
    if (model->kind() == "gravity") gravity += saved.vec3("g", Vec3::Zero());
    if (model->kind() == "mouse-spring") {
      out.dragged_body = saved.index("body");
      out.drag_target = to_float(saved.vec3("target", Vec3::Zero()));
    }
    if (saved.has("center")) out.centres.push_back(to_float(saved.vec3("center", Vec3::Zero())));
    std::vector<ForceModel::Segment> segments;
    model->segments(world, segments);
    for (const auto& segment : segments)
      out.springs.push_back({to_float(segment.from), to_float(segment.to)});
    model->figures(world, out.models.back().figures);
    if (!saved.has("wall")) continue;
    for (const ParamTable& wall : saved.tables("wall")) {
      const Vec3 point =
          wall.vec3("point", Vec3::Zero()) + sim.time() * wall.vec3("velocity", Vec3::Zero());
      out.walls.push_back({to_float(point), to_float(wall.vec3("normal", Vec3::UnitZ()))});
    }
  }
  gravity.z() = 0;  // in the plane (a 2-D scene's down; 3-D scenes do not read it)
  out.down = gravity.norm() > 0 ? to_float(gravity.normalized()) : Float3{};
  out.integrator_options = sim.integrator().options();
  out.contact = sim.world().contact;
  out.lists_contacts = sim.world().lists_contacts();
  out.impulse = sim.impulse_figures();
  out.impulses_in_drift = sim.impulses_in_drift();
}

}  // namespace

void fill_snapshot(Simulation& sim, Snapshot& out, const SnapshotDetail& detail) {
  out.integrator = sim.integrator_name();
  out.rotation = sim.rotation_name();
  out.dt = sim.dt();
  const Simulation::Stiffest stiffest = sim.stiffest();
  out.omega_now = out.omega_worst = stiffest.omega;  // the worker widens the worst over time
  out.stability_limit = sim.integrator().stability_limit();
  out.stiffest_i = stiffest.i;
  out.stiffest_j = stiffest.j;
  out.time = sim.time();
  out.step = sim.step_count();
  out.energy = sim.energy();
  fill_bodies(sim, detail, out);
  fill_bonds(sim.world(), out);
  fill_models(sim, out);
  out.contacts.clear();
  if (detail.contacts) fill_contacts(sim, out);
  fill_inspected(sim, detail.inspected, out);
}

}  // namespace stepwise
