#include "io/vtk_series.hpp"

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "core/bonds/bond_common.hpp"
#include "io/atomic_file.hpp"

namespace stepwise {
namespace {

void array(std::ostream& out, const char* name, int components, const std::string& values,
           const char* type = "Float64") {
  out << "        <DataArray type=\"" << type << "\" Name=\"" << name
      << "\" NumberOfComponents=\"" << components << "\" format=\"ascii\">\n" << values
      << "\n        </DataArray>\n";
}

std::string numbers(const std::vector<double>& v) {
  std::ostringstream s;
  s.precision(17);
  for (size_t i = 0; i < v.size(); ++i) s << (i ? " " : "") << v[i];
  return s.str();
}

}  // namespace

VtkSeries::VtkSeries(std::string folder) : folder_(std::move(folder)) {
  std::error_code ec;
  std::filesystem::create_directories(folder_, ec);
  if (ec || !std::filesystem::is_directory(folder_))
    throw InputError("--vtk: cannot create folder " + folder_);
  write_index();  // fails early if the folder is not writable
}

VtkSeries::~VtkSeries() {
  try {
    write_index();
  } catch (...) {
  }
}

void VtkSeries::write_frame(Simulation& sim) {
  const World& world = sim.world();
  const int n = world.size();
  const std::vector<BondReport> bonds = bond_reports(world);
  const int lines = int(bonds.size());
  std::vector<double> points, radius, orientation, velocity, spin, id;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      points.push_back(world.x(k, i));
      velocity.push_back(world.v(k, i));
      spin.push_back(world.w(k, i));
    }
    const Quat& q = world.q[i];
    orientation.insert(orientation.end(), {q.w(), q.x(), q.y(), q.z()});
    radius.push_back(world.radius(i));  // the bounding radius of other shapes
    id.push_back(i);
  }
  std::ostringstream connectivity, offsets, types;
  std::vector<double> normal_force(n, 0.0), shear_force(n, 0.0), twist(n, 0.0), bend(n, 0.0),
      broken(n, 0.0), kind(n, 0.0);
  for (int i = 0; i < n; ++i) {
    connectivity << i << " ";
    offsets << i + 1 << " ";
    types << "1 ";  // VTK_VERTEX
  }
  for (int b = 0; b < lines; ++b) {
    connectivity << bonds[b].i << " " << bonds[b].j << " ";
    offsets << n + 2 * (b + 1) << " ";
    types << "3 ";  // VTK_LINE
    normal_force.push_back(bonds[b].normal_force);
    shear_force.push_back(bonds[b].shear_force);
    twist.push_back(bonds[b].twist_torque);
    bend.push_back(bonds[b].bend_torque);
    broken.push_back(bonds[b].broken ? 1 : 0);
    kind.push_back(1);
  }
  std::ostringstream out;
  out << "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" "
         "byte_order=\"LittleEndian\">\n  <UnstructuredGrid>\n";
  out << "    <Piece NumberOfPoints=\"" << n << "\" NumberOfCells=\"" << n + lines << "\">\n";
  out << "      <Points>\n";
  array(out, "position", 3, numbers(points));
  out << "      </Points>\n      <PointData Scalars=\"radius\" Vectors=\"velocity\">\n";
  array(out, "id", 1, numbers(id));
  array(out, "radius", 1, numbers(radius));
  array(out, "orientation", 4, numbers(orientation));
  array(out, "velocity", 3, numbers(velocity));
  array(out, "angular_velocity", 3, numbers(spin));
  out << "      </PointData>\n      <CellData>\n";
  array(out, "is_bond", 1, numbers(kind));
  array(out, "normal_force", 1, numbers(normal_force));
  array(out, "shear_force", 1, numbers(shear_force));
  array(out, "twist_torque", 1, numbers(twist));
  array(out, "bend_torque", 1, numbers(bend));
  array(out, "broken", 1, numbers(broken));
  out << "      </CellData>\n      <Cells>\n";
  array(out, "connectivity", 1, connectivity.str(), "Int64");
  array(out, "offsets", 1, offsets.str(), "Int64");
  array(out, "types", 1, types.str(), "UInt8");
  out << "      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n";
  char name[64];
  std::snprintf(name, sizeof name, "frame_%06d.vtu", int(entries_.size()));
  write_file_atomically(folder_ + "/" + name, out.str());
  entries_.emplace_back(sim.time(), name);
  if (entries_.size() % 16 == 1) write_index();
}

void VtkSeries::write_index() const {
  std::ostringstream out;
  out.precision(17);
  out << "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n";
  for (const auto& [time, file] : entries_)
    out << "    <DataSet timestep=\"" << time << "\" part=\"0\" file=\"" << file << "\"/>\n";
  out << "  </Collection>\n</VTKFile>\n";
  write_file_atomically(folder_ + "/series.pvd", out.str());
}

}  // namespace stepwise
