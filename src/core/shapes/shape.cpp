#include "core/shapes/shape.hpp"

#include <map>
#include <mutex>

namespace stepwise {
namespace {

std::map<std::string, int>& shape_types() {
  static std::map<std::string, int> types;
  return types;
}
std::mutex& shape_types_lock() {
  static std::mutex lock;
  return lock;
}

}  // namespace

int shape_type(const std::string& kind) {
  std::lock_guard<std::mutex> hold(shape_types_lock());
  auto& types = shape_types();
  const auto found = types.find(kind);
  if (found != types.end()) return found->second;
  const int type = int(types.size());
  types[kind] = type;
  return type;
}

Shape::Shape(const std::string& kind, const std::string& collides_as)
    : kind_(kind), type_(shape_type(collides_as.empty() ? kind : collides_as)) {}

const std::vector<ClumpSphere>& Shape::members() const {
  static const std::vector<ClumpSphere> none;
  return none;
}

const std::vector<ShapePtr>& Shape::member_shapes() const {
  static const std::vector<ShapePtr> none;
  return none;
}

ShapePtr make_shape(const std::string& kind, const ParamTable& keys, bool body_frame) {
  return ShapeRegistry::instance().make(kind, keys, body_frame);
}

ShapePtr sphere_shape(double radius) {
  ParamTable keys("sphere");
  keys.set("radius", radius);
  return make_shape("sphere", keys, true);
}

ShapePtr disk_shape(double radius) {
  ParamTable keys("disk");
  keys.set("radius", radius);
  return make_shape("disk", keys, true);
}

ShapePtr disk_clump_shape(const std::vector<ClumpSphere>& disks, bool body_frame) {
  ParamTable keys("disk-clump");
  std::vector<double> flat;
  for (const ClumpSphere& d : disks) flat.insert(flat.end(), {d.centre.x(), d.centre.y(), d.radius});
  keys.set("disks", flat);
  return make_shape("disk-clump", keys, body_frame);
}

ShapePtr polygon_shape(const std::vector<Vec3>& corners, bool body_frame) {
  ParamTable keys("polygon");
  std::vector<double> flat;
  for (const Vec3& c : corners) flat.insert(flat.end(), {c.x(), c.y()});
  keys.set("vertices", flat);
  return make_shape("polygon", keys, body_frame);
}

ShapePtr box_shape(const Vec3& half_extents) {
  ParamTable keys("box");
  keys.set("half_extents", std::vector<double>{half_extents.x(), half_extents.y(), half_extents.z()});
  return make_shape("box", keys, true);
}

ShapePtr clump_shape(const std::vector<ClumpSphere>& spheres, bool body_frame) {
  ParamTable keys("clump");
  std::vector<double> flat;
  for (const ClumpSphere& s : spheres)
    flat.insert(flat.end(), {s.centre.x(), s.centre.y(), s.centre.z(), s.radius});
  keys.set("spheres", flat);
  return make_shape("clump", keys, body_frame);
}

ShapePtr polyhedron_shape(const std::vector<Vec3>& vertices, bool body_frame) {
  ParamTable keys("polyhedron");
  std::vector<double> flat;
  for (const Vec3& v : vertices) flat.insert(flat.end(), {v.x(), v.y(), v.z()});
  keys.set("vertices", flat);
  return make_shape("polyhedron", keys, body_frame);
}

}  // namespace stepwise
