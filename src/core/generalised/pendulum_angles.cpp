// Generalised coordinates (seed 004): a planar chain of n pendulum links hanging from `anchor`
// in the x-z plane, described by the links' angles θ_i from the vertical alone. With
// μ_j = Σ_{k≥j} m_k (the mass at or below link j), Lagrange's equations Jᵀ M J ü + Jᵀ M J̇ u̇ = Jᵀ Q
// become
//   Σ_j μ_max(i,j) L_i L_j [cos(θ_i - θ_j) θ̈_j + sin(θ_i - θ_j) θ̇_j²] = -μ_i g L_i sin θ_i,
// solved for θ̈ at every evaluation. The World's body i holds θ_i in x and θ̇_i in v with unit
// mass, so every translational integrator steps the angles; the bobs are shown (and their
// kinetic energy T counted) from them. No constraint is left to drift.
#include <cmath>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

#include "core/world.hpp"

namespace stepwise {
namespace {

constexpr int kMaxLinks = 200;  // a dense n x n solve per evaluation

class PendulumAngles final : public ForceModel {
 public:
  explicit PendulumAngles(const ParamTable& p)
      : anchor_(p.vec3("anchor", Vec3::Zero())),
        g_(p.number("g", 9.81)),
        lengths_(p.numbers("lengths")),
        masses_(p.numbers("masses")),
        radius_(p.number("radius", 0.05)) {
    if (lengths_.empty() || lengths_.size() != masses_.size() || int(lengths_.size()) > kMaxLinks)
      throw InputError(p.where() + ": lengths and masses must list the same 1 to " +
                       std::to_string(kMaxLinks) + " links");
    for (size_t i = 0; i < lengths_.size(); ++i)
      if (!(lengths_[i] > 0 && lengths_[i] <= 1e6) || !(masses_[i] > 0 && masses_[i] <= 1e12))
        throw InputError(p.where() + ": link " + std::to_string(i) +
                         ": length in (0, 1e6] and mass in (0, 1e12] required");
    if (!(std::abs(g_) <= 1e6) || !anchor_.allFinite() || !(radius_ > 0 && radius_ < 1e6))
      throw InputError(p.where() +
                       ": g within 1e6, a finite anchor and a positive radius required");
    below_.assign(masses_.size() + 1, 0.0);
    for (int j = int(masses_.size()) - 1; j >= 0; --j) below_[j] = below_[j + 1] + masses_[j];
    fastest_ = fastest_mode();
  }
  std::string kind() const override { return "pendulum-angles"; }
  std::unique_ptr<ForceModel> clone() const override {
    return std::make_unique<PendulumAngles>(*this);
  }
  void validate(const World& world) const override {
    if (world.size() != links())
      throw InputError("pendulum-angles: the scene's bodies are its " + std::to_string(links()) +
                       " angles (it has " + std::to_string(world.size()) + " bodies)");
    for (int i = 0; i < links(); ++i)
      if (world.inv_mass(i) != 1.0)
        throw InputError("pendulum-angles: body " + std::to_string(i) +
                         " holds an angle: it must be free with mass 1");
  }

  void apply(const StateView& s, ForceSums& out, const EvalContext&) override {
    const int n = links();
    Eigen::MatrixXd M(n, n);
    VecX f(n);
    for (int i = 0; i < n; ++i) {
      const double ti = s.x(0, i);
      f(i) = -below_[i] * g_ * lengths_[i] * std::sin(ti);
      for (int j = 0; j < n; ++j) {
        const double tj = s.x(0, j), mu = below_[std::max(i, j)] * lengths_[i] * lengths_[j];
        M(i, j) = mu * std::cos(ti - tj);
        f(i) -= mu * std::sin(ti - tj) * s.v(0, j) * s.v(0, j);
      }
    }
    const VecX accel = M.ldlt().solve(f);  // M is the chain's (positive definite) mass matrix
    for (int i = 0; i < n; ++i) out.force(0, i) += accel(i);
    out.potential += potential(s.x);
  }

  bool shown_bodies(const World& world, std::vector<Shown>& out) const override {
    Vec3 x = anchor_, v = Vec3::Zero();
    for (int i = 0; i < links(); ++i) {
      const double t = world.x(0, i), rate = world.v(0, i);
      x += lengths_[i] * Vec3(std::sin(t), 0, -std::cos(t));
      v += lengths_[i] * rate * Vec3(std::cos(t), 0, std::sin(t));
      out.push_back({x, v, masses_[i], radius_});
    }
    return true;
  }
  void segments(const World& world, std::vector<Segment>& out) const override {
    std::vector<Shown> bobs;
    shown_bodies(world, bobs);
    Vec3 from = anchor_;
    for (const Shown& b : bobs) out.push_back({from, b.position}), from = b.position;
  }
  double max_frequency(const World&) const override { return fastest_; }

  void save(ParamTable& out) const override {
    out.set("anchor", std::vector<double>{anchor_.x(), anchor_.y(), anchor_.z()});
    out.set("g", g_);
    out.set("lengths", lengths_);
    out.set("masses", masses_);
    out.set("radius", radius_);
  }
  std::vector<Tunable> tunables() const override {
    return {{"g", g_, "gravitational acceleration", 0, 1e6}};
  }
  void set_tunable(const std::string& name, double value) override {
    if (name == "g") g_ = value, fastest_ = fastest_mode();
  }

 private:
  int links() const { return static_cast<int>(lengths_.size()); }
  // V = Σ_k m_k g z_k = -g Σ_i μ_i L_i cos θ_i, above the anchor's height.
  double potential(const Positions& x) const {
    double v = 0;
    for (int i = 0; i < links(); ++i) v -= g_ * below_[i] * lengths_[i] * std::cos(x(0, i));
    return v + g_ * below_[0] * anchor_.z();
  }

  // The fastest small-swing normal mode about the hanging rest: K v = ω² M v with
  // K = diag(μ_i g L_i), M_ij = μ_max(i,j) L_i L_j (for the stability gauge).
  double fastest_mode() const {
    const int n = links();
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n, n), M(n, n);
    for (int i = 0; i < n; ++i) {
      K(i, i) = below_[i] * std::abs(g_) * lengths_[i];
      for (int j = 0; j < n; ++j) M(i, j) = below_[std::max(i, j)] * lengths_[i] * lengths_[j];
    }
    Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> modes(K, M, Eigen::EigenvaluesOnly);
    return std::sqrt(std::max(0.0, modes.eigenvalues().maxCoeff()));
  }

  Vec3 anchor_;
  double g_, fastest_ = 0;
  std::vector<double> lengths_, masses_;
  double radius_;
  std::vector<double> below_;  // μ_j: the mass at or below link j
};

}  // namespace
STEPWISE_REGISTER_FORCE("pendulum-angles", PendulumAngles);
}  // namespace stepwise
