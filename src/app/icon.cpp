// The icon, drawn by one function to two painters: SVG text and anti-aliased pixels.
#include "app/icon.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

namespace stepwise::cli {
namespace {

constexpr double kCanvas = 256;  // the drawing's own units; the SVG's viewBox

struct Point {
  double x, y;
};
struct Colour {
  unsigned char r, g, b;
};

class Painter {
 public:
  virtual ~Painter() = default;
  virtual void rounded_square(double inset, double radius, Colour c) = 0;
  virtual void circle(Point centre, double radius, Colour c) = 0;
  // Round caps and joins, as both SVG and the distance field draw them.
  virtual void stroke(const std::vector<Point>& points, bool closed, double width, Colour c) = 0;
};

// The story of the product in one picture: Kepler's orbit (GM = 1, e = 0.5, started at
// periapsis) and explicit Euler's path from the same start, spiralling out over two periods.
void draw(Painter& p) {
  std::vector<Point> euler{{0.5, 0.0}};
  double x = 0.5, y = 0, vx = 0, vy = std::sqrt(3.0);
  const double dt = 2 * M_PI / 300;
  for (int step = 1; step <= 600; ++step) {
    const double r3 = std::pow(x * x + y * y, 1.5);
    const double ax = -x / r3, ay = -y / r3;
    x += dt * vx, y += dt * vy, vx += dt * ax, vy += dt * ay;
    if (step % 4 == 0) euler.push_back({x, y});
  }
  std::vector<Point> orbit;  // a = 1, b = sqrt(3)/2, centre (-0.5, 0): the sun at a focus
  for (int k = 0; k < 120; ++k)
    orbit.push_back(
        {-0.5 + std::cos(2 * M_PI * k / 120), std::sqrt(0.75) * std::sin(2 * M_PI * k / 120)});

  // Fit the Euler path (the widest thing) into the square, sun on the left.
  double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
  for (const Point& q : euler)
    x0 = std::min(x0, q.x), x1 = std::max(x1, q.x), y0 = std::min(y0, q.y), y1 = std::max(y1, q.y);
  const double scale = 184 / std::max(x1 - x0, y1 - y0);
  const auto place = [&](Point q) {
    return Point{kCanvas / 2 - scale * (q.x - (x0 + x1) / 2),
                 kCanvas / 2 - scale * (q.y - (y0 + y1) / 2)};
  };
  for (Point& q : euler) q = place(q);
  for (Point& q : orbit) q = place(q);

  p.rounded_square(8, 46, {23, 35, 58});
  p.stroke(euler, false, 6, {255, 138, 61});
  p.stroke(orbit, true, 8, {124, 196, 255});
  p.circle(place({0, 0}), 18, {255, 210, 74});
  p.circle(place({0.5, 0}), 12, {236, 244, 255});
}

std::string hex(Colour c) {
  char s[8];
  std::snprintf(s, sizeof s, "#%02x%02x%02x", c.r, c.g, c.b);
  return s;
}

class SvgPainter : public Painter {
 public:
  std::string text;
  void rounded_square(double inset, double radius, Colour c) override {
    text += format("  <rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" rx=\"%g\" fill=\"", inset,
                   inset, kCanvas - 2 * inset, kCanvas - 2 * inset, radius) +
            hex(c) + "\"/>\n";
  }
  void circle(Point o, double radius, Colour c) override {
    text += format("  <circle cx=\"%.2f\" cy=\"%.2f\" r=\"%g\" fill=\"", o.x, o.y, radius) +
            hex(c) + "\"/>\n";
  }
  void stroke(const std::vector<Point>& points, bool closed, double width, Colour c) override {
    text += closed ? "  <polygon points=\"" : "  <polyline points=\"";
    for (const Point& q : points) text += format("%.2f,%.2f ", q.x, q.y);
    text.back() = '"';
    text += format(
                " fill=\"none\" stroke-width=\"%g\" stroke-linecap=\"round\" "
                "stroke-linejoin=\"round\" stroke=\"",
                width) +
            hex(c) + "\"/>\n";
  }

