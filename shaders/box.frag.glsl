#version 330 core
in vec3 view_position;
in vec3 view_normal;
flat in vec4 base_colour;
uniform vec3 light_direction;
out vec4 fragment;
vec3 shade(vec3 albedo, vec3 normal, vec3 to_eye, vec3 to_light);
void main() {
  vec3 normal = normalize(view_normal);
  fragment = vec4(shade(base_colour.rgb, normal, normalize(-view_position), light_direction),
                  base_colour.a);
}
