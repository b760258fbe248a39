#include "runtime/energy_sample.hpp"

namespace stepwise {

namespace {

// The figures a report and a sample share, as (report field, sample field) pairs: one list for
// both directions of the conversion.
template <class Report, class Sample, class Fn>
void shared_fields(Report& r, Sample& s, Fn&& fn) {
  fn(r.step, s.step);
  fn(r.time, s.time);
  fn(r.kinetic, s.kinetic);
  fn(r.potential, s.potential);
  fn(r.total, s.total);
  fn(r.external_work, s.external_work);
  fn(r.dissipated, s.dissipated);
  fn(r.corrected, s.corrected);
  fn(r.energy_error, s.error);
  fn(r.momentum.x(), s.px), fn(r.momentum.y(), s.py), fn(r.momentum.z(), s.pz);
  fn(r.angular_momentum.x(), s.Lx), fn(r.angular_momentum.y(), s.Ly);
  fn(r.angular_momentum.z(), s.Lz);
  fn(r.kinetic_translational, s.kinetic_translational);
  fn(r.kinetic_rotational, s.kinetic_rotational);
  fn(r.contacts, s.contacts);
  fn(r.bonds_broken, s.bonds_broken);
}

}  // namespace

void copy_report(const EnergyReport& r, EnergySample& s) {
  shared_fields(r, s, [](const auto& from, auto& to) { to = from; });
}

EnergySample sample_of(const EnergyReport& r) {
  EnergySample s;
  copy_report(r, s);
  s.error_min = s.error_max = r.energy_error;
  return s;
}

EnergyReport report_of(const EnergySample& e) {
  EnergyReport r;
  shared_fields(r, e, [](auto& to, const auto& from) { to = from; });
  return r;
}

}  // namespace stepwise