 private:
  template <typename... Args>
  static std::string format(const char* pattern, Args... args) {
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, pattern, args...);
    return buffer;
  }
};

double segment_distance(Point p, Point a, Point b) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double length2 = dx * dx + dy * dy;
  const double t =
      length2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / length2, 0.0, 1.0) : 0;
  return std::hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
}

// Each shape as a signed distance (negative inside), composited "over" with its coverage.
class PixelPainter : public Painter {
 public:
  explicit PixelPainter(int size) : size_(size), rgba_(4 * size_t(size) * size, 0.0) {}

  void rounded_square(double inset, double radius, Colour c) override {
    const double half = kCanvas / 2 - inset - radius;
    fill(c, [=](Point p) {
      const double qx = std::abs(p.x - kCanvas / 2) - half, qy = std::abs(p.y - kCanvas / 2) - half;
      return std::hypot(std::max(qx, 0.0), std::max(qy, 0.0)) + std::min(std::max(qx, qy), 0.0) -
             radius;
    });
  }
  void circle(Point o, double radius, Colour c) override {
    fill(c, [=](Point p) { return std::hypot(p.x - o.x, p.y - o.y) - radius; });
  }
  void stroke(const std::vector<Point>& points, bool closed, double width, Colour c) override {
    fill(c, [&](Point p) {
      double d = closed ? segment_distance(p, points.back(), points.front()) : 1e9;
      for (size_t k = 1; k < points.size(); ++k)
        d = std::min(d, segment_distance(p, points[k - 1], points[k]));
      return d - width / 2;
    });
  }

  Image image() const {
    Image out{size_, size_, std::vector<std::uint8_t>(rgba_.size())};
    for (size_t k = 0; k < rgba_.size(); k += 4) {
      const double alpha = rgba_[k + 3];  // stored premultiplied
      for (int c = 0; c < 3; ++c)
        out.rgba[k + c] = std::uint8_t(std::lround(alpha > 0 ? 255 * rgba_[k + c] / alpha : 0));
      out.rgba[k + 3] = std::uint8_t(std::lround(255 * alpha));
    }
    return out;
  }

 private:
  // Pixels whose centre is more than a half-diagonal from the edge are wholly in or out; the
  // rest are sampled 4 x 4.
  void fill(Colour c, const std::function<double(Point)>& distance) {
    const double unit = kCanvas / size_;  // drawing units per pixel
    for (int row = 0; row < size_; ++row)
      for (int col = 0; col < size_; ++col) {
        const double d = distance({(col + 0.5) * unit, (row + 0.5) * unit}) / unit;
        double cover = d < -0.71 ? 1 : 0;
        if (std::abs(d) <= 0.71) {
          for (int sy = 0; sy < 4; ++sy)
            for (int sx = 0; sx < 4; ++sx)
              cover += distance({(col + (sx + 0.5) / 4) * unit, (row + (sy + 0.5) / 4) * unit}) < 0;
          cover /= 16;
        }
        double* px = &rgba_[4 * (size_t(row) * size_ + col)];
        const double colour[3] = {c.r / 255.0, c.g / 255.0, c.b / 255.0};
        for (int k = 0; k < 3; ++k) px[k] = cover * colour[k] + (1 - cover) * px[k];
        px[3] = cover + (1 - cover) * px[3];
      }
  }

  int size_;
  std::vector<double> rgba_;
};

}  // namespace

std::string icon_svg() {
  SvgPainter svg;
  draw(svg);
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"256\" height=\"256\" "
         "viewBox=\"0 0 256 256\">\n  <title>stepwise</title>\n" +
         svg.text + "</svg>\n";
}

Image icon_image(int size) {
  PixelPainter pixels(size);
  draw(pixels);
  return pixels.image();
}

}  // namespace stepwise::cli
