#pragma once
// A body's shape: one plug-in per kind (sphere, box, polyhedron, clump), registered by name like
// integrators. A shape owns what only it knows: its mass properties (uniform density, in its
// principal frame with the centroid at the origin), its bounds, its support function and convex
// hull or member spheres for the collision table (core/collision), its scene-file keys and what
// the renderer draws. Shapes are immutable and shared between bodies and copies of a World.
#include <memory>
#include <string>
#include <vector>

#include "core/params.hpp"
#include "core/registry.hpp"
#include "core/types.hpp"

namespace stepwise {

struct ConvexHull;

// A member sphere of a clump, or a sphere to draw: centre in the body frame and radius.
struct ClumpSphere {
  Vec3 centre;
  double radius;
};

// Where a shape read in a template frame (a clump's spheres, a polyhedron's vertices as the user
// gave them) put its body frame: the centroid and the principal axes, in template coordinates.
struct ShapeFrame {
  Vec3 centre = Vec3::Zero();
  Quat axes = Quat::Identity();
};

// What the renderer is told to draw, in the body frame; core knows no GL. The snapshot turns
// these calls into instances.
class DrawSink {
 public:
  virtual ~DrawSink() = default;
  virtual void sphere(const Vec3& centre, double radius) = 0;
  virtual void box(const Vec3& half_extents) = 0;
  virtual void hull(const ConvexHull& hull) = 0;  // faces as polygons
  // A disk of the plane: a filled circle with a spoke along the body x axis, so it is seen turning.
  virtual void disk(const Vec3& centre, double radius) = 0;
};

class Shape;
using ShapePtr = std::shared_ptr<const Shape>;

class Shape {
 public:
  static constexpr const char* kRegistryKind = "shape";
  // `collides_as`: the kind whose collision-table row it takes (a disk touches as a sphere of
  // its radius, a clump of disks as a clump); empty: its own.
  explicit Shape(const std::string& kind, const std::string& collides_as = "");
  virtual ~Shape() = default;
  const std::string& kind() const { return kind_; }  // registry name: `shape = "..."`
  // This kind's row and column in the collision table (core/collision/collision.hpp).
  int type() const { return type_; }
  virtual double volume() const = 0;
  // Principal moments of inertia per unit mass (uniform density), body frame.
  virtual Vec3 unit_inertia() const = 0;
  virtual double bounding_radius() const = 0;  // about the body origin
  // Radius of curvature the Hertz law uses at this shape's contacts (a sphere's radius).
  virtual double contact_radius() const = 0;
  virtual Vec3 support(const Vec3& direction) const = 0;  // body frame, farthest point along it
  virtual const ConvexHull* hull() const { return nullptr; }  // polyhedral convex shapes
  // Compound shapes (clumps): their parts, spheres in the body frame. Empty for the rest.
  virtual const std::vector<ClumpSphere>& members() const;
  // The same parts as sphere shapes, in the same order, for the collision table.
  virtual const std::vector<ShapePtr>& member_shapes() const;
  // The keys that rebuild it from a scene file, in the body frame.
  virtual void save(ParamTable& out) const = 0;
  virtual void draw(DrawSink& sink) const = 0;
  // A body of the plane (a disk, a clump of disks): only a 2-D world (World::dimensions) takes it.
  virtual bool planar() const { return false; }
  // For shapes read in a template frame: where their body frame sits in it.
  const ShapeFrame& frame() const { return frame_; }

 protected:
  ShapeFrame frame_;

 private:
  std::string kind_;
  int type_;
};

// Built from a [[body]] table's keys; `body_frame`: the keys are in the body (principal) frame
// already (a saved state), so nothing is moved and the shape reloads bit for bit.
using ShapeRegistry = Registry<Shape, const ParamTable&, bool>;

// The common shapes, for scenes written in code.
ShapePtr sphere_shape(double radius);
ShapePtr disk_shape(double radius);  // 2-D worlds only
// A clump of disks (x, y, radius) in a template frame: area, centroid and polar moment exact.
ShapePtr disk_clump_shape(const std::vector<ClumpSphere>& disks, bool body_frame = false);
// A convex polygon of the plane from its corners (x, y; z ignored), in a template frame.
ShapePtr polygon_shape(const std::vector<Vec3>& corners, bool body_frame = false);
ShapePtr box_shape(const Vec3& half_extents);
// A clump from spheres in a template frame (see ShapeFrame) or in the body frame.
ShapePtr clump_shape(const std::vector<ClumpSphere>& spheres, bool body_frame = false);
// A convex polyhedron, the hull of these points.
ShapePtr polyhedron_shape(const std::vector<Vec3>& vertices, bool body_frame = false);
ShapePtr make_shape(const std::string& kind, const ParamTable& keys, bool body_frame);

// A small number for each shape kind, the same for every shape of that kind in this process.
int shape_type(const std::string& kind);

}  // namespace stepwise

#define STEPWISE_REGISTER_SHAPE(NAME, CLASS)                                                   \
  static const bool STEPWISE_CONCAT(registered_shape_, __COUNTER__) =                          \
      ::stepwise::ShapeRegistry::instance().add(                                               \
          NAME, [](const ::stepwise::ParamTable& p, bool body_frame) {                         \
            return std::unique_ptr<::stepwise::Shape>(std::make_unique<CLASS>(p, body_frame)); \
          })
