#include "core/scenes/constrained_scene_helpers.hpp"

#include <cmath>

namespace stepwise {

Formulation read_formulation(const ParamTable& p) {
  const std::string f = p.text("formulation", "multipliers");
  if (f == "multipliers") return Formulation::multipliers;
  if (f == "penalty") return Formulation::penalty;
  if (f == "generalised") return Formulation::generalised;
  throw InputError(p.where("formulation") +
                   ": formulation must be 'multipliers', 'penalty' or 'generalised' (got '" + f +
                   "')");
}

double degrees(const ParamTable& p, const std::string& key, double limit) {
  const double value = p.number(key);
  if (!(std::abs(value) <= limit))
    throw InputError(p.where(key) + ": parameter '" + key + "' must be within +-" +
                     format_double(limit) + " degrees (got " + format_double(value) + ")");
  return value * M_PI / 180.0;
}

void add_constraints(World& world, const std::vector<ParamTable>& constraints,
                     const ParamTable& p) {
  const std::string drift = p.text("drift", "none");
  if (drift != "none" && drift != "baumgarte" && drift != "projection" && drift != "rattle")
    throw InputError(p.where("drift") +
                     ": parameter 'drift' must be none, baumgarte, projection "
                     "or rattle (got '" +
                     drift + "')");
  ParamTable model;
  model.set("constraint", constraints);
  model.set("drift", p.text("drift", "none"));
  world.add_force(ForceRegistry::instance().make("constraints", model));
}

void add_links(World& world, const std::vector<Link>& links, Formulation f, const ParamTable& p) {
  std::vector<ParamTable> tables;
  for (const Link& l : links) {
    ParamTable t;
    t.set("a", double(l.a));
    if (l.b >= 0)
      t.set("b", double(l.b));
    else
      t.set("anchor", std::vector<double>{l.anchor.x(), l.anchor.y(), l.anchor.z()});
    if (f == Formulation::penalty) {
      t.set("k", positive(p, "k"));
      t.set("rest", l.length);
    } else {
      t.set("kind", std::string("rod"));
      t.set("length", l.length);
    }
    tables.push_back(t);
  }
  if (f == Formulation::multipliers) return add_constraints(world, tables, p);
  ParamTable spring;
  spring.set("link", tables);
  world.add_force(ForceRegistry::instance().make("spring", spring));
}

void add_angle_chain(World& world, const Vec3& anchor, const std::vector<double>& angles,
                     const std::vector<double>& lengths, const std::vector<double>& masses,
                     double g, double radius) {
  for (double angle : angles) {
    BodySpec coordinate;  // x holds the angle, v its rate; unit mass so a = the model's force
    coordinate.mass = 1;
    coordinate.radius = radius;
    coordinate.position = Vec3(angle, 0, 0);
    world.add_body(coordinate);
  }
  ParamTable model;
  model.set("anchor", std::vector<double>{anchor.x(), anchor.y(), anchor.z()});
  model.set("g", g);
  model.set("lengths", lengths);
  model.set("masses", masses);
  model.set("radius", radius);
  world.add_force(ForceRegistry::instance().make("pendulum-angles", model));
}

std::vector<ParamSpec> constraint_params(bool penalty) {
  std::vector<ParamSpec> out{
      {"drift", std::string("rattle"),
       "drift control: none, baumgarte, projection or rattle (RATTLE needs velocity Verlet)"}};
  if (penalty) {
    out.insert(out.begin(), {"formulation", std::string("multipliers"),
                             "multipliers (rigid rods), penalty (stiff springs) or generalised "
                             "(the links' angles)"});
    out.push_back({"k", 1e5, "penalty spring stiffness (formulation = penalty)"});
  }
  return out;
}

}  // namespace stepwise
