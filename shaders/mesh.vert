#version 450
// Lit shapes: positions in the shape's frame, transformed by the model-view-projection matrix;
// normals rotated to world space for the light. Push constants (128 bytes): mvp, the model
// matrix (for world positions and normals) is split into its rotation columns and translation.
layout(push_constant) uniform Push {
  mat4 mvp;
  vec4 rot0;   // rotation columns (xyz) of the model matrix; rot0.w, rot1.w, rot2.w: translation
  vec4 rot1;
  vec4 rot2;
  vec4 color;  // rgb; a < 0.5 marks the ground (grid pattern)
} pc;
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 0) out vec3 world_normal;
layout(location = 1) out vec3 world_position;
void main() {
  mat3 r = mat3(pc.rot0.xyz, pc.rot1.xyz, pc.rot2.xyz);
  world_normal = r * in_normal;
  world_position = r * in_position + vec3(pc.rot0.w, pc.rot1.w, pc.rot2.w);
  gl_Position = pc.mvp * vec4(in_position, 1.0);
}
