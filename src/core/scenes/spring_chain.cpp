// n masses joined by springs, the first tied to a fixed anchor, the last one plucked. Plucked
// along the chain the motion is linear and the normal-mode solution is exact.
#include <cmath>
#include <complex>
#include <vector>

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
    if (direction == "along" && n <= kExactMasses) s.exact = normal_modes(n, k, m, pluck);
    return s;
  }

 private:
  // The fixed-free chain's modes (K = k tridiag(-1, 2, -1), its last diagonal k): u_i = sin(q i)
  // with q_j = (2j - 1) pi / (2n + 1), omega_j = 2 sqrt(k / m) sin(q_j / 2), j = 1..n, each of
  // squared norm (2n + 1) / 4. The last mass plucked:
  //   u_i(t) = 4 pluck / (2n + 1) sum_j sin(q_j i) sin(q_j n) cos(omega_j t).
  // Nothing is computed until asked (a dense eigensolver here took 91 s at n = 5,000); each call
  // takes n^2 turns, so it is offered up to kExactMasses masses (`sweep` then runs a fine
  // reference instead).
  static constexpr int kExactMasses = 10000;
  static std::function<Positions(double)> normal_modes(int n, double k, double m, double pluck) {
    return [=](double t) {
      Positions x = Positions::Zero(3, n);
      std::vector<std::complex<double>> turn(n), at(n);  // e^(i q_j), e^(i q_j i)
      std::vector<double> weight(n);
      for (int j = 0; j < n; ++j) {
        const double q = (2.0 * j + 1) * M_PI / (2.0 * n + 1);
        turn[j] = at[j] = std::polar(1.0, q);
        weight[j] = 4 * pluck / (2.0 * n + 1) * std::sin(q * n) *
                    std::cos(2 * std::sqrt(k / m) * std::sin(q / 2) * t);
      }
      for (int i = 0; i < n; ++i) {
        double u = 0;
        for (int j = 0; j < n; ++j) u += weight[j] * at[j].imag(), at[j] *= turn[j];
        x(0, i) = i + 1.0 + u;
      }
      return x;
    };
  }
};

}  // namespace
STEPWISE_REGISTER_SCENE("spring-chain", SpringChain);
}  // namespace stepwise
