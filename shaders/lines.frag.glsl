#version 330 core
in vec4 vertex_colour;
out vec4 fragment;
void main() { fragment = vertex_colour; }
