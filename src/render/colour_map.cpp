#include "render/colour_map.hpp"

#include <algorithm>
#include <cmath>

namespace stepwise {
ColourBy colour_by_name(const std::string& text) {
  std::string known;
  for (int i = 0; i < kColourByCount; ++i) {
    std::string name = kColourByNames[i];
    std::replace(name.begin(), name.end(), ' ', '-');
    if (name == text) return ColourBy(i);
    known += (i == 0 ? "" : i + 1 == kColourByCount ? " or " : ", ") + name;
  }
  throw InputError("--colour-by: expected " + known + ", got '" + text + "'");
}

BodyFigure figure_of(ColourBy by) {
  switch (by) {
    case ColourBy::Speed:
      return BodyFigure::Speed;
    case ColourBy::AngularSpeed:
      return BodyFigure::AngularSpeed;
    case ColourBy::KineticEnergy:
      return BodyFigure::KineticEnergy;
    case ColourBy::Force:
      return BodyFigure::Force;
    default:
      return BodyFigure::None;
  }
}

glm::vec3 colour_ramp(float t) {
  static const glm::vec3 stops[] = {{0.18f, 0.22f, 0.62f}, {0.13f, 0.55f, 0.68f},
                                    {0.35f, 0.75f, 0.42f}, {0.96f, 0.83f, 0.25f},
                                    {0.86f, 0.24f, 0.17f}};
  t = std::clamp(std::isfinite(t) ? t : 0.0f, 0.0f, 1.0f) * 4.0f;
  const int i = std::min(int(t), 3);
  return glm::mix(stops[i], stops[i + 1], t - float(i));
}

glm::vec3 id_colour(int id) {
  static const glm::vec3 palette[] = {{0.90f, 0.49f, 0.13f}, {0.20f, 0.51f, 0.74f},
                                      {0.30f, 0.69f, 0.29f}, {0.84f, 0.26f, 0.30f},
                                      {0.58f, 0.40f, 0.74f}, {0.55f, 0.76f, 0.82f},
                                      {0.94f, 0.75f, 0.25f}, {0.62f, 0.62f, 0.62f}};
  return palette[id % 8];
}

glm::vec3 material_colour(int material) {
  return material > 0 ? id_colour(material - 1) : glm::vec3(0.80f, 0.80f, 0.78f);
}

glm::vec3 load_colour(float load) {
  return glm::mix(glm::vec3(0.55f, 0.62f, 0.72f), glm::vec3(0.92f, 0.18f, 0.12f),
                  std::clamp(load, 0.0f, 1.0f));
}

ColourScale body_colours(const Snapshot& s, ColourBy by, std::vector<glm::vec4>& out) {
  const int n = s.bodies;
  out.resize(n);
  ColourScale scale{by, 0, 1, ""};
  if (by == ColourBy::Id) {
    for (int i = 0; i < n; ++i) out[i] = glm::vec4(id_colour(s.id(i)), 1.0f);
  } else if (by == ColourBy::Material) {
    for (int i = 0; i < n; ++i)
      out[i] = glm::vec4(material_colour(i < int(s.material.size()) ? s.material[i] : 0), 1.0f);
  } else {
    const bool carried = s.figure == figure_of(by) && int(s.figures.size()) == n;
    auto value = [&](int i) { return carried ? s.figures[i] : 0.0f; };
    float high = 0;
    for (int i = 0; i < n; ++i)
      if (!s.fixed[i] && std::isfinite(value(i))) high = std::max(high, value(i));
    scale.high = high > 0 ? high : 1.0f;
    for (int i = 0; i < n; ++i) out[i] = glm::vec4(colour_ramp(value(i) / scale.high), 1.0f);
  }
  for (int i = 0; i < n; ++i)
    if (s.fixed[i]) out[i] = glm::vec4(0.42f, 0.42f, 0.45f, 1.0f);
  return scale;
}

}  // namespace stepwise
