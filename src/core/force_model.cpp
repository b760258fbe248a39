#include "core/force_model.hpp"

#include "core/limits.hpp"

namespace stepwise {

void ForceModel::tune(const std::string& name, double value) {
  for (const Tunable& t : tunables())
    if (t.name == name) {
      limits::checked(kind() + "." + name, value, t.low, t.high);
      return set_tunable(name, value);
    }
  std::string known;
  for (const Tunable& t : tunables()) known += (known.empty() ? "" : ", ") + t.name;
  throw InputError("force model '" + kind() + "' has no live parameter '" + name + "'" +
                   (known.empty() ? "" : " (it has " + known + ")"));
}

}  // namespace stepwise
