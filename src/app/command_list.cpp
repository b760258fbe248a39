// `stepwise list`: every scene, integrator, rotation scheme and force model in the registries.
#include <cstdio>

#include "app/commands.hpp"
#include "core/constraints/constraint.hpp"
#include "core/scene.hpp"
#include "core/shapes/shape.hpp"

namespace stepwise::cli {

namespace {
void print_methods(const char* title, const std::vector<MethodInfo>& methods) {
  std::printf("%s\n  %-18s %5s  %-8s  %-10s  %s\n", title, "name", "order", "kind", "symplectic",
              "force evals/step");
  for (const MethodInfo& m : methods)
    std::printf("  %-18s %5d  %-8s  %-10s  %d\n", m.name.c_str(), m.order,
                m.implicit ? "implicit" : "explicit", m.symplectic ? "yes" : "no", m.force_evals);
  std::printf("\n");
}
}  // namespace

int command_list(bool verbose) {
  std::printf("scenes\n");
  for (const std::string& name : SceneRegistry::instance().names()) {
    const SceneInfo info = SceneRegistry::instance().make(name)->info();
    std::printf("  %-18s %s  %s\n", name.c_str(), info.dimensions == 2 ? "2-D" : "3-D",
                info.summary.c_str());
    if (verbose)
      for (const ParamSpec& p : info.params)
        std::printf("      %-14s = %-10s %s\n", p.name.c_str(),
                    format_param_value(p.default_value).c_str(), p.description.c_str());
  }
  std::printf("\n");
  std::vector<MethodInfo> integrators, rotations;
  for (const std::string& name : IntegratorRegistry::instance().names())
    integrators.push_back(IntegratorRegistry::instance().make(name)->info());
  for (const std::string& name : RotationRegistry::instance().names())
    rotations.push_back(RotationRegistry::instance().make(name)->info());
  print_methods("integrators (--integrator)", integrators);
  print_methods("rotation schemes (--rotation)", rotations);
  if (verbose)
    for (const auto* group : {&integrators, &rotations})
      for (const MethodInfo& m : *group)
        std::printf("%s: %s\n    %s\n\n", m.name.c_str(), m.summary.c_str(), m.equations.c_str());
  std::printf("shapes ([[body]] shape = ...; disk, disk-clump and polygon in 2-D scenes only)\n");
  for (const std::string& name : ShapeRegistry::instance().names()) std::printf("  %s\n", name.c_str());
  std::printf("force models\n");
  for (const std::string& name : ForceRegistry::instance().names()) std::printf("  %s\n", name.c_str());
  std::printf("constraint kinds ([[force.constraint]] of the constraints model)\n");
  for (const std::string& name : ConstraintRegistry::instance().names())
    std::printf("  %s\n", name.c_str());
  const ContactTreatment defaults;
  std::printf("contact treatments (--contact; [scene] contact = ...)\n"
              "  penalty            the contact models' springs and dashpots (DEM)\n"
              "  impulse            rigid contact: Newton's impulses, resting contacts held "
              "exactly; options\n"
              "                     (--set impulse.KEY=VALUE, [impulse]): restitution (%g), "
              "iterations (%d),\n"
              "                     solver (auto | pgs | lemke), facets (%d: lemke's "
              "friction pyramid)\n",
              defaults.restitution, defaults.iterations, defaults.facets);
  return 0;
}

}  // namespace stepwise::cli
