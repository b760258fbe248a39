// Shared shading: ambient + Lambert + Blinn-Phong highlight, with a cool fill from below.
vec3 shade(vec3 albedo, vec3 normal, vec3 to_eye, vec3 to_light) {
  float diffuse = max(dot(normal, to_light), 0.0);
  float fill = 0.25 * max(dot(normal, -to_light), 0.0);
  vec3 half_vector = normalize(to_light + to_eye);
  float specular = pow(max(dot(normal, half_vector), 0.0), 48.0) * 0.35;
  float rim = pow(1.0 - max(dot(normal, to_eye), 0.0), 3.0) * 0.15;
  return albedo * (0.28 + 0.72 * diffuse + fill) + vec3(specular + rim);
}
