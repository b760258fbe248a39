#pragma once
// How contacts act in a scene (seed 004): `penalty`, the contact models' springs and dashpots
// (DEM: small steps, bodies overlap), or `impulse`, rigid contact (core/impulse): the contact
// models add no force and say where bodies touch; after each step impacts get Newton's impulse
// with restitution, resting contacts the impulses that keep them from closing (Coulomb friction
// on a circular cone), and what overlap the step left is taken out of the positions. A scene
// setting on the World, so every copy of a run carries it.
#include <string>
#include <vector>

#include "core/params.hpp"

namespace stepwise {

struct ContactTreatment {
  enum class Mode { penalty, impulse };
  // The resting contacts' solver: projected Gauss-Seidel with subspace minimisation for islands
  // of up to kExactRows points (exact there: a stack rests without creeping), Gauss-Seidel
  // alone (as Bullet and Box2D: cheaper, converging slowly on stacks), or Lemke's pivoting
  // method for islands of up to kPivotRows points (exact, for the friction cone replaced by a
  // pyramid of `facets` sides; larger islands as automatic).
  enum class Solver { automatic, pgs, lemke };
  Mode mode = Mode::penalty;
  double restitution = 0.5;  // Newton's coefficient: normal speed after / before an impact
  int iterations = 200;      // Gauss-Seidel sweeps at most, per phase
  Solver solver = Solver::automatic;
  int facets = 8;  // the friction pyramid's sides under lemke

  bool impulse() const { return mode == Mode::impulse; }
  static const std::vector<std::string>& mode_names();
  static const std::vector<std::string>& solver_names();  // auto, pgs, lemke
  std::string mode_name() const;
  // Each throws InputError naming `where`, the value and what it may be.
  void set_mode(const std::string& name, const std::string& where);
  // Options of the impulse treatment (scene files' [impulse] table, --set on the CLI):
  // restitution, iterations, solver, facets.
  void set_option(const std::string& key, const ParamValue& value, const std::string& where);
  void set_options(const ParamTable& table);  // every key of the table; unknown keys refused
  // A key=value that names the treatment (`contact`) or an impulse option (`impulse.KEY`, which
  // also chooses impulse), as the Compare panel's variants and `--set` give them. Returns false
  // for any other key (a scene parameter), leaving the treatment as it was.
  bool set_key(const std::string& key, const ParamValue& value, const std::string& where);
  void save_options(ParamTable& out) const;
  // Refuses `impulse`, or its options given (`asked`) whatever the mode (InputError, `where`
  // first), for a scene whose models do not list where bodies touch (World::lists_contacts):
  // it would act on nothing.
  void check(bool lists_contacts, const std::string& where, bool asked = false) const;
  bool operator==(const ContactTreatment& o) const {
    return mode == o.mode && restitution == o.restitution && iterations == o.iterations &&
           solver == o.solver && facets == o.facets;
  }
};

}  // namespace stepwise
