// Adaptive step doubling: one step of h against two of h/2 with a base method; the difference
// estimates the local error and sets the next sub-step, h_new = h (tol/e)^(1/(p+1)).
#include <limits>
#include <algorithm>
#include <cmath>

#include "core/integrator.hpp"
#include "core/limits.hpp"

namespace stepwise {
namespace {

class AdaptiveStepDoubling final : public Integrator {
 public:
  AdaptiveStepDoubling() { set_base("euler"); }

  // Sub-steps shrink until the error estimate passes, so no frame step is too large for a base
  // that is stable at small steps; a base that grows at any step (euler, midpoint) still grows,
  // only slowly.
  double stability_limit() const override {
    return base_->stability_limit() == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  }
  MethodInfo info() const override {
    MethodInfo base = base_->info();
    return {"adaptive",
            base.order,
            false,
            false,
            3 * base.force_evals,
            "Step doubling around a base method (default euler): compare one step of h with two "
            "of h/2, keep the two half steps, and resize h so the local error estimate stays "
            "under the tolerance. Sub-steps fill each frame step dt.",
            "x_a = Phi_h(x),  x_b = Phi_h/2(Phi_h/2(x))\ne = max_i |x_a,i - x_b,i|\n"
            "accept if e <= tol;  h_new = 0.9 h (tol/e)^(1/(p+1))"};
  }

  void step(Dynamics& d, double dt) override {
    stats_ = {};
    const double h_max = max_step_ > 0 ? std::min(max_step_, dt) : dt;
    double done = 0;
    long attempts = 0;
    while (done < dt * (1 - 1e-12)) {
      double h = std::min({h_ > 0 ? h_ : h_max, h_max, dt - done});
      x0_ = d.x();
      v0_ = d.v();
      Dynamics whole = d.child(d.time() + done, h);
      base_->reset();
      base_->step(whole, h);
      xa_ = d.x();
      d.x() = x0_;
      d.v() = v0_;
      Dynamics first = d.child(d.time() + done, 0.5 * h);
      base_->reset();
      base_->step(first, 0.5 * h);
      Dynamics second = d.child(d.time() + done + 0.5 * h, 0.5 * h);
      base_->step(second, 0.5 * h);
      const double error = largest_norm(xa_ - d.x());
      if (!std::isfinite(
              error)) {  // the state went non-finite: keep it, the run stops and says where
        d.keep(first.booked());
        d.keep(second.booked());
        return;
      }
      if (++attempts > limits::max_substeps())
        throw InputError("adaptive: more than " + std::to_string(limits::max_substeps()) +
                         " sub-steps in one step of dt = " + format_double(dt) +
                         " (raise 'tolerance' or 'min_step', or lower dt)");
      const int p = base_->info().order;
      const double grow = error > 0 ? 0.9 * std::pow(tolerance_ / error, 1.0 / (p + 1)) : 5.0;
      const double h_next = std::clamp(h * std::clamp(grow, 0.2, 5.0), min_step_, h_max);
      if (error <= tolerance_ || h <= min_step_) {
        d.keep(first.booked());
        d.keep(second.booked());
        done += h;
        ++stats_.substeps;
        stats_.max_error_estimate = std::max(stats_.max_error_estimate, error);
        stats_.last_substep = h;
        // A sub-step cut short only by the end of dt says nothing about the error: keep h_.
        if (h < h_max || h_ <= 0 || h_next < h_) h_ = h_next;
      } else {
        d.x() = x0_;
        d.v() = v0_;
        ++stats_.rejected;
        h_ = h_next;
      }
    }
  }

  void reset() override { h_ = 0; }
  void save_state(ParamTable& out) const override { out.set("h", h_); }
  void load_state(const ParamTable& in) override { h_ = in.number("h", 0.0); }

  std::vector<Tunable> options() const override {
    return {{"tolerance", tolerance_, "largest accepted local error estimate (length)"},
            {"min_step", min_step_, "smallest sub-step; at it a step is accepted regardless"},
            {"max_step", max_step_, "largest sub-step (0: the frame step dt)"}};
  }

  void save_options(ParamTable& out) const override {
    Integrator::save_options(out);
    out.set("base", base_name_);
  }

  void set_option(const std::string& name, const ParamValue& value) override {
    if (name == "base") {
      auto text = std::get_if<std::string>(&value);
      if (!text) throw InputError("adaptive: option 'base' must be an integrator name");
      set_base(*text);
      return;
    }
    const double x = option_number("adaptive", name, value);
    if (!(x >= 0) || !std::isfinite(x))
      throw InputError("adaptive: option '" + name + "' must be a finite number >= 0");
    if (name == "tolerance" && x > 0)
      tolerance_ = x;
    else if (name == "min_step")
      min_step_ = x;
    else if (name == "max_step")
      max_step_ = x;
    else
      throw InputError("adaptive: unknown option '" + name +
                       "' (tolerance, min_step, max_step, base)");
  }

  IntegratorStats stats() const override { return stats_; }

 private:
  void set_base(const std::string& name) {
    if (name == "adaptive" || name == "leapfrog")
      throw InputError("adaptive: base '" + name +
                       "' cannot be wrapped (it keeps state between steps)");
    base_ = IntegratorRegistry::instance().make(name);
    base_name_ = name;
    h_ = 0;
  }

  std::unique_ptr<Integrator> base_;
  std::string base_name_;
  double tolerance_ = 1e-6, min_step_ = 1e-9, max_step_ = 0;
  double h_ = 0;
  IntegratorStats stats_;
  Positions x0_, v0_, xa_;
};

}  // namespace
STEPWISE_REGISTER_INTEGRATOR("adaptive", AdaptiveStepDoubling);
}  // namespace stepwise
