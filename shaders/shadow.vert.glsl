#version 330 core
// Soft shadows on the floor: a disc under each body, cast along the light direction.
layout(location = 0) in vec2 corner;
layout(location = 1) in vec4 centre_radius;
uniform mat4 view;
uniform mat4 projection;
uniform vec3 light_world;  // towards the light, world space
uniform float floor_z;
out vec2 local;
out float strength;
void main() {
  vec3 c = centre_radius.xyz;
  float height = max(c.z - floor_z, 0.0);
  vec3 foot = c - light_world * (height / max(light_world.z, 0.2));
  float lift = height / max(centre_radius.w, 1e-6);  // in radii
  // The disc softens and fades with height; far above the floor it is not drawn at all, which
  // also keeps a deep pile from painting thousands of overlapping discs.
  float r = centre_radius.w * (1.0 + 0.1 * min(lift, 6.0));
  local = corner;
  strength = 0.45 / (1.0 + 0.35 * lift);
  if (strength < 0.06) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);  // outside the clip volume
    return;
  }
  gl_Position = projection * view * vec4(foot.xy + corner * r, floor_z + 1e-3 * r, 1.0);
}
