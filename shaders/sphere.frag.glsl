#version 330 core
#extension GL_ARB_conservative_depth : enable
#ifdef GL_ARB_conservative_depth
// The quad lies at the sphere's nearest depth, so the true depth is never smaller: the depth test
// can reject hidden fragments before shading.
layout(depth_greater) out float gl_FragDepth;
#endif
in vec3 view_position;
flat in vec3 view_centre;
flat in float radius;
flat in vec4 base_colour;
uniform mat4 projection;
uniform vec3 light_direction;  // towards the light, view space
out vec4 fragment;
vec3 shade(vec3 albedo, vec3 normal, vec3 to_eye, vec3 to_light);
void main() {
  vec3 ray = normalize(view_position);
  float b = dot(ray, view_centre);
  float c = dot(view_centre, view_centre) - radius * radius;
  float disc = b * b - c;
  if (disc < 0.0) discard;
  vec3 hit = ray * (b - sqrt(disc));
  vec3 normal = normalize(hit - view_centre);
  vec4 clip = projection * vec4(hit, 1.0);
  gl_FragDepth = 0.5 * clip.z / clip.w + 0.5;
  fragment = vec4(shade(base_colour.rgb, normal, -ray, light_direction), base_colour.a);
}
