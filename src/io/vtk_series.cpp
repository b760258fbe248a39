#include "io/vtk_series.hpp"

#include <cstdio>
#include <filesystem>
#include <sstream>

#include <array>

#include "core/bonds/bond_common.hpp"
#include "core/shapes/convex_hull.hpp"
#include "io/atomic_file.hpp"

namespace stepwise {
namespace {

void array(std::ostream& out, const char* name, int components, const std::string& values,
           const char* type = "Float64") {
  out << "        <DataArray type=\"" << type << "\" Name=\"" << name << "\" NumberOfComponents=\""
      << components << "\" format=\"ascii\">\n"
      << values << "\n        </DataArray>\n";
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

namespace {

// What a body's shape draws, as VTK points and cells in the world frame: boxes and polyhedra
// become polyhedron cells (their corners as points), clump pebbles vertices with their radius.
// A sphere drawn at the body's centre is the body's own point and adds nothing.
class ShapeCells final : public DrawSink {
 public:
  struct Cell {
    std::vector<int> points;              // into the extra points, counted from 0
    std::vector<std::vector<int>> faces;  // polyhedra: each face's corners (outward, CCW)
    int body;
  };
  std::vector<Vec3> points;
  std::vector<double> radius;
  std::vector<int> body_of;
  std::vector<Cell> cells;

  void place(int body, const Vec3& x, const Mat3& R) { body_ = body, x_ = x, R_ = R; }
  void sphere(const Vec3& centre, double r) override {
    if (centre == Vec3::Zero()) return;
    cells.push_back({{add(centre, r)}, {}, body_});
  }
  void disk(const Vec3& centre, double r) override { sphere(centre, r); }  // a circle's glyph
  void box(const Vec3& h) override {
    Cell cell{{}, {}, body_};
    for (int k = 0; k < 8; ++k)
      cell.points.push_back(
          add(Vec3(k & 1 ? h.x() : -h.x(), k & 2 ? h.y() : -h.y(), k & 4 ? h.z() : -h.z()), 0));
    const int first = cell.points[0];
    // Corner k has bit 0 = +x, bit 1 = +y, bit 2 = +z; faces listed outward, counter-clockwise.
    for (const auto& f : {std::array{0, 4, 6, 2}, std::array{1, 3, 7, 5}, std::array{0, 1, 5, 4},
                          std::array{2, 6, 7, 3}, std::array{0, 2, 3, 1}, std::array{4, 5, 7, 6}})
      cell.faces.push_back({first + f[0], first + f[1], first + f[2], first + f[3]});
    cells.push_back(std::move(cell));
  }
  void hull(const ConvexHull& hull) override {
    Cell cell{{}, {}, body_};
    for (const Vec3& v : hull.vertices) cell.points.push_back(add(v, 0));
    for (const ConvexHull::Face& f : hull.faces) {
      cell.faces.emplace_back();
      for (int c : f.corners) cell.faces.back().push_back(cell.points[c]);
    }
    cells.push_back(std::move(cell));
  }

 private:
  int add(const Vec3& local, double r) {
    points.push_back(x_ + R_ * local);
    radius.push_back(r);
    body_of.push_back(body_);
    return int(points.size()) - 1;
  }
  int body_ = 0;
  Vec3 x_ = Vec3::Zero();
  Mat3 R_ = Mat3::Identity();
};

}  // namespace

void VtkSeries::write_frame(Simulation& sim) {
  const World& world = sim.world();
  const int n = world.size();
  const std::vector<BondReport> bonds = bond_reports(world);
  const int lines = int(bonds.size());
  ShapeCells shapes;
  for (int i = 0; i < n; ++i) {
    shapes.place(i, world.x.col(i), world.q[i].toRotationMatrix());
    world.shape[i]->draw(shapes);
  }
  const int extra = int(shapes.points.size()), total = n + extra;
  std::vector<double> points, radius, orientation, velocity, spin, id;
  auto add_point = [&](int i, const Vec3& p, double r) {
    const Vec3 arm = p - world.x.col(i), v = world.v.col(i) + world.w.col(i).cross(arm);
    for (int k = 0; k < 3; ++k) {
      points.push_back(p(k));
      velocity.push_back(v(k));  // the velocity of the material point
      spin.push_back(world.w(k, i));
    }
    const Quat& q = world.q[i];
    orientation.insert(orientation.end(), {q.w(), q.x(), q.y(), q.z()});
    radius.push_back(r);
    id.push_back(world.id(i));  // (points are stored in the World's order, named by id)
  };
  for (int i = 0; i < n; ++i) add_point(i, world.x.col(i), world.radius(i));  // bounding radius
  for (int k = 0; k < extra; ++k) add_point(shapes.body_of[k], shapes.points[k], shapes.radius[k]);
  std::ostringstream connectivity, offsets, types, faces, face_offsets;
  const int cells = n + lines + int(shapes.cells.size());
  std::vector<double> normal_force(n, 0.0), shear_force(n, 0.0), twist(n, 0.0), bend(n, 0.0),
      broken(n, 0.0), kind(n, 0.0), body(n, 0.0);
  for (int i = 0; i < n; ++i) body[i] = world.id(i);
  long offset = 0, face_offset = 0;
  for (int i = 0; i < n; ++i) {
    connectivity << i << " ";
    offsets << (offset += 1) << " ";
    types << "1 ";  // VTK_VERTEX
    face_offsets << "-1 ";
  }
  for (int b = 0; b < lines; ++b) {
    connectivity << bonds[b].i << " " << bonds[b].j << " ";
    offsets << (offset += 2) << " ";
    types << "3 ";  // VTK_LINE
    face_offsets << "-1 ";
    normal_force.push_back(bonds[b].normal_force);
    shear_force.push_back(bonds[b].shear_force);
    twist.push_back(bonds[b].twist_torque);
    bend.push_back(bonds[b].bend_torque);
    broken.push_back(bonds[b].broken ? 1 : 0);
    kind.push_back(1);
    body.push_back(-1);
  }
  for (const ShapeCells::Cell& cell : shapes.cells) {
    for (int p : cell.points) connectivity << n + p << " ";
    offsets << (offset += long(cell.points.size())) << " ";
    if (cell.faces.empty()) {
      types << "1 ";  // a pebble
      face_offsets << "-1 ";
    } else {
      types << "42 ";  // VTK_POLYHEDRON: face count, then each face's size and points
      faces << cell.faces.size() << " ";
      face_offset += 1;
      for (const auto& face : cell.faces) {
        faces << face.size() << " ";
        for (int p : face) faces << n + p << " ";
        face_offset += 1 + long(face.size());
      }
      face_offsets << face_offset << " ";
    }
    for (auto* column : {&normal_force, &shear_force, &twist, &bend, &broken, &kind})
      column->push_back(0);
    body.push_back(world.id(cell.body));
  }
  std::ostringstream out;
  out << "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" "
         "byte_order=\"LittleEndian\">\n  <UnstructuredGrid>\n";
  out << "    <Piece NumberOfPoints=\"" << total << "\" NumberOfCells=\"" << cells << "\">\n";
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
  array(out, "body", 1, numbers(body));
  array(out, "normal_force", 1, numbers(normal_force));
  array(out, "shear_force", 1, numbers(shear_force));
  array(out, "twist_torque", 1, numbers(twist));
  array(out, "bend_torque", 1, numbers(bend));
  array(out, "broken", 1, numbers(broken));
  out << "      </CellData>\n      <Cells>\n";
  array(out, "connectivity", 1, connectivity.str(), "Int64");
  array(out, "offsets", 1, offsets.str(), "Int64");
  array(out, "types", 1, types.str(), "UInt8");
  if (face_offset > 0) {
    array(out, "faces", 1, faces.str(), "Int64");
    array(out, "faceoffsets", 1, face_offsets.str(), "Int64");
  }
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
