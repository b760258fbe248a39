#pragma once
// The CSV tables of `stepwise run`: the per-step energy series and the final per-body state.
#include <ostream>
#include <string>

#include "core/energy.hpp"
#include "core/simulation.hpp"

namespace stepwise {

// step,time,kinetic,...: the column names other programs read; keep them stable.
std::string energy_csv_header();
void write_energy_csv_row(std::ostream& out, const EnergyReport& r);
// id,x,y,z,vx,vy,vz,qw,qx,qy,qz,wx,wy,wz with q body->world and w in the world frame.
void write_state_csv(std::ostream& out, const World& world);

// i,j,stretch,shear,twist,bend,plane,normal_force,shear_force,twist_torque,bend_torque,broken
void write_bonds_csv(std::ostream& out, const World& world);

}  // namespace stepwise
