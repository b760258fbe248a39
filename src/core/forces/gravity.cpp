// Uniform gravity: F = m g on every body, U = -m g.x.
#include <array>

#include "core/body_passes.hpp"
#include "core/lanes.hpp"
#include "core/parallel.hpp"
#include "core/world.hpp"

namespace stepwise {
namespace {

class Gravity final : public ForceModel {
 public:
  explicit Gravity(const ParamTable& p) : g_(p.vec3("g", Vec3(0, 0, -9.81))) {
    if (g_.norm() > 0) direction_ = g_.normalized();
  }
  std::string kind() const override { return "gravity"; }
  std::unique_ptr<ForceModel> clone() const override { return std::make_unique<Gravity>(*this); }

  void prepare(const StateView& s, ForceSums& out, const EvalContext&,
               BodyPasses& passes) override {
    task_potential_.fill(0.0);
    passes.add([this, s, &out](int task, int begin, int end) { add(s, out, task, begin, end); });
  }

  void apply(const StateView& s, ForceSums& out, const EvalContext& ctx) override {
    const int n = int(s.x.cols());
    if (!ctx.prepared) {
      task_potential_.fill(0.0);
      for_each_range(ctx.parallel, n,
                     [&](int task, int begin, int end) { add(s, out, task, begin, end); });
    }
    for (int t = 0; t < range_count(ctx.parallel, n); ++t) out.potential += task_potential_[t];
  }
  bool jacobian(const StateView&, Triplets&, Triplets&) const override { return true; }
  bool keeps_plane(const World&) const override { return g_.z() == 0; }
  void save(ParamTable& out) const override {
    out.set("g", std::vector<double>{g_.x(), g_.y(), g_.z()});
  }
  std::vector<Tunable> tunables() const override {
    return {{"g", g_.dot(direction_),
             "gravitational acceleration along the scene's direction of gravity (-z unless tilted)",
             -kTunableMax, kTunableMax}};
  }
  // Scales g along its direction, so a tilted g (incline) stays tilted.
  void set_tunable(const std::string& name, double value) override {
    if (name == "g") g_ = value * direction_;
  }

 private:
  void add(const StateView& s, ForceSums& out, int task, int begin, int end) {
    const VecX& m = s.world.mass;
    double sum = task_potential_[task];
    int i = begin;
    // g as four bodies' forces are stored, so each component m g_c is added to its own there.
    const lanes::Stored g{lanes::D4{g_.x(), g_.y(), g_.z(), g_.x()},
                          lanes::D4{g_.y(), g_.z(), g_.x(), g_.y()},
                          lanes::D4{g_.z(), g_.x(), g_.y(), g_.z()}};
    for (; i + 4 <= end; i += 4) {  // four bodies in lanes; the sum still adds body by body
      using namespace lanes;
      const D4 mass = load(m.data() + i);
      double* force = out.force.data() + 3 * i;
      const V3 x = load_xyz(s.x.data() + 3 * i);
      store_stored(force, load_stored(force) + spread_xyz(mass) * g);
      const D4 u = mass * ((g_.x() * x.x + g_.y() * x.y) + g_.z() * x.z);
      sum -= u[0], sum -= u[1], sum -= u[2], sum -= u[3];
    }
    for (; i < end; ++i) {
      out.force.col(i) += m(i) * g_;
      sum -= m(i) * g_.dot(s.x.col(i));
    }
    task_potential_[task] = sum;
  }

  Vec3 g_;
  Vec3 direction_{0, 0, -1};  // of the scene's g; kept when the slider sets its size to 0
  std::array<double, kMaxTasks> task_potential_{};  // -m g.x summed per range of bodies
};

}  // namespace
STEPWISE_REGISTER_FORCE("gravity", Gravity);
}  // namespace stepwise
