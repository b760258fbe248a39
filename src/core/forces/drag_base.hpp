#pragma once
// What the linear and quadratic drag models share: two coefficients (force and torque), their
// validation, saving and live tuning. Drag removes work per body, so it reports body work.
#include <algorithm>

#include "core/world.hpp"

namespace stepwise {

class DragBase : public ForceModel {
 public:
  explicit DragBase(const ParamTable& p) : c_(p.number("c", 0.1)), c_rot_(p.number("c_rot", 0.0)) {
    if (!(c_ >= 0) || !(c_rot_ >= 0))
      throw InputError(p.where() + ": drag coefficients must be >= 0");
  }
  unsigned body_work() const override { return kDragWork; }
  bool names_bodies() const override { return false; }
  void save(ParamTable& out) const override {
    out.set("c", c_);
    out.set("c_rot", c_rot_);
  }
  std::vector<Tunable> tunables() const override {
    return {{"c", c_, "drag force coefficient"}, {"c_rot", c_rot_, "drag torque coefficient"}};
  }
  void set_tunable(const std::string& name, double value) override {
    if (name == "c") c_ = value;
    if (name == "c_rot") c_rot_ = value;
  }

 protected:
  // Adds a drag force and torque on body i (also to the per-body drag sums for the ledger).
  static void add(ForceSums& out, Eigen::Index i, const Vec3& f, const Vec3& t) {
    out.force.col(i) += f;
    out.torque.col(i) += t;
    out.drag_force.col(i) += f;
    out.drag_torque.col(i) += t;
  }
  double c_, c_rot_;
};

}  // namespace stepwise
