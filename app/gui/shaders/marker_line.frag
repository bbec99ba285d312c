#version 450
layout(push_constant) uniform Line {
  mat4 view_projection;
  vec4 a;
  vec4 b;
  vec4 color;
} line;

layout(location = 0) out vec4 out_color;

void main() { out_color = line.color; }
