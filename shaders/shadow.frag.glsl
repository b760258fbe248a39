#version 330 core
in vec2 local;
in float strength;
out vec4 fragment;
void main() {
  float d = dot(local, local);
  if (d > 1.0) discard;
  fragment = vec4(0.0, 0.0, 0.0, strength * (1.0 - smoothstep(0.35, 1.0, d)));
}
