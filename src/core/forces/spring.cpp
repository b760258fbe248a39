// Linear springs with optional dashpots between two bodies, or from a body to a fixed anchor.
// A zero rest length gives the exactly linear spring F = -k d - c v_rel (harmonic oscillator).
#include <cmath>

#include "core/world.hpp"

namespace stepwise {
namespace {

struct Link {
  int a = 0, b = -1;  // b < 0: anchored at `anchor`
  Vec3 anchor = Vec3::Zero();
  double k = 1, rest = 0, c = 0;
};

class Spring final : public ForceModel {
 public:
  explicit Spring(const ParamTable& p) {
    for (const ParamTable& t : p.tables("link")) {
      Link l;
      l.a = t.index("a");
      l.b = t.index("b", -1);
      l.anchor = t.vec3("anchor", Vec3::Zero());
      l.k = t.number("k", 1.0);
      l.rest = t.number("rest", 0.0);
      l.c = t.number("damping", 0.0);
      if (!(l.k >= 0) || !(l.rest >= 0) || !(l.c >= 0))
        throw InputError(t.where() + ": k, rest and damping must be >= 0");
      t.reject_unused();
      links_.push_back(l);
    }
  }
  Spring(const Spring&) = default;
  std::string kind() const override { return "spring"; }
  std::unique_ptr<ForceModel> clone() const override { return std::make_unique<Spring>(*this); }

  void validate(const World& world) const override {
    for (size_t n = 0; n < links_.size(); ++n) {
      const Link& l = links_[n];
      if (l.a < 0 || l.a >= world.size() || l.b >= world.size() || l.a == l.b)
        throw InputError("spring link " + std::to_string(n) + ": bodies " + std::to_string(l.a) +
                         ", " + std::to_string(l.b) + " do not exist (the scene has " +
                         std::to_string(world.size()) + ")");
    }
  }

  void apply(const StateView& s, ForceSums& out, const EvalContext&) override {
    for (const Link& l : links_) {
      const Vec3 d = s.x.col(l.a) - end_position(s, l);
      const Vec3 vr = s.v.col(l.a) - end_velocity(s, l);
      Vec3 f;
      if (l.rest == 0) {
        f = -l.k * d - l.c * vr;
        out.potential += 0.5 * l.k * d.squaredNorm();
        out.dissipation_power += l.c * vr.squaredNorm();
      } else {
        const double len = d.norm();
        const Vec3 n = d / len;
        const double vn = vr.dot(n);
        f = -(l.k * (len - l.rest) + l.c * vn) * n;
        out.potential += 0.5 * l.k * (len - l.rest) * (len - l.rest);
        out.dissipation_power += l.c * vn * vn;
      }
      out.force.col(l.a) += f;
      if (l.b >= 0) out.force.col(l.b) -= f;
    }
  }

  bool jacobian(const StateView& s, Triplets& dfdx, Triplets& dfdv) const override {
    for (const Link& l : links_) {
      const Vec3 d = s.x.col(l.a) - end_position(s, l);
      Mat3 kx, cv;
      if (l.rest == 0) {
        kx = -l.k * Mat3::Identity();
        cv = -l.c * Mat3::Identity();
      } else {
        const double len = d.norm();
        const Vec3 n = d / len;
        const Mat3 nn = n * n.transpose();
        kx = -l.k * (nn + (1.0 - l.rest / len) * (Mat3::Identity() - nn));
        cv = -l.c * nn;
      }
      add_block(dfdx, l, kx);
      add_block(dfdv, l, cv);
    }
    return true;
  }

  double max_frequency(const World& world) const override {
    double omega = 0;
    for (const Link& l : links_) {
      const double inv_m = world.inv_mass(l.a) + (l.b >= 0 ? world.inv_mass(l.b) : 0.0);
      omega = std::max(omega, std::sqrt(l.k * inv_m));
    }
    return omega;
  }

  std::pair<int, int> stiffest_pair(const World& world) const override {
    std::pair<int, int> best{-1, -1};
    double omega = -1;
    for (const Link& l : links_) {
      const double inv_m = world.inv_mass(l.a) + (l.b >= 0 ? world.inv_mass(l.b) : 0.0);
      if (std::sqrt(l.k * inv_m) > omega) omega = std::sqrt(l.k * inv_m), best = {l.a, l.b};
    }
    return best;
  }

  void save(ParamTable& out) const override {
    std::vector<ParamTable> tables;
    for (const Link& l : links_) {
      ParamTable t;
      t.set("a", double(l.a));
      if (l.b >= 0) t.set("b", double(l.b));
      else t.set("anchor", std::vector<double>{l.anchor.x(), l.anchor.y(), l.anchor.z()});
      t.set("k", l.k);
      t.set("rest", l.rest);
      t.set("damping", l.c);
      tables.push_back(t);
    }
    out.set("link", tables);
  }

  void segments(const World& world, std::vector<Segment>& out) const override {
    for (const Link& l : links_)
      out.push_back({world.x.col(l.a), l.b >= 0 ? Vec3(world.x.col(l.b)) : l.anchor});
  }

  std::vector<Tunable> tunables() const override {
    if (links_.empty()) return {};
    return {{"k", links_[0].k, "stiffness of every link"},
            {"damping", links_[0].c, "dashpot coefficient of every link"}};
  }
  void set_tunable(const std::string& name, double value) override {
    for (Link& l : links_) {
      if (name == "k") l.k = value;
      if (name == "damping") l.c = value;
    }
  }

 private:
  static Vec3 end_position(const StateView& s, const Link& l) {
    return l.b >= 0 ? Vec3(s.x.col(l.b)) : l.anchor;
  }
  static Vec3 end_velocity(const StateView& s, const Link& l) {
    return l.b >= 0 ? Vec3(s.v.col(l.b)) : Vec3::Zero();
  }
  static void add_block(Triplets& t, const Link& l, const Mat3& block) {
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        const double value = block(r, c);
        if (value == 0) continue;
        t.emplace_back(3 * l.a + r, 3 * l.a + c, value);
        if (l.b >= 0) {
          t.emplace_back(3 * l.b + r, 3 * l.b + c, value);
          t.emplace_back(3 * l.a + r, 3 * l.b + c, -value);
          t.emplace_back(3 * l.b + r, 3 * l.a + c, -value);
        }
      }
  }

  std::vector<Link> links_;
};

}  // namespace
STEPWISE_REGISTER_FORCE("spring", Spring);
}  // namespace stepwise
