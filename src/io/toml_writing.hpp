#pragma once
// Values and tables written as TOML, as a saved scene writes them (io/scene_writer.cpp); the
// reading side writes shape tables the same way to compare them (ShapeCache).
#include <ostream>
#include <string>

#include "core/params.hpp"

namespace stepwise {

// A value as TOML: a string quoted (escaping quotes and backslashes), numbers round-trip exact.
std::string value_text(const ParamValue& value);
// `key = value` lines of a table, then its arrays of tables as [[prefix.key]] with their lines.
void write_table(std::ostream& out, const ParamTable& table, const std::string& prefix);

}  // namespace stepwise
