#pragma once
// Named materials of a scene (scene files' [[material]] tables). A body may be of one; the
// granular contact laws take a pair of bodies' coefficients from their two materials by the
// law's mixing rules, which a [[material_pair]] entry overrides for that pair. A material's
// density gives the mass of a body that names it and no mass.
#include <cstdint>
#include <string>
#include <vector>

#include "core/params.hpp"

namespace stepwise {

struct Material {
  std::string name;
  ParamTable
      keys;  // density and contact keys: E, nu, e, mu (hertz); kn, kt, gamma_n, gamma_t (hooke)
};
struct MaterialPair {
  int a, b;         // material ids (1-based, as World::material)
  ParamTable keys;  // what this pair overrides: e, mu; kn, kt, gamma_n, gamma_t
};

class Materials {
 public:
  // The keys a material may have, and a pair: anything else in a scene file is refused.
  static const std::vector<std::string>& material_keys();
  static const std::vector<std::string>& pair_keys();

  int size() const { return int(list_.size()); }
  bool empty() const { return list_.empty(); }
  const Material& at(int id) const { return list_.at(id - 1); }  // id 1..size()
  // The id of a named material; InputError naming `where` and the known names if there is none.
  int id(const std::string& name, const std::string& where) const;
  // Adds a material (keys checked: known, finite, in range); returns its id.
  int add(const std::string& name, const ParamTable& keys, const std::string& where);
  void add_pair(const std::string& a, const std::string& b, const ParamTable& keys,
                const std::string& where);
  // The override table of a pair of materials, or null.
  const ParamTable* pair(int a, int b) const;
  const std::vector<MaterialPair>& pairs() const { return pairs_; }
  // The keys a material was given that may change live (all but density), with their ranges.
  std::vector<Tunable> tunables(int id) const;
  // A live edit of one key (checked as add() checks it).
  void set(int id, const std::string& key, double value);
  // Changes with every add or set, so contact laws know to rebuild their pair tables.
  std::uint64_t version() const { return version_; }

 private:
  std::vector<Material> list_;
  std::vector<MaterialPair> pairs_;
  std::uint64_t version_ = 0;
};

}  // namespace stepwise
