#include "runtime/energy_sample.hpp"

namespace stepwise {

void copy_report(const EnergyReport& r, EnergySample& s) {
  s.step = r.step;
  s.time = r.time;
  s.kinetic = r.kinetic;
  s.potential = r.potential;
  s.total = r.total;
  s.external_work = r.external_work;
  s.dissipated = r.dissipated;
  s.error = r.energy_error;
  s.px = r.momentum.x(), s.py = r.momentum.y(), s.pz = r.momentum.z();
  s.Lx = r.angular_momentum.x(), s.Ly = r.angular_momentum.y(), s.Lz = r.angular_momentum.z();
  s.kinetic_translational = r.kinetic_translational;
  s.kinetic_rotational = r.kinetic_rotational;
  s.contacts = r.contacts;
  s.bonds_broken = r.bonds_broken;
}

EnergySample sample_of(const EnergyReport& r) {
  EnergySample s;
  copy_report(r, s);
  s.error_min = s.error_max = r.energy_error;
  return s;
}

EnergyReport report_of(const EnergySample& e) {
  EnergyReport r;
  r.step = e.step;
  r.time = e.time;
  r.kinetic = e.kinetic;
  r.potential = e.potential;
  r.total = e.total;
  r.external_work = e.external_work;
  r.dissipated = e.dissipated;
  r.energy_error = e.error;
  r.momentum = Vec3(e.px, e.py, e.pz);
  r.angular_momentum = Vec3(e.Lx, e.Ly, e.Lz);
  r.kinetic_translational = e.kinetic_translational;
  r.kinetic_rotational = e.kinetic_rotational;
  r.contacts = e.contacts;
  r.bonds_broken = e.bonds_broken;
  return r;
}

}  // namespace stepwise
