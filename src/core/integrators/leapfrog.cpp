// Central differences / leap-frog: velocities live at half steps between calls; the World gets a
// synchronised v(n+1) for energies and output.
#include "core/integrator.hpp"

namespace stepwise {
namespace {

class Leapfrog final : public Integrator {
 public:
  // Central differences: stable for w h < 2.
  double stability_limit() const override { return 2.0; }
  MethodInfo info() const override {
    return {"leapfrog",
            2,
            false,
            true,
            1,
            "Central differences (leap-frog): velocities at half steps, positions at whole steps. "
            "Second order, symplectic, stable for h < 2/omega.",
            "v(n+1/2) = v(n-1/2) + h a(n)\nx(n+1) = x(n) + h v(n+1/2)\n"
            "(equivalently x(n+1) = 2 x(n) - x(n-1) + h^2 a(n))"};
  }
  bool reads_committed_powers() const override { return false; }
  void step(Dynamics& d, double h) override {
    const Positions& a0 = d.start_accel();
    if (!primed_ || half_v_.cols() != d.size()) {
      half_v_ = d.v() + 0.5 * h * a0;  // start-up half kick from the synchronised velocity
    } else {
      half_v_ += 0.5 * (previous_h_ + h) * a0;
    }
    d.account_start_kick(d.v(), half_v_, 0.5 * h);
    d.x() += h * half_v_;
    d.v() = half_v_;  // velocity-dependent forces see the half-step velocity
    const Positions& a1 = d.end_accel();
    d.v() = half_v_ + 0.5 * h * a1;
    d.account_end_kick(half_v_, d.v(), 0.5 * h);
    previous_h_ = h;
    primed_ = true;
  }
  void reset() override { primed_ = false; }
  void save_state(ParamTable& out) const override {
    out.set("primed", primed_);
    if (!primed_) return;
    out.set("half_v", flatten(half_v_));
    out.set("previous_h", previous_h_);
  }
  void load_state(const ParamTable& in) override {
    primed_ = in.flag("primed", false);
    if (!primed_) return;
    const std::vector<double> v = in.numbers("half_v");
    half_v_ = unflatten(v, 3, int(v.size() / 3), in.where() + " half_v");
    previous_h_ = in.number("previous_h");
  }

 private:
  Positions half_v_;
  double previous_h_ = 0;
  bool primed_ = false;
};

}  // namespace
STEPWISE_REGISTER_INTEGRATOR("leapfrog", Leapfrog);
}  // namespace stepwise
