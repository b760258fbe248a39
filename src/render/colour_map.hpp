#pragma once
// How bodies are coloured: by id, or by a quantity on a perceptual ramp with an auto range.
// Pure data (no GL), so the legend in the panels uses the same ramp.
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "runtime/snapshot.hpp"

namespace stepwise {

enum class ColourBy { Id, Speed, AngularSpeed, KineticEnergy, Force, Material };
inline constexpr const char* kColourByNames[] = {
    "id", "speed", "angular speed", "kinetic energy", "force", "material"};
inline constexpr int kColourByCount = 6;
// A --colour-by value (the names with '-' for ' '); InputError naming them otherwise.
ColourBy colour_by_name(const std::string& text);
// The per-body figure a colour mode needs in the snapshot (SnapshotDetail::figure).
BodyFigure figure_of(ColourBy by);

struct ColourScale {
  ColourBy by = ColourBy::Id;
  float low = 0, high = 1;
  const char* unit = "";
};

glm::vec3 colour_ramp(float t);  // t in [0, 1]: deep blue, teal, yellow, red
glm::vec3 id_colour(int id);
glm::vec3 material_colour(int material);  // a materials id; 0 (none): pale grey
glm::vec3 load_colour(float load);        // bonds: grey-blue when slack, red at the scene's peak

// One colour per body; returns the range the legend shows. A snapshot that does not carry the
// mode's figure (filled before the window asked for it) colours every body as the lowest value.
ColourScale body_colours(const Snapshot& s, ColourBy by, std::vector<glm::vec4>& out);

}  // namespace stepwise
