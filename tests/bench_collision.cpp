// Cost of one narrow-phase call of the collision table, per shape pair, on poses where the two
// bodies touch (as the contact path calls it: bounding spheres overlap) and where they are
// near but apart. Prints nanoseconds per call; not a test (figures vary by machine).
#include <chrono>
#include <cstdio>
#include <string>

#include "core/collision/collision.hpp"
#include "core/random.hpp"

using namespace stepwise;

namespace {

struct Pose {
  Placement a, b;
};

const char* only = nullptr;  // argv[1]: time only this pair

// spacing > 0: b at that distance in a random direction, both turned at random; spacing 0:
// b resting on a's top face (as in a stack or a pile), tilted by up to 1e-3 rad, 1e-3 deep.
void time_pair(const char* name, const ShapePtr& A, const ShapePtr& B, double spacing) {
  if (only && std::string(only) != name) return;
  Random random(1);
  std::vector<Pose> poses;
  for (int k = 0; k < 4096; ++k) {
    if (spacing == 0) {
      const Mat3 tilt =
          Quat(Eigen::AngleAxisd(random.uniform(0, 1e-3),
                                 Vec3(random.normal(), random.normal(), 0).normalized()))
              .toRotationMatrix();
      const double up =
          A->support(Vec3::UnitZ()).z() +
          B->support(-tilt.transpose() * Vec3::UnitZ()).dot(-tilt.transpose() * Vec3::UnitZ());
      poses.push_back(
          {{*A, Vec3::Zero(), Mat3::Identity()},
           {*B, Vec3(random.uniform(-0.1, 0.1), random.uniform(-0.1, 0.1), up - 1e-3), tilt}});
      continue;
    }
    const Vec3 offset =
        spacing * Vec3(random.normal(), random.normal(), random.normal()).normalized();
    poses.push_back({{*A, Vec3::Zero(), random_orientation(random).toRotationMatrix()},
                     {*B, offset, random_orientation(random).toRotationMatrix()}});
  }
  Contacts out;
  std::vector<PairCache> caches(poses.size());
  long touching = 0, points = 0;
  const int rounds = 50;
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < rounds; ++r)
    for (size_t k = 0; k < poses.size(); ++k) {
      out.clear();
      const int n = CollisionTable::instance().collide(poses[k].a, poses[k].b, caches[k], out);
      touching += n > 0, points += n;
    }
  const double ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
      (double(rounds) * poses.size());
  std::printf("%-24s %7.1f ns per call   %5.1f%% touching, %.2f points each\n", name, ns,
              100.0 * touching / (double(rounds) * poses.size()),
              touching ? double(points) / touching : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) only = argv[1];
  const ShapePtr box = box_shape(Vec3::Constant(0.5));
  const ShapePtr octa = polyhedron_shape({Vec3(0.7, 0, 0), Vec3(-0.7, 0, 0), Vec3(0, 0.7, 0),
                                          Vec3(0, -0.7, 0), Vec3(0, 0, 0.7), Vec3(0, 0, -0.7)});
  const ShapePtr ball = sphere_shape(0.5);
  // Centres 0.9 apart: nearly always touching; 1.4 apart: bounding spheres overlap, often apart.
  for (double spacing : {0.0, 0.9, 1.4}) {
    if (spacing == 0)
      std::printf("resting face on face (1e-3 deep, tilted up to 1e-3 rad)\n");
    else
      std::printf("centres %.1f apart, turned at random\n", spacing);
    time_pair("box-box", box, box, spacing);
    time_pair("box-polyhedron", box, octa, spacing);
    time_pair("polyhedron-polyhedron", octa, octa, spacing);
    time_pair("sphere-box", ball, box, spacing);
    time_pair("sphere-sphere", ball, ball, spacing);
  }
}
