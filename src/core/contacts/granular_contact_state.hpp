#pragma once
// GranularContacts' parameters and history as they leave and enter it (save, save_state,
// load_state, the loaded wall springs put in place), what it checks of a World (validate) and its
// stiffest frequency: kept apart from the evaluation in granular_contact.hpp.
#include "core/contacts/granular_contact.hpp"

namespace stepwise {

template <class Law>
double GranularContacts<Law>::max_frequency(const World& world) const {
  if (world.size() == 0 || world.contact.impulse()) return 0;  // rigid: no springs
  const double m = world.mass.minCoeff(), r = world.radius.minCoeff();
  // The law's stiffness at a deep (10%) overlap of the smallest pair, with damping.
  auto frequency = [&](const PairLaw<Law>& pair, double m_eff, double r_eff) {
    const ContactCoefficients c = pair.law.at(0.1 * r, r_eff, m_eff);
    // PFC's damped critical step 2/w (sqrt(1 + z^2) - z) is 2 / (w (sqrt(1 + z^2) + z)).
    const double w = std::sqrt(c.kn / m_eff), zeta = c.gamma_n / (2 * w);
    return w * (std::sqrt(1 + zeta * zeta) + zeta);
  };
  if (world.materials.empty() && std::all_of(wall_materials_.begin(), wall_materials_.end(),
                                             [](const WallMaterial& w) { return !w.rigid; }))
    return frequency(own(), 0.5 * m, 0.5 * r);
  // With materials, the stiffest pair law (at the lightest, smallest body) and wall law.
  MaterialLaws<Law> laws;
  laws.build(world, own(), wall_materials_, own_version_);
  double most = 0;
  for (const PairLaw<Law>& pair : laws.all())
    most = std::max(most, frequency(pair, 0.5 * m, 0.5 * r));
  for (const PairLaw<Law>& wall : laws.all_walls()) most = std::max(most, frequency(wall, m, r));
  return most;
}
template <class Law>
void GranularContacts<Law>::validate(const World& world) const {
  for (const WallMaterial& w : wall_materials_)
    if (!w.name.empty()) world.materials.id(w.name, std::string(Law::kName) + " wall");
  for (size_t k = 0; k < walls_.size(); ++k)  // in 2-D a wall is a line of the plane
    if (world.dimensions == 2 && walls_[k].normal.z() != 0)
      throw InputError(std::string(Law::kName) + " wall " + std::to_string(k) +
                       ": a 2-D scene's walls are lines of the plane (normal [nx, ny, 0])");
  auto known = [](const std::vector<std::string>& keys, const std::string& key) {
    return key == "mu" || std::find(keys.begin(), keys.end(), key) != keys.end();
  };
  for (int m = 1; m <= world.materials.size(); ++m)
    for (const auto& [key, value] : world.materials.at(m).keys.values())
      if (key != "density" && !known(Law::keys(), key))
        throw InputError(world.materials.at(m).keys.where(key) + ": material '" +
                         world.materials.at(m).name + "': " + Law::kName + " reads no '" + key +
                         "' (" + key_list(Law::keys()) + ", mu)");
  for (const MaterialPair& pair : world.materials.pairs())
    for (const auto& [key, value] : pair.keys.values())
      if (!known(Law::pair_keys(), key))
        throw InputError(pair.keys.where(key) + ": " + Law::kName + " has no per-pair '" + key +
                         "' (" + key_list(Law::pair_keys()) + ", mu)");
  MaterialLaws<Law> laws;  // each material's law checked now, not at the first step
  laws.build(world, own(), wall_materials_, own_version_);
}
template <class Law>
void GranularContacts<Law>::size_wall_history(int n) {
  wall_history_.assign_zero(n * walls_.size());
  wall_engaged_.assign(n, 0);
  wall_candidates_.invalidate();
  for (size_t k = 0; k < pending_walls_.size(); k += 5) {  // saved history, once
    const size_t index = size_t(pending_walls_[k + 1]) * walls_.size() + size_t(pending_walls_[k]);
    if (index < wall_history_.size()) {
      wall_history_[index].xi =
          Vec3(pending_walls_[k + 2], pending_walls_[k + 3], pending_walls_[k + 4]);
      wall_history_[index].kt = pending_wall_kt_.size() > k / 5 ? pending_wall_kt_[k / 5] : 0;
      if (pending_walls_[k] < 64)
        wall_engaged_[index / walls_.size()] |= std::uint64_t{1} << int(pending_walls_[k]);
    }
  }
  pending_walls_.clear();
  pending_wall_kt_.clear();
}
template <class Law>
void GranularContacts<Law>::save(ParamTable& out) const {
  law_.save(out);
  out.set("mu", mu_);
  if (coulomb_ == Coulomb::Exact) out.set("coulomb", std::string("exact"));
  if (limit_force_ != (coulomb_ == Coulomb::Exact)) out.set("limit_force", limit_force_);
  if (mu_roll_ > 0) out.set("mu_roll", mu_roll_);
  if (mu_twist_ > 0) out.set("mu_twist", mu_twist_);
  out.set("skin", list_.skin());
  if (list_.broad_phase() != BroadPhase::Auto)
    out.set("broad_phase",
            std::string(list_.broad_phase() == BroadPhase::Cells ? "cells" : "sweep"));
  if (motions_mode_ != "auto") out.set("motions", motions_mode_);
  if (prefetch_mode_ != "auto") out.set("prefetch", prefetch_mode_);
  if (displacements_mode_ != "auto") out.set("displacements", displacements_mode_);
  if (screen_every_body_) out.set("wall_screen", std::string("all"));
  exclusions_.save(out);
  std::vector<ParamTable> walls;
  auto vec = [](const Vec3& v) { return std::vector<double>{v.x(), v.y(), v.z()}; };
  for (size_t k = 0; k < walls_.size(); ++k) {
    const Wall& w = walls_[k];
    ParamTable t;
    if (!wall_materials_[k].name.empty()) t.set("material", wall_materials_[k].name);
    if (wall_materials_[k].rigid) t.set("rigid", true);
    t.set("point", vec(w.point));
    t.set("normal", vec(w.normal));
    if (w.velocity != Vec3::Zero()) t.set("velocity", vec(w.velocity));
    walls.push_back(t);
  }
  out.set("wall", walls);
}
template <class Law>
void GranularContacts<Law>::save_state(ParamTable& out) const {
  std::vector<double> pairs, walls, pair_kt, wall_kt;  // (kt: laws whose kt varies)
  const auto& offsets = list_.offsets();
  const auto& neighbors = list_.neighbors();
  for (int i = 0; i + 1 < int(offsets.size()); ++i)
    for (int k = offsets[i]; k < offsets[i + 1]; ++k)
      if (k < int(history_.size()) && held_[k] && engaged(history_[k])) {  // (held: as rebuild)
        pairs.insert(pairs.end(), {double(i), double(neighbors[k]), history_[k].xi.x(),
                                   history_[k].xi.y(), history_[k].xi.z()});
        pair_kt.push_back(history_[k].kt);
      }
  // As (wall, body, spring). Only a body marked engaged can hold a wall spring (with at most 64
  // walls): the others' rows are not read, so a large run's untouched rows take no memory
  // (ZeroedArray) even when saved.
  const size_t wall_count = walls_.size();
  for (size_t k = 0; k < wall_history_.size(); ++k)
    if ((wall_count > 64 || wall_engaged_[k / wall_count] != 0) &&
        wall_history_[k].xi != Vec3::Zero()) {
      const Vec3& xi = wall_history_[k].xi;
      walls.insert(walls.end(),
                   {double(k % walls_.size()), double(k / walls_.size()), xi.x(), xi.y(), xi.z()});
      wall_kt.push_back(wall_history_[k].kt);
    }
  // History loaded with a state and not yet taken over (the list is rebuilt at the next
  // evaluation), written as it was loaded, so saving before a step loses none of it.
  for (size_t e = 0; e < pending_pairs_.size(); ++e) {
    const Spring& spring = pending_springs_[e];
    pairs.insert(pairs.end(), {double(pending_pairs_[e].first), double(pending_pairs_[e].second),
                               spring.xi.x(), spring.xi.y(), spring.xi.z()});
    pair_kt.push_back(spring.kt);
  }
  walls.insert(walls.end(), pending_walls_.begin(), pending_walls_.end());
  for (size_t k = 0; k < pending_walls_.size(); k += 5)
    wall_kt.push_back(pending_wall_kt_.size() > k / 5 ? pending_wall_kt_[k / 5] : 0.0);
  out.set("pairs", std::move(pairs));  // (moved: a dense packing holds millions)
  out.set("walls", std::move(walls));
  if (!Law::kConstant)
    out.set("pair_kt", std::move(pair_kt)), out.set("wall_kt", std::move(wall_kt));
  shapes_.save_state(out);
  out.set("dissipation", committed_dissipation_);
  if (committed_made_ != 0) out.set("manifold_energy", committed_made_);
}
template <class Law>
bool GranularContacts<Law>::renumber_state(ParamTable& state, const std::vector<int>& slot) const {
  if (!exclusions_.empty() || !shapes_.empty()) return false;  // (pairs named in parameters)
  std::vector<double> pairs = state.numbers("pairs", {}), walls = state.numbers("walls", {});
  // A pair is kept as (i < j) with the spring of i's motion relative to j: a pair whose bodies
  // swap ranks turns its spring round.
  for (size_t k = 0; k + 5 <= pairs.size(); k += 5) {
    const int i = slot[size_t(pairs[k])], j = slot[size_t(pairs[k + 1])];
    pairs[k] = std::min(i, j), pairs[k + 1] = std::max(i, j);
    if (i > j)
      for (int c = 2; c < 5; ++c) pairs[k + size_t(c)] = -pairs[k + size_t(c)];
  }
  for (size_t k = 0; k + 5 <= walls.size(); k += 5) walls[k + 1] = slot[size_t(walls[k + 1])];
  state.set("pairs", pairs);
  state.set("walls", walls);
  return true;
}
template <class Law>
void GranularContacts<Law>::load_state(const ParamTable& in) {
  // (Read in place, each message made only when refused: a dense state has millions of pairs.)
  const std::vector<double>& pairs = in.number_list("pairs", false);
  const std::vector<double>& walls = in.number_list("walls", false);
  if (pairs.size() % 5 || walls.size() % 5)
    throw InputError(in.where() + ": contact history comes in groups of 5 numbers");
  for (const auto* ids : {&pairs, &walls})  // body and wall ids, checked before any cast
    for (size_t k = 0; k < ids->size(); k += 5)
      for (int c = 0; c < 2; ++c)
        limits::checked_named([&] { return in.where() + ": contact history id"; }, (*ids)[k + c], 0,
                              ids == &walls && c == 0 ? double(walls_.size()) - 1 : 2e9, true);
  const std::vector<double>& pair_kt = in.number_list("pair_kt", false);
  pending_wall_kt_ = in.number_list("wall_kt", false);
  for (double kt : pair_kt)
    limits::checked_named([&] { return in.where() + ": pair_kt"; }, kt, 0, 1e300);
  for (double kt : pending_wall_kt_)
    limits::checked_named([&] { return in.where() + ": wall_kt"; }, kt, 0, 1e300);
  drop_pending();
  std::vector<std::pair<std::pair<int, int>, size_t>> order;  // (pair, its place in the file)
  order.reserve(pairs.size() / 5);
  for (size_t k = 0; k < pairs.size(); k += 5)
    order.push_back({{int(pairs[k]), int(pairs[k + 1])}, k / 5});
  std::sort(order.begin(), order.end());
  pending_pairs_.reserve(order.size());  // (no doubling's spare room: these are for memory)
  pending_springs_.reserve(order.size());
  for (size_t e = 0; e < order.size(); ++e) {
    if (e + 1 < order.size() && order[e + 1].first == order[e].first) continue;  // the later kept
    const size_t k = 5 * order[e].second;
    pending_pairs_.push_back(order[e].first);
    pending_springs_.push_back({Vec3(pairs[k + 2], pairs[k + 3], pairs[k + 4]),
                                pair_kt.size() > k / 5 ? pair_kt[k / 5] : 0.0});
  }
  pending_walls_ = walls;
  committed_dissipation_ = in.number("dissipation", 0.0);
  committed_made_ = in.number("manifold_energy", 0.0);
  shapes_.load_state(in);
  list_.invalidate();  // the next evaluation rebuilds the list and takes the history over
  history_.clear();
  held_.clear();
  wall_history_.clear();
}

}  // namespace stepwise
