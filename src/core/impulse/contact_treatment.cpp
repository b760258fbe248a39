#include "core/impulse/contact_treatment.hpp"

#include <algorithm>
#include <cmath>

#include "core/limits.hpp"

namespace stepwise {
namespace {

template <class E>
E find_name(const std::vector<std::string>& names, const std::string& name, const std::string& what,
            const std::string& where) {
  const auto found = std::find(names.begin(), names.end(), name);
  if (found != names.end()) return E(found - names.begin());
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  throw InputError(where + ": " + what + " must be one of " + list + " (got '" + name + "')");
}

}  // namespace

const std::vector<std::string>& ContactTreatment::mode_names() {
  static const std::vector<std::string> names = {"penalty", "impulse"};
  return names;
}

const std::vector<std::string>& ContactTreatment::solver_names() {
  static const std::vector<std::string> names = {"auto", "pgs", "lemke"};
  return names;
}

std::string ContactTreatment::mode_name() const {
  return mode_names()[int(mode)];
}

void ContactTreatment::set_mode(const std::string& name, const std::string& where) {
  mode = find_name<Mode>(mode_names(), name, "contact", where);
}

void ContactTreatment::set_option(const std::string& key, const ParamValue& value,
                                  const std::string& where) {
  const std::string what = where + ": impulse option '" + key + "'";
  if (key == "solver") {
    const std::string* name = std::get_if<std::string>(&value);
    solver = find_name<Solver>(solver_names(), name ? *name : std::string("(a number)"),
                               "impulse option 'solver'", where);
    return;
  }
  const double* number = std::get_if<double>(&value);
  if (key == "restitution") {
    if (!number) throw InputError(what + " is a number from 0 to 1");
    restitution = limits::checked(what, *number, 0, 1);
  } else if (key == "iterations") {
    if (!number) throw InputError(what + " is a whole number from 1 to 100000");
    iterations = int(limits::checked(what, *number, 1, 1e5, true));
  } else if (key == "facets") {
    if (!number) throw InputError(what + " is a whole number from 3 to 64");
    facets = int(limits::checked(what, *number, 3, 64, true));
  } else {
    throw InputError(where + ": unknown impulse option '" + key +
                     "' (restitution, iterations, solver, facets)");
  }
}

bool ContactTreatment::set_key(const std::string& key, const ParamValue& value,
                               const std::string& where) {
  if (key == "contact") {
    const std::string* name = std::get_if<std::string>(&value);
    set_mode(name ? *name : format_param_value(value), where);
    return true;
  }
  if (key.rfind("impulse.", 0) != 0) return false;
  mode = Mode::impulse;
  set_option(key.substr(8), value, where);
  return true;
}

void ContactTreatment::check(bool lists_contacts, const std::string& where, bool asked) const {
  if ((impulse() || asked) && !lists_contacts)
    throw InputError(where +
                     ": contact impulse needs a contact model (hooke or hertz) to find "
                     "where bodies touch; this scene has none");
}

void ContactTreatment::set_options(const ParamTable& table) {
  for (const auto& [key, value] : table.values()) set_option(key, value, table.where(key));
}

void ContactTreatment::save_options(ParamTable& out) const {
  out.set("restitution", restitution);
  out.set("iterations", double(iterations));
  out.set("solver", solver_names()[int(solver)]);
  out.set("facets", double(facets));
}

}  // namespace stepwise
