#pragma once
// Built-in scenes: named, parameterised builders shared by the window, the CLI and the tests.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/params.hpp"
#include "core/registry.hpp"
#include "core/world.hpp"

namespace stepwise {

struct ParamSpec {
  std::string name;
  ParamValue default_value;
  std::string description;
};

struct SceneInfo {
  std::string name;
  std::string summary;
  std::string notes;  // a few lines for the classroom
  std::vector<ParamSpec> params;
  int dimensions = 3;  // 2: a scene of the plane (build_scene sets World::dimensions from it)
};

// Everything needed to start a run: the bodies and forces plus sensible run settings.
struct SceneSetup {
  World world;
  std::string integrator = "velocity-verlet";
  std::string rotation = "buss2";
  double dt = 0.01;
  double duration = 10;
  ParamTable integrator_options;
  // Closed-form positions at time t where the scene has them (used by `sweep` and tests).
  std::function<Positions(double t)> exact;
};

class Scene {
 public:
  static constexpr const char* kRegistryKind = "scene";
  virtual ~Scene() = default;
  virtual SceneInfo info() const = 0;
  // `p` holds every declared parameter (defaults filled in, overrides applied).
  virtual SceneSetup build(const ParamTable& p) const = 0;
};

using SceneRegistry = Registry<Scene>;

// Builds a built-in scene with parameter overrides; unknown names or keys raise InputError.
SceneSetup build_scene(const std::string& name, const std::map<std::string, ParamValue>& overrides);
// The full parameter table a scene would be built from (defaults plus overrides).
ParamTable scene_parameters(const std::string& name,
                            const std::map<std::string, ParamValue>& overrides);

// Adds uniform gravity g along -z (shared by the scenes that fall).
void add_gravity(World& world, double g);

// Reads a parameter that must be > 0 (or >= 0 with allow_zero), naming it on failure.
double positive(const ParamTable& p, const std::string& key, bool allow_zero = false);
// A scene parameter in [low, high] (InputError naming the key, the range and the value otherwise;
// `condition`, as " for a mass of 2", says what the range depends on).
double within(const ParamTable& p, const std::string& key, double low, double high,
              const std::string& condition = "");
// A scene parameter a shape's length is made from (that length is scale times it): shapes take
// lengths in limits::kMinLength..kMaxLength, so the parameter is refused outside that over scale,
// naming it (the shape's own refusal would name only the length).
double shape_length(const ParamTable& p, const std::string& key, double scale);
// A scene parameter that counts something: a whole number in [low, high], checked before any
// cast (InputError naming the key, the range and the value otherwise).
int count(const ParamTable& p, const std::string& key, int low, int high);

}  // namespace stepwise

#define STEPWISE_REGISTER_SCENE(NAME, CLASS)                          \
  static const bool STEPWISE_CONCAT(registered_scene_, __COUNTER__) = \
      ::stepwise::SceneRegistry::instance().add(                      \
          NAME, [] { return std::unique_ptr<::stepwise::Scene>(std::make_unique<CLASS>()); })
