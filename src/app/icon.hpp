#pragma once
// The program's icon: an orbit, its sun and planet, and the explicit-Euler spiral that drifts off
// it. Drawn once, in code, to both an SVG (the scalable icon) and RGBA pixels (the PNG sizes the
// desktop wants and the window's own icon), so the two can never disagree.
#include <string>

#include "io/png.hpp"

namespace stepwise::cli {

std::string icon_svg();
// A size x size picture, 4x4 samples per pixel; transparent outside the rounded square.
Image icon_image(int size);

}  // namespace stepwise::cli
