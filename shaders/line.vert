#version 450
// Debug overlay lines: world-space vertices with a colour each.
layout(push_constant) uniform Push { mat4 view_projection; } pc;
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_color;
layout(location = 0) out vec3 color;
void main() {
  color = in_color;
  gl_Position = pc.view_projection * vec4(in_position, 1.0);
}
