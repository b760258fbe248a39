#version 330 core
// Ray-cast sphere impostors: one screen-facing quad per sphere, drawn instanced.
layout(location = 0) in vec2 corner;
layout(location = 1) in vec4 centre_radius;
layout(location = 2) in vec4 colour;
uniform mat4 view;
uniform mat4 projection;
out vec3 view_position;
flat out vec3 view_centre;
flat out float radius;
flat out vec4 base_colour;
void main() {
  radius = centre_radius.w;
  view_centre = (view * vec4(centre_radius.xyz, 1.0)).xyz;
  // A quad pulled towards the eye and enlarged so it covers the sphere's silhouette in perspective.
  vec3 p = view_centre + vec3(corner * radius * 1.25, radius);
  view_position = p;
  base_colour = colour;
  gl_Position = projection * vec4(p, 1.0);
}
