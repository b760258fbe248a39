#include "core/materials.hpp"

#include <algorithm>
#include <cmath>

#include "core/limits.hpp"

namespace stepwise {
namespace {

bool listed(const std::vector<std::string>& names, const std::string& key) {
  return std::find(names.begin(), names.end(), key) != names.end();
}

// Each key's range: moduli and stiffnesses up to 1e30 (E, density and kn above 0), a Poisson
// ratio of a stable solid, restitution in (0, 1].
std::pair<double, double> range(const std::string& key) {
  if (key == "nu") return {-0.99, 0.49};
  if (key == "e") return {1e-3, 1};
  if (key == "mu") return {0, 1e3};
  if (key == "E" || key == "density" || key == "kn") return {1e-300, 1e30};
  return {0, 1e30};
}

void check(const std::string& where, const std::string& key, double value) {
  const auto [low, high] = range(key);
  limits::checked(where + ": " + key, value, low, high);
}

const char* describe(const std::string& key) {
  if (key == "E") return "Young's modulus";
  if (key == "nu") return "Poisson ratio";
  if (key == "e") return "coefficient of restitution (the smaller of a pair's two)";
  if (key == "mu") return "friction coefficient (the smaller of a pair's two)";
  if (key == "kn") return "normal stiffness of a contact of two bodies of it";
  if (key == "kt") return "tangential stiffness of a contact of two bodies of it";
  if (key == "gamma_n") return "normal damping rate";
  return "tangential damping rate";
}

}  // namespace

const std::vector<std::string>& Materials::material_keys() {
  static const std::vector<std::string> keys = {"density", "E",  "nu",      "e",      "mu",
                                                "kn",      "kt", "gamma_n", "gamma_t"};
  return keys;
}

const std::vector<std::string>& Materials::pair_keys() {
  static const std::vector<std::string> keys = {"e", "mu", "kn", "kt", "gamma_n", "gamma_t"};
  return keys;
}

int Materials::id(const std::string& name, const std::string& where) const {
  for (int k = 0; k < size(); ++k)
    if (list_[k].name == name) return k + 1;
  std::string known;
  for (const Material& m : list_) known += (known.empty() ? "" : ", ") + m.name;
  throw InputError(where + ": no material named '" + name + "'" +
                   (known.empty() ? " (the scene defines none: add a [[material]])"
                                  : " (known: " + known + ")"));
}

int Materials::add(const std::string& name, const ParamTable& keys, const std::string& where) {
  if (name.empty()) throw InputError(where + ": a material needs name = \"...\"");
  for (const Material& m : list_)
    if (m.name == name) throw InputError(where + ": material '" + name + "' is defined twice");
  if (size() >= 1000) throw InputError(where + ": at most 1000 materials in a scene");
  for (const auto& [key, value] : keys.values()) {
    if (!listed(material_keys(), key))
      throw InputError(keys.where(key) + ": a material has no key '" + key + "' (it has density, " +
                       "E, nu, e, mu for hertz; kn, kt, gamma_n, gamma_t, mu for hooke)");
    check(keys.where(key), key, keys.number(key));
  }
  list_.push_back({name, keys});
  ++version_;
  return size();
}

void Materials::add_pair(const std::string& a, const std::string& b, const ParamTable& keys,
                         const std::string& where) {
  MaterialPair pair{id(a, where), id(b, where), keys};
  if (this->pair(pair.a, pair.b))
    throw InputError(where + ": the pair '" + a + "', '" + b + "' is given twice");
  for (const auto& [key, value] : keys.values()) {
    if (!listed(pair_keys(), key))
      throw InputError(keys.where(key) + ": a material pair has no key '" + key +
                       "' (it has e, mu; kn, kt, gamma_n, gamma_t for hooke)");
    check(keys.where(key), key, keys.number(key));
  }
  pairs_.push_back(pair);
  ++version_;
}

const ParamTable* Materials::pair(int a, int b) const {
  for (const MaterialPair& p : pairs_)
    if ((p.a == a && p.b == b) || (p.a == b && p.b == a)) return &p.keys;
  return nullptr;
}

std::vector<Tunable> Materials::tunables(int id) const {
  std::vector<Tunable> out;
  for (const auto& [key, value] : at(id).keys.values())
    if (key != "density" && std::holds_alternative<double>(value)) {
      const auto [low, high] = range(key);
      out.push_back({key, std::get<double>(value), describe(key), low, high});
    }
  return out;
}

void Materials::set(int id, const std::string& key, double value) {
  if (id < 1 || id > size()) throw InputError("no material " + std::to_string(id));
  Material& m = list_[id - 1];
  if (!m.keys.has(key) || key == "density")  // density made the masses: load time only
    throw InputError("material '" + m.name + "': '" + key + "' cannot be changed live (" +
                     "the keys its [[material]] gives can, but density)");
  check("material '" + m.name + "'", key, value);
  m.keys.set(key, value);
  ++version_;
}

}  // namespace stepwise
