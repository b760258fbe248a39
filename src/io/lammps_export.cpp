#include "io/lammps_export.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>

#include "io/atomic_file.hpp"

namespace stepwise {
namespace {

struct Granular {
  const ForceModel* model = nullptr;
  std::vector<ParamTable> pair_laws, wall_laws;  // per-type decks: ForceModel::pair_laws
  double kn = 0, kt = 0, gamma_n = 0, gamma_t = 0, mu = 0, skin = 0.1;
  std::vector<ParamTable> walls;
};

std::string num(double v) { return format_double(v); }

// "xplane lo NULL" for a wall with normal +x at x = lo, and so on.
std::string wall_args(const ParamTable& wall, const std::string& where) {
  const Vec3 n = wall.vec3("normal", Vec3::UnitZ()).normalized();
  const Vec3 p = wall.vec3("point", Vec3::Zero());
  if (wall.has("velocity")) throw InputError(where + ": moving walls are not exported to LAMMPS");
  for (int axis = 0; axis < 3; ++axis) {
    const char* name[] = {"xplane", "yplane", "zplane"};
    if (std::abs(std::abs(n(axis)) - 1) > 1e-12) continue;
    return std::string(name[axis]) + (n(axis) > 0 ? " " + num(p(axis)) + " NULL" : " NULL " + num(p(axis)));
  }
  throw InputError(where + ": LAMMPS' wall/gran takes axis-aligned planes only");
}

// A pair of materials' hooke law in pair granular's words, with gran/hooke/history's damping:
// gamma_n times the effective mass (damping mass_velocity), the tangential dashpot xgammat times
// the normal one.
std::string granular_args(const ParamTable& law, const std::string& where) {
  const double gamma_n = law.number("gamma_n"), gamma_t = law.number("gamma_t");
  if (gamma_n == 0 && gamma_t > 0)
    throw InputError(where + ": gamma_t > 0 with gamma_n = 0 has no counterpart in LAMMPS' pair " +
                     "granular (its tangential damping is a multiple of the normal damping)");
  return "hooke " + num(law.number("kn")) + " " + num(gamma_n) + " tangential linear_history " +
         num(law.number("kt")) + " " + num(gamma_n > 0 ? gamma_t / gamma_n : 0.0) + " " +
         num(law.number("mu")) + " damping mass_velocity";
}

std::string material_name(const World& world, int m) {
  return m == 0 ? "no material (the hooke model's own coefficients)"
                : "material '" + world.materials.at(m).name + "'";
}

// Scenes with materials, or walls of a material or rigid: an atom type per material (type 1:
// bodies of none) and LAMMPS' pair granular with each pair of types' law, a wall/gran fix per
// wall and type. The laws are the contact model's own (ForceModel::pair_laws), mixed as it mixes.
void write_pair_types(const World& world, const Granular& g, const std::string& what,
                      std::ostream& in) {
  const int types = world.materials.size() + 1;
  for (int a = 0; a < types; ++a)
    in << "# type " << a + 1 << ": " << material_name(world, a) << "\n";
  in << "pair_style granular\n";
  for (int a = 0; a < types; ++a)
    for (int b = a; b < types; ++b) {
      in << "pair_coeff " << a + 1 << " " << b + 1 << " "
         << granular_args(g.pair_laws[size_t(a) * types + b], what + ": " + material_name(world, a) + " with " +
                                   material_name(world, b))
         << "\n";
    }
}

void write_wall_types(const World& world, const Granular& g, const std::string& what,
                      std::ostream& in) {
  const int types = world.materials.size() + 1;
  std::vector<bool> used(types, false);
  for (int i = 0; i < world.size(); ++i) used[world.material[i]] = true;
  for (int a = 0; a < types; ++a)
    if (used[a] && !g.walls.empty()) in << "group type" << a + 1 << " type " << a + 1 << "\n";
  for (size_t w = 0; w < g.walls.size(); ++w)
    for (int a = 0; a < types; ++a) {
      if (!used[a]) continue;
      const std::string where = what + " wall " + std::to_string(w);
      in << "fix wall" << w << "_" << a + 1 << " type" << a + 1 << " wall/gran granular "
         << granular_args(g.wall_laws[w * types + a], where + " with " + material_name(world, a)) << " "
         << wall_args(g.walls[w], where) << "\n";
    }
}

}  // namespace

LammpsExport export_lammps(Simulation& sim, const std::string& folder, long steps, long thermo_every) {
  const World& world = sim.world();
  const std::string what = "LAMMPS export";
  Granular g;
  bool have_contacts = false;
  Vec3 gravity = Vec3::Zero();
  for (const auto& model : world.forces) {
    ParamTable p;
    model->save(p);
    if (model->kind() == "hooke") {
      if (have_contacts) throw InputError(what + ": only one contact model is supported");
      have_contacts = true;
      g.model = model.get();
      g.kn = p.number("kn");
      g.kt = p.number("kt");
      g.gamma_n = p.number("gamma_n");
      g.gamma_t = p.number("gamma_t");
      g.mu = p.number("mu");
      if (p.number("mu_roll", 0.0) > 0 || p.number("mu_twist", 0.0) > 0)
        throw InputError(what + ": rolling and twisting resistance are not in LAMMPS' gran/hooke/history");
      // gran/hooke/history rescales the spring at the cap with the dashpot kept, and lets the
      // normal force pull: the scene must say so too, or LAMMPS would run other physics.
      if (p.text("coulomb", "lammps") != "lammps" || p.flag("limit_force", false))
        throw InputError(what + ": coulomb = \"exact\" and limit_force have no counterpart in " +
                         "LAMMPS' gran/hooke/history (set coulomb = \"lammps\", limit_force = false)");
      g.skin = p.number("skin");
      if (p.has("wall")) g.walls = p.tables("wall");
    } else if (model->kind() == "gravity") {
      gravity += p.vec3("g", Vec3::Zero());
    } else {
      throw InputError(what + ": force model '" + model->kind() +
                       "' has no LAMMPS counterpart here (supported: hooke contacts, walls, gravity)");
    }
  }
  // Per-type coefficients (pair granular) only where the scene needs them: one set of
  // coefficients keeps gran/hooke/history, as the LAMMPS benchmark runs it.
  const bool per_type =
      have_contacts && (!world.materials.empty() ||
                        std::any_of(g.walls.begin(), g.walls.end(), [](const ParamTable& w) {
                          return w.has("material") || w.flag("rigid", false);
                        }));
  const int types = per_type ? world.materials.size() + 1 : 1;
  if (per_type) g.model->pair_laws(world, g.pair_laws, g.wall_laws);
  const bool plane = world.dimensions == 2;
  for (int i = 0; i < world.size(); ++i) {
    if (world.shape[i]->type() != sphere_type() || world.shape[i]->planar() != plane)
      throw InputError(what + ": body " + std::to_string(world.id(i)) + " is not a " +
                       (plane ? "disk" : "sphere"));
    if (world.flags[i])
      throw InputError(what + ": body " + std::to_string(world.id(i)) + " is fixed or driven");
    const Vec3 own = world.mass(i) * world.shape[i]->unit_inertia();
    if ((world.inertia.col(i) - own).norm() > 1e-12 * own.norm())
      throw InputError(what + ": body " + std::to_string(world.id(i)) +
                       " has its own moment of inertia " + "(LAMMPS' " +
                       (plane ? "disks have 1/2" : "spheres have 2/5") + " m r^2)");
  }
  if (sim.integrator_name() != "velocity-verlet")
    throw InputError(what + ": LAMMPS runs Velocity Verlet (fix nve/sphere); choose --integrator velocity-verlet");

  // A box around the bodies and walls; boundaries shrink-wrap, so bodies may leave it.
  Vec3 low = Vec3::Constant(1e300), high = Vec3::Constant(-1e300);
  for (int i = 0; i < world.size(); ++i) {
    low = low.cwiseMin(world.x.col(i) - Vec3::Constant(world.radius(i)));
    high = high.cwiseMax(world.x.col(i) + Vec3::Constant(world.radius(i)));
  }
  for (const ParamTable& w : g.walls) {
    low = low.cwiseMin(w.vec3("point", Vec3::Zero()));
    high = high.cwiseMax(w.vec3("point", Vec3::Zero()));
  }
  low -= Vec3::Constant(0.5);
  high += Vec3::Constant(0.5);
  if (plane) low.z() = -0.5, high.z() = 0.5;  // LAMMPS' 2-D box: periodic in z about z = 0

  std::ostringstream data;
  data << "LAMMPS data file written by stepwise (scene at t = " << num(sim.time()) << ")\n\n";
  data << world.size() << " atoms\n" << types << " atom types\n\n";
  data << num(low.x()) << " " << num(high.x()) << " xlo xhi\n" << num(low.y()) << " " << num(high.y())
       << " ylo yhi\n" << num(low.z()) << " " << num(high.z()) << " zlo zhi\n\nAtoms # sphere\n\n";
  // read_data takes the density per volume (LAMMPS 2021 in 2-D too): the sphere's that gives the
  // body's mass. 2-D decks then set the disks' area density where it is one for all.
  // (NaN: none, or not one for all. A double, not an optional: GCC 12 warned it uninitialised.)
  double disc_density = std::numeric_limits<double>::quiet_NaN();
  for (int i = 0; i < world.size() && plane; ++i) {
    const double rho = world.mass(i) / (M_PI * world.radius(i) * world.radius(i));
    if (i == 0) disc_density = rho;
    else if (disc_density != rho) disc_density = std::numeric_limits<double>::quiet_NaN();
  }
  for (int i = 0; i < world.size(); ++i) {
    const double r = world.radius(i);
    const double density = world.mass(i) / (4.0 / 3.0 * M_PI * r * r * r);
    data << world.id(i) + 1 << " " << (per_type ? world.material[i] + 1 : 1) << " " << num(2 * r)
         << " " << num(density) << " " << num(world.x(0, i)) << " " << num(world.x(1, i)) << " "
         << num(world.x(2, i)) << "\n";
  }
  data << "\nVelocities\n\n";
  for (int i = 0; i < world.size(); ++i)
    data << world.id(i) + 1 << " " << num(world.v(0, i)) << " " << num(world.v(1, i)) << " "
         << num(world.v(2, i)) << " " << num(world.w(0, i)) << " " << num(world.w(1, i)) << " "
         << num(world.w(2, i)) << "\n";

  const std::string contact = num(g.kn) + " " + num(g.kt) + " " + num(g.gamma_n) + " " +
                              num(g.gamma_t) + " " + num(g.mu) + " 1";
  std::ostringstream in;
  in << "# LAMMPS input written by stepwise: continue this scene at scale (mpirun -np N lmp -in in.scene)\n";
  in << "units lj\n" << (plane ? "dimension 2\n" : "") << "atom_style sphere\natom_modify map array\n"
     << (plane ? "boundary m m p\n" : "boundary m m m\n") << "comm_modify vel yes\n";
  in << "newton off\nread_data scene.data\n";
  if (!std::isnan(disc_density)) in << "set group all density/disc " << num(disc_density) << "\n";
  in << "\n";
  if (per_type) {
    write_pair_types(world, g, what, in);
  } else if (have_contacts) {
    in << "pair_style gran/hooke/history " << contact << "\npair_coeff * *\n";
  } else {
    in << "pair_style zero 1.0\npair_coeff * *\n";
  }
  in << "neighbor " << num(std::max(g.skin, 1e-3)) << " bin\nneigh_modify delay 0 every 1 check yes\n";
  // Disks: I = 1/2 m r^2 (nve/sphere's disc); enforce2d (below, after every fix that adds a
  // force) holds them in the plane as the 2-D world does.
  in << "timestep " << num(sim.dt()) << "\nfix integrate all nve/sphere" << (plane ? " disc" : "") << "\n";
  if (gravity.norm() > 0) {
    const Vec3 d = gravity.normalized();
    in << "fix gravity all gravity " << num(gravity.norm()) << " vector " << num(d.x()) << " "
       << num(d.y()) << " " << num(d.z()) << "\n";
  }
  if (per_type) write_wall_types(world, g, what, in);
  for (size_t k = 0; k < g.walls.size() && !per_type; ++k)
    in << "fix wall" << k << " all wall/gran hooke/history " << contact << " "
       << wall_args(g.walls[k], what + " wall " + std::to_string(k)) << "\n";
  if (plane) in << "fix plane all enforce2d\n";
  in << "compute erot all erotate/sphere\n";
  // erotate/sphere counts 2/5 m r^2 whatever the dimension: a disk's spin energy is 5/4 of it.
  if (plane) in << "variable erot equal 1.25*c_erot\n";
  in << "thermo_style custom step atoms ke " << (plane ? "v_erot" : "c_erot")
     << "\nthermo_modify norm no format float %.15g\n";
  in << "thermo " << std::max(1L, thermo_every) << "\nrun " << steps << "\n";

  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) throw InputError(what + ": cannot create folder " + folder);
  LammpsExport out{folder + "/scene.data", folder + "/in.scene"};
  write_file_atomically(out.data_file, data.str());
  write_file_atomically(out.input_file, in.str());
  return out;
}

}  // namespace stepwise
