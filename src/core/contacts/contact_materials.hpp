#pragma once
// A granular model's laws per pair of materials (core/materials.hpp): material 0 is the model's
// own coefficients (bodies that name no material); each named material's law is the model's
// with the keys it gives; a pair's law comes from the two by the law's mixing rule (Law::mix),
// then its [[material_pair]] overrides. A wall is of the bodies' material (the default), of a
// named one, or rigid (E -> infinity: the body alone sets the stiffness).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/contacts/spring_dashpot.hpp"
#include "core/world.hpp"

namespace stepwise {

// What a wall is made of, as its [[force.wall]] table says.
struct WallMaterial {
  std::string name;  // empty: the touching body's own material
  bool rigid = false;
};

template <class Law>
class MaterialLaws {
 public:
  // Whether the table is out of date for this World (its materials changed, or the model's own
  // coefficients did: `own_version` counts the model's edits).
  bool stale(const World& world, std::uint64_t own_version) const {
    return built_ != world.materials.version() || own_ != own_version || count_ == 0;
  }
  // The table for `world`'s materials; InputError if a wall names a material it does not have.
  void build(const World& world, const PairLaw<Law>& own, const std::vector<WallMaterial>& walls,
             std::uint64_t own_version) {
    const Materials& materials = world.materials;
    count_ = materials.size() + 1;
    std::vector<PairLaw<Law>> single{own};
    for (int m = 1; m < count_; ++m) {
      const ParamTable& keys = materials.at(m).keys;
      single.push_back({Law(keys, &own.law), keys.number("mu", own.mu)});
    }
    table_.clear();
    for (int a = 0; a < count_; ++a)
      for (int b = 0; b < count_; ++b) table_.push_back(pair_law(materials, single, a, b, false));
    walls_.clear();
    for (const WallMaterial& wall : walls) {
      const int w = wall.name.empty() ? -1 : materials.id(wall.name, "wall");
      for (int m = 0; m < count_; ++m)
        walls_.push_back(w < 0 && !wall.rigid ? table_[size_t(m) * count_ + m]
                                              : pair_law(materials, single, m, w, wall.rigid));
    }
    // Every contact of a scene without materials or special walls reads one law.
    uniform_ = count_ == 1 && std::all_of(walls.begin(), walls.end(), [](const WallMaterial& w) {
                 return w.name.empty() && !w.rigid;
               });
    built_ = materials.version();
    own_ = own_version;
  }

  bool uniform() const { return uniform_; }
  const PairLaw<Law>& pair(int a, int b) const { return table_[size_t(a) * count_ + b]; }
  const PairLaw<Law>& wall(int w, int m) const { return walls_[size_t(w) * count_ + m]; }
  const std::vector<PairLaw<Law>>& all() const { return table_; }
  const std::vector<PairLaw<Law>>& all_walls() const { return walls_; }

  // Four pairs' laws: bodies I[l] and J[l], of the materials in `material`.
  LaneLaws<Law> lanes(const std::uint16_t* material, const int* I, const int* J) const {
    if (uniform_) return uniform_laws(table_[0]);
    LaneLaws<Law> out;
    for (int l = 0; l < 4; ++l) out.lane[l] = &pair(material[I[l]], material[J[l]]);
    out.uniform =
        out.lane[0] == out.lane[1] && out.lane[0] == out.lane[2] && out.lane[0] == out.lane[3];
    return out;
  }
  // Four body-wall contacts' laws.
  LaneLaws<Law> wall_lanes(const std::uint16_t* material, const int* I, const int* W) const {
    if (uniform_) return uniform_laws(table_[0]);
    LaneLaws<Law> out;
    for (int l = 0; l < 4; ++l) out.lane[l] = &wall(W[l], material[I[l]]);
    out.uniform =
        out.lane[0] == out.lane[1] && out.lane[0] == out.lane[2] && out.lane[0] == out.lane[3];
    return out;
  }

 private:
  // Materials a and b (b = -1: a rigid wall of no material, so a's own e and mu).
  static PairLaw<Law> pair_law(const Materials& materials, const std::vector<PairLaw<Law>>& single,
                               int a, int b, bool rigid) {
    if (!rigid && a == b && !materials.pair(a, b)) return single[a];  // a material against itself
    const PairLaw<Law>& pa = single[a];
    const PairLaw<Law>& pb = b < 0 ? pa : single[b];
    PairLaw<Law> out{Law::mix(pa.law, pb.law, rigid), std::min(pa.mu, pb.mu)};
    if (const ParamTable* keys = a > 0 && b > 0 ? materials.pair(a, b) : nullptr) {
      out.law.override_pair(*keys);
      out.mu = keys->number("mu", out.mu);
    }
    return out;
  }

  std::vector<PairLaw<Law>> table_;  // [a * count_ + b]
  std::vector<PairLaw<Law>> walls_;  // [w * count_ + m]
  int count_ = 0;                    // materials + 1
  bool uniform_ = true;
  std::uint64_t built_ = ~std::uint64_t{0}, own_ = 0;
};

}  // namespace stepwise
