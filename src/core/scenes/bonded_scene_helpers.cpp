#include "core/scenes/bonded_scene_helpers.hpp"

#include "core/bonds/bond_common.hpp"
#include "core/scene.hpp"

namespace stepwise {

void add_bond_params(std::vector<ParamSpec>& params, double stiffness, double damping) {
  params.push_back({"kr", stiffness, "bond normal stiffness K_r"});
  params.push_back({"ks", stiffness, "bond shear stiffness K_s"});
  params.push_back({"kt", stiffness, "bond twisting stiffness K_t"});
  params.push_back({"kb", stiffness, "bond bending stiffness K_b"});
  params.push_back({"damping", damping, "viscous damping of each bond interaction (fraction of critical)"});
  params.push_back({"bond.model", std::string("finite"), "'finite' (Wang 2008) or 'incremental'"});
  params.push_back({"local_damping", 0.0, "PFC local damping alpha of every free body (0 = off)"});
}

void add_bonds(World& world, const ParamTable& p, const std::vector<std::pair<int, int>>& pairs) {
  const std::string model = p.text("bond.model", "finite");
  if (model != "finite" && model != "incremental")
    throw InputError(p.where() + ": 'bond.model' must be 'finite' or 'incremental' (got '" + model + "')");
  ParamTable table(p.where());
  for (const char* key : {"kr", "ks", "kt", "kb", "damping"}) table.set(key, positive(p, key, true));
  std::vector<ParamTable> bonds;
  for (const auto& [i, j] : pairs) bonds.push_back(BondModel::bond_entry(world, i, j));
  table.set("bond", bonds);
  world.add_force(ForceRegistry::instance().make("bond-" + model, table));
  world.local_damping = positive(p, "local_damping", true);
  if (world.local_damping >= 1) throw InputError(p.where() + ": 'local_damping' must be below 1");
}

void add_bonded_cube_row(World& world, const ParamTable& p, int n,
                         const std::function<void(int, BodySpec&)>& customise) {
  std::vector<std::pair<int, int>> pairs;
  for (int k = 0; k < n; ++k) {
    BodySpec cube;
    cube.shape = box_shape(Vec3::Constant(0.5));
    cube.mass = 1.0;
    cube.position = Vec3(k, 0, 0);
    customise(k, cube);
    world.add_body(cube);
    if (k > 0) pairs.push_back({k, k - 1});  // body k bonded to its predecessor (the reference)
  }
  add_bonds(world, p, pairs);
}

}  // namespace stepwise
