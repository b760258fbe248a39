#version 330 core
// Grid, walls, pull lines: plain coloured vertices.
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 colour;
uniform mat4 view;
uniform mat4 projection;
out vec4 vertex_colour;
void main() {
  vertex_colour = colour;
  gl_Position = projection * view * vec4(position, 1.0);
}
