// The sphere pairs' kernel (core/contacts/granular_pairs.hpp) handed its list in pieces of whole
// batches, as the overlap test hands it over (kPairChunk): the loads, springs and sums of the
// list handed whole, bit for bit.
#include <doctest/doctest.h>

#include <cstring>
#include <random>

#include "core/contacts/granular_contact.hpp"

using namespace stepwise;

namespace {

// The linear spring-dashpot law with constant coefficients (as the registered "hooke" law).
struct LinearLaw {
  static constexpr bool kConstant = true;
  double kn = 2000, kt = 2000 * 2.0 / 7.0, gamma_n = 50, gamma_t = 25;
  LinearLaw() = default;
  LinearLaw(const ParamTable&, const LinearLaw* base) : LinearLaw(*base) {}
  static LinearLaw mix(const LinearLaw& a, const LinearLaw&, bool) { return a; }
  void override_pair(const ParamTable&) {}
  ContactCoefficients at(double, double, double) const { return {kn, kt, gamma_n, gamma_t}; }
  double normal_energy(double delta, double) const { return 0.5 * kn * delta * delta; }
};

struct Kernel {
  std::vector<Spring> history;
  std::vector<BodyLoad> load;
  PairSums sums;
};

}  // namespace

TEST_CASE(
    "the pair kernel handed its list in pieces of whole batches gives the whole list's bits") {
  // 150 spheres of radius 0.5 in a 4 x 4 x 4 box: some 500 overlapping pairs, each with a
  // spring held from before (some past the Coulomb cap), the bodies moving and spinning.
  const int n = 150;
  std::mt19937 random(7);
  std::uniform_real_distribution<double> box(0, 4), unit(-1, 1);
  Positions x(3, n), v(3, n), w(3, n);
  VecX radius = VecX::Constant(n, 0.5), mass(n), inv_mass(n);
  for (int i = 0; i < n; ++i) {
    x.col(i) = Vec3(box(random), box(random), box(random));
    v.col(i) = Vec3(unit(random), unit(random), unit(random));
    w.col(i) = 3 * Vec3(unit(random), unit(random), unit(random));
    mass(i) = 0.5 + 0.1 * (i % 7), inv_mass(i) = 1 / mass(i);
  }
  std::vector<int> pair_i, pair_k, neighbors;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if ((x.col(i) - x.col(j)).norm() < 1) {
        pair_i.push_back(i), pair_k.push_back(int(neighbors.size())), neighbors.push_back(j);
      }
  const int count = int(pair_i.size());
  REQUIRE(count > 3 * kPairChunk);
  REQUIRE(count % 4 != 0);  // (the last batch padded)
  while (pair_i.size() % 4 != 0) pair_i.push_back(pair_i.back()), pair_k.push_back(pair_k.back());
  std::vector<Spring> springs(neighbors.size());
  for (size_t k = 0; k < springs.size(); ++k)
    springs[k].xi = (k % 3 == 0 ? 0.3 : 0.01) * Vec3(unit(random), unit(random), unit(random));

  World world;
  MaterialLaws<LinearLaw> laws;
  laws.build(world, PairLaw<LinearLaw>{LinearLaw(), 0.5}, {}, 1);
  const std::vector<std::uint16_t> material(n, 0);
  const PackedBodies bodies{x.data(), radius.data(), nullptr,     material.data(),
                            v.data(), w.data(),      mass.data(), inv_mass.data()};
  const ContactParams params{0, 0, 1e-3};
  // Pairs [0, count) handed over `piece` at a time (0: all at once).
  auto run = [&](int piece) {
    Kernel out{springs, std::vector<BodyLoad>(n, BodyLoad{}), {}};
    PairLanes lanes;
    for (int base = 0; base < count;) {
      const int size = piece > 0 ? std::min(piece, count - base) : count;
      touching_pairs<LinearLaw, true>(laws, params, bodies, neighbors.data(), pair_i.data() + base,
                                      pair_k.data() + base, size, out.history.data(),
                                      out.load.data(), lanes);
      base += size;
    }
    lanes.fold(out.sums);
    return out;
  };
  const Kernel whole = run(0);
  CHECK(whole.sums.contacts == count);
  CHECK(whole.sums.potential > 0);
  CHECK(whole.sums.capped > 0);  // (springs past the cap were cut back)
  for (int piece : {4, 8, kPairChunk, 4 * 37}) {
    CAPTURE(piece);
    const Kernel pieces = run(piece);
    CHECK(std::memcmp(pieces.load.data(), whole.load.data(), n * sizeof(BodyLoad)) == 0);
    CHECK(std::memcmp(pieces.history.data(), whole.history.data(),
                      springs.size() * sizeof(Spring)) == 0);
    CHECK(pieces.sums.contacts == whole.sums.contacts);
    CHECK(std::memcmp(&pieces.sums.potential, &whole.sums.potential, sizeof(double)) == 0);
    CHECK(std::memcmp(&pieces.sums.capped, &whole.sums.capped, sizeof(double)) == 0);
  }
}
