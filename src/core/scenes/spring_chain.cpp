// n masses joined by springs, the first tied to a fixed anchor, the last one plucked. Plucked
// along the chain the motion is linear and the normal-mode solution is exact.
#include <cmath>

#include <Eigen/Eigenvalues>

#include "core/scene.hpp"

namespace stepwise {
namespace {

class SpringChain final : public Scene {
 public:
  SceneInfo info() const override {
    return {"spring-chain",
            "n masses on springs, one end fixed, the other plucked",
            "A wave runs down the chain and reflects. Its highest normal mode sets the stability "
            "limit: dt must stay below 2/omega_max, about 1/sqrt(k/m) for a long chain. Plucked "
            "along the chain it has an exact normal-mode solution.",
            {{"n", 10.0, "number of masses"},
             {"k", 100.0, "spring stiffness"},
             {"m", 1.0, "mass of each body"},
             {"pluck", 0.3, "initial displacement of the last mass"},
             {"direction", std::string("along"), "pluck 'along' the chain (linear) or 'across'"}}};
  }

  SceneSetup build(const ParamTable& p) const override {
    const int n = count(p, "n", 1, 1000000);
    const double k = positive(p, "k"), m = positive(p, "m"), pluck = p.number("pluck");
    const std::string direction = p.text("direction", "along");
    if (direction != "along" && direction != "across")
      throw InputError("scene 'spring-chain': 'direction' must be 'along' or 'across'");
    if (n < 1 || n > 100000) throw InputError("scene 'spring-chain': 'n' must be in 1..100000");
    const Vec3 offset = direction == "along" ? Vec3(pluck, 0, 0) : Vec3(0, 0, pluck);
    SceneSetup s;
    std::vector<ParamTable> links;
    for (int i = 0; i < n; ++i) {
      BodySpec body;
      body.mass = m;
      body.radius = 0.15;
      body.position = Vec3(i + 1.0, 0, 0) + (i == n - 1 ? offset : Vec3::Zero());
      s.world.add_body(body);
      ParamTable link;
      link.set("a", double(i));
      if (i > 0) link.set("b", double(i - 1));
      link.set("k", k);
      link.set("rest", 1.0);
      links.push_back(link);
    }
    ParamTable spring;
    spring.set("link", links);
    s.world.add_force(ForceRegistry::instance().make("spring", spring));
    const double omega_max = 2.0 * std::sqrt(k / m);
    s.dt = 0.1 / omega_max;
    s.duration = 20;
    if (direction == "along") s.exact = normal_modes(n, k, m, pluck);
    return s;
  }

 private:
  // u(t) = sum_j phi_j (phi_j . u0) cos(omega_j t) for the fixed-free chain K = k tridiag(-1,2,-1).
  static std::function<Positions(double)> normal_modes(int n, double k, double m, double pluck) {
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n, n);
    for (int i = 0; i < n; ++i) {
      K(i, i) = i == n - 1 ? k : 2 * k;
      if (i + 1 < n) K(i, i + 1) = K(i + 1, i) = -k;
    }
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> modes(K);
    const Eigen::MatrixXd phi = modes.eigenvectors();
    const Eigen::VectorXd omega = (modes.eigenvalues() / m).cwiseSqrt();
    const Eigen::VectorXd amplitude = phi.row(n - 1).transpose() * pluck;
    return [=](double t) {
      const Eigen::VectorXd u = phi * (amplitude.array() * (omega.array() * t).cos()).matrix();
      Positions x = Positions::Zero(3, n);
      for (int i = 0; i < n; ++i) x(0, i) = i + 1.0 + u(i);
      return x;
    };
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("spring-chain", SpringChain);
}  // namespace stepwise
