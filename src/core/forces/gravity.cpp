// Uniform gravity: F = m g on every body, U = -m g.x.
#include <array>

#include "core/body_passes.hpp"
#include "core/parallel.hpp"
#include "core/uniform_field.hpp"
#include "core/world.hpp"

namespace stepwise {
namespace {

class Gravity final : public ForceModel {
 public:
  explicit Gravity(const ParamTable& p) : g_(p.vec3("g", Vec3(0, 0, -9.81))) {
    if (g_.norm() > 0) direction_ = g_.normalized();
  }
  std::string kind() const override { return "gravity"; }
  bool marks_torque() const override { return true; }  // (it adds none)
  bool names_bodies() const override { return false; }
  std::unique_ptr<ForceModel> clone() const override { return std::make_unique<Gravity>(*this); }

  void prepare(const StateView& s, ForceSums& out, const EvalContext& ctx,
               BodyPasses& passes) override {
    task_potential_.fill(0.0);
    if (SweepShare* share = ctx.sweep; share && share->field_open) {  // it adds m g as it clears
      share->field_taken = true;
      share->field = g_;
      share->potential = task_potential_.data();
      return;
    }
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
    const double* m = s.world.mass.data();
    const double* x = s.x.data();
    double* force = out.force.data();
    double sum = task_potential_[task];
    const lanes::Stored g = uniform_field::stored(g_);
    int i = begin;
    for (; i + 4 <= end; i += 4) uniform_field::four(m, x, force, g_, g, i, sum);
    for (; i < end; ++i) uniform_field::one(m, x, force, g_, i, sum);
    task_potential_[task] = sum;
  }

  Vec3 g_;
  Vec3 direction_{0, 0, -1};  // of the scene's g; kept when the slider sets its size to 0
  std::array<double, kMaxTasks> task_potential_{};  // -m g.x summed per range of bodies
};

}  // namespace
STEPWISE_REGISTER_FORCE("gravity", Gravity);
}  // namespace stepwise
