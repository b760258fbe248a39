#include "io/csv.hpp"

#include "core/bonds/bond_common.hpp"
#include "core/params.hpp"

namespace stepwise {

std::string energy_csv_header() {
  return "step,time,kinetic,potential,total_energy,external_work,dissipated,energy_error,px,py,pz,"
         "Lx,Ly,Lz,kinetic_translational,kinetic_rotational,contacts,bonds_broken,corrected";
}

void write_energy_csv_row(std::ostream& out, const EnergyReport& r) {
  auto put = [&](double v) { out << ',' << format_double(v); };
  out << r.step;
  put(r.time);
  put(r.kinetic);
  put(r.potential);
  put(r.total);
  put(r.external_work);
  put(r.dissipated);
  put(r.energy_error);
  for (int k = 0; k < 3; ++k) put(r.momentum(k));
  for (int k = 0; k < 3; ++k) put(r.angular_momentum(k));
  put(r.kinetic_translational);
  put(r.kinetic_rotational);
  out << ',' << r.contacts << ',' << r.bonds_broken;
  put(r.corrected);
  out << '\n';
}

void write_state_csv(std::ostream& out, const World& world) {
  out << "id,x,y,z,vx,vy,vz,qw,qx,qy,qz,wx,wy,wz\n";
  std::vector<int> slot(world.ids.size());  // rows in id order, wherever the bodies are stored
  for (size_t i = 0; i < slot.size(); ++i) slot[size_t(world.ids[i])] = int(i);
  for (int id = 0; id < world.size(); ++id) {
    const int i = slot.empty() ? id : slot[size_t(id)];
    out << id;
    for (int k = 0; k < 3; ++k) out << ',' << format_double(world.x(k, i));
    for (int k = 0; k < 3; ++k) out << ',' << format_double(world.v(k, i));
    const Quat& q = world.q[i];
    for (double c : {q.w(), q.x(), q.y(), q.z()}) out << ',' << format_double(c);
    for (int k = 0; k < 3; ++k) out << ',' << format_double(world.w(k, i));
    out << '\n';
  }
}

void write_bonds_csv(std::ostream& out, const World& world) {
  out << "i,j,stretch,shear,twist,bend,plane,normal_force,shear_force,twist_torque,bend_torque,broken\n";
  for (const BondReport& b : bond_reports(world)) {
    out << b.i << ',' << b.j;
    for (double v : {b.stretch, b.shear, b.twist, b.bend, b.plane, b.normal_force, b.shear_force,
                     b.twist_torque, b.bend_torque})
      out << ',' << format_double(v);
    out << ',' << (b.broken ? 1 : 0) << '\n';
  }
}

}  // namespace stepwise
