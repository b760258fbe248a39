#version 330 core
// Oriented boxes (and bond bars) drawn instanced from one unit cube.
layout(location = 0) in vec3 corner;
layout(location = 1) in vec3 corner_normal;
layout(location = 2) in vec3 centre;
layout(location = 3) in vec4 orientation;  // w, x, y, z
layout(location = 4) in vec3 half_extents;
layout(location = 5) in vec4 colour;
uniform mat4 view;
uniform mat4 projection;
out vec3 view_position;
out vec3 view_normal;
flat out vec4 base_colour;
vec3 rotate(vec4 q, vec3 v) {
  vec3 u = q.yzw;
  return v + 2.0 * cross(u, cross(u, v) + q.x * v);
}
void main() {
  vec3 world = centre + rotate(orientation, corner * half_extents);
  vec4 p = view * vec4(world, 1.0);
  view_position = p.xyz;
  view_normal = mat3(view) * rotate(orientation, corner_normal);
  base_colour = colour;
  gl_Position = projection * p;
}
