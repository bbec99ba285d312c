#version 450
// One line segment per draw, from push constants (no vertex buffer): the viewport's grab spring
// and the target marker. Vulkan clip space (the camera's view_projection).
layout(push_constant) uniform Line {
  mat4 view_projection;
  vec4 a;       // xyz: first end point (world)
  vec4 b;       // xyz: second end point (world)
  vec4 color;   // rgb (already encoded for the target), a
} line;

void main() {
  vec3 p = gl_VertexIndex == 0 ? line.a.xyz : line.b.xyz;
  gl_Position = line.view_projection * vec4(p, 1.0);
}
