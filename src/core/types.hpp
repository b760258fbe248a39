#pragma once
// Basic numeric types of the physics core: double precision throughout.
#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace stepwise {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Quat = Eigen::Quaterniond;  // body -> world: v_world = q v_body q*
using Positions = Eigen::Matrix3Xd;  // one column per body
using VecX = Eigen::VectorXd;

// The largest column norm of a body array (0 for a World without bodies).
inline double largest_norm(const Positions& m) { return m.cols() ? m.colwise().norm().maxCoeff() : 0.0; }

// Raised for input the user can fix (unknown names, bad values); the CLI maps it to exit code 2.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace stepwise
