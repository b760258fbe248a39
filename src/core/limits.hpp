#pragma once
// The ranges a run's numbers must lie in, stated once and checked where they enter (scene files,
// command-line flags, the window's fields): beyond them a run means nothing or never ends.
#include <cmath>
#include <string>

#include "core/params.hpp"

namespace stepwise::limits {

constexpr double kMinDt = 1e-12, kMaxDt = 1e6;                 // seconds
constexpr double kMaxDuration = 1e9;                           // seconds of simulated time
constexpr double kMaxSteps = 1e12;                             // steps in one run
constexpr double kMaxTime = 1e15;                              // a saved state's clock
constexpr double kMaxSeed = 9007199254740992.0;                // 2^53: seeds survive a double
constexpr double kMaxFps = 240, kMaxVideoSeconds = 3600;       // a recording
constexpr double kMinSlowMotion = 1e-3, kMaxSlowMotion = 1e3;  // simulated per real second
// A body's coordinates, velocities, spins, momenta, mass and moments as a file gives them: far
// beyond any scene, yet their squares and products stay finite.
constexpr double kMaxMagnitude = 1e100;
// A shape's lengths (radii, half-extents, corners, a clump's centres): their fifth powers (the
// moments) and the hull's plane tests stay finite.
constexpr double kMinLength = 1e-12, kMaxLength = 1e12;
// A saved state's numbers (cached forces and torques, energies, contact springs): whatever bodies
// within kMaxMagnitude make, short of overflow.
constexpr double kMaxStateMagnitude = 1e300;

// Bodies in one World (2,000,000; the fuzz targets lower it to keep each input quick). Read by
// World::add_body, so every way of making bodies meets it.
inline int& max_bodies() {
  static int limit = 2000000;
  return limit;
}

// Steps in one run (kMaxSteps; the command-line fuzz target lowers it so that each input ends
// within its seconds). Read by every check of a run's length.
inline double& max_steps() {
  static double limit = kMaxSteps;
  return limit;
}

// Sub-steps the adaptive integrator may try within one step of dt before it gives up (100,000;
// the command-line fuzz target lowers it with the others).
inline long& max_substeps() {
  static long limit = 100000;
  return limit;
}

// Body evaluations a Newton iteration of an implicit method may take for a force model's Jacobian
// by differences (Dynamics::jacobians): groups of bodies perturbed in turn times the bodies each
// evaluation covers, 2,000 bodies one by one (some seconds a step); and the bodies of such a
// run, whose Newton matrix's sparse LU grows faster than n.
// (The bodies' limit is settable for the tests: 50,000 bodies take minutes to build under the
// sanitizers.)
constexpr long kMaxDifferencedWork = 4000000;
inline int& max_differenced_bodies() {
  static int limit = 100000;
  return limit;
}

// Body-steps a comparison run may take at once to keep up with the main run (2e8: seconds of
// stepping; the commands fuzz target lowers it). A run far finer than the main one, or a main run
// whose dt was raised far above the comparison's, would otherwise hold the physics thread for
// hours: beyond this the comparison stops and says why.
inline double& max_catch_up() {
  static double limit = 2e8;
  return limit;
}

inline std::string range(double low, double high) {
  return "from " + format_double(low) + " to " + format_double(high);
}

// InputError "<what>: must be ... (got v)" unless low <= v <= high (and whole, if asked).
inline double checked(const std::string& what, double v, double low, double high,
                      bool whole = false) {
  if (!(v >= low && v <= high) || (whole && v != std::floor(v)))
    throw InputError(what + ": must be " + (whole ? "a whole number " : "") + range(low, high) +
                     " (got " + format_double(v) + ")");
  return v;
}

// The same with its name made by name() only when refused (values read by the million: a saved
// state's bodies).
template <class Name>
double checked_named(const Name& name, double v, double low, double high, bool whole = false) {
  if (!(v >= low && v <= high) || (whole && v != std::floor(v)))
    return checked(name(), v, low, high, whole);
  return v;
}

inline double dt(const std::string& what, double v) {
  return checked(what, v, kMinDt, kMaxDt);
}
inline double duration(const std::string& what, double v) {
  return checked(what, v, kMinDt, kMaxDuration);
}
// The steps a duration takes at dt, refused beyond kMaxSteps.
inline long steps(double duration, double dt) {
  const double n = std::round(duration / dt);
  if (!(n <= max_steps()))
    throw InputError("duration " + format_double(duration) + " s at dt " + format_double(dt) +
                     " is " + format_double(n) + " steps: at most " + format_double(max_steps()) +
                     " in one run (raise dt or shorten the run)");
  return static_cast<long>(n);
}

// InputError "<what>: must be from -1e+100 to 1e+100 (got v)" unless every component is.
template <class Vector>
Vector magnitude(const std::string& what, const Vector& v) {
  for (int k = 0; k < int(v.size()); ++k) checked(what, v[k], -kMaxMagnitude, kMaxMagnitude);
  return v;
}
template <class Name, class Vector>
Vector magnitude_named(const Name& name, const Vector& v) {
  for (int k = 0; k < int(v.size()); ++k) checked_named(name, v[k], -kMaxMagnitude, kMaxMagnitude);
  return v;
}

// A saved contact's key (springs, warm-start impulses): bodies i and j (j < 0: a wall) and its
// feature's two 32-bit halves, as four doubles. Whether all are whole numbers in range.
inline bool contact_key(const double* v) {
  for (int c = 0; c < 4; ++c)
    if (!(v[c] == std::floor(v[c]) && std::abs(v[c]) < (c < 2 ? 2.1e9 : 4.3e9) &&
          (c < 2 || v[c] >= 0)))
      return false;
  return true;
}

}  // namespace stepwise::limits
