#pragma once
// A name -> factory registry. Plug-ins add themselves with one registration line; the GUI combos,
// `stepwise list` and the tests all enumerate the same registry.
#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace stepwise {

template <class Product, class... Args>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Product>(Args...)>;

  static Registry& instance() {
    static Registry registry;
    return registry;
  }

  bool add(const std::string& name, Factory factory) {
    factories_[name] = std::move(factory);
    return true;
  }

  bool contains(const std::string& name) const { return factories_.count(name) != 0; }

  std::unique_ptr<Product> make(const std::string& name, Args... args) const {
    auto it = factories_.find(name);
    if (it == factories_.end()) throw InputError(unknown_message(name));
    return it->second(std::forward<Args>(args)...);
  }

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [name, factory] : factories_) out.push_back(name);
    return out;
  }

  std::string unknown_message(const std::string& name) const {
    std::string list;
    for (const auto& [known, factory] : factories_) list += (list.empty() ? "" : ", ") + known;
    return "unknown " + std::string(Product::kRegistryKind) + " '" + name + "' (known: " + list + ")";
  }

 private:
  std::map<std::string, Factory> factories_;
};

}  // namespace stepwise

#define STEPWISE_CONCAT_INNER(a, b) a##b
#define STEPWISE_CONCAT(a, b) STEPWISE_CONCAT_INNER(a, b)
