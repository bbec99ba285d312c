// Resources shared by the scene pipelines (set 0). The C++ mirror is render/src/gpu_layout.hpp;
// change both together.

// Per frame (one ring slot per frame in flight, selected by a dynamic offset).
layout(std140, set = 0, binding = 0) uniform FrameUniforms {
  mat4 view_proj;         // world -> clip (Vulkan: y down, depth 0..1)
  mat4 light_view_proj;   // world -> shadow map clip
  vec4 eye;               // camera position (xyz)
  vec4 light_dir;         // xyz: direction the light travels, unit; w: ambient strength
  vec4 background;        // linear RGB the ground fades into far away (the pass's clear colour)
  vec4 grid;              // x: minor cell [m], y: major cell [m], z..w: the ground fades out
                          // between these distances from the plane origin [m]
  ivec4 info;             // x: selected body (-1: none), y: 1 = encode sRGB in the shader,
                          // z: shadow map size [texels] (0: no shadows), w: first particle vec4
                          // in the pose buffer
  ivec4 field;            // x: 1 = colour bodies and particles from element_color (the per-element
                          // colour field overlay), y: the first particle's entry
} frame;

// Poses written by the simulation (render/pose_sink.hpp): per body two vec4s, the centre-of-mass
// frame's position (xyz) and rotation quaternion (x y z w); then per particle (position, radius).
layout(std430, set = 0, binding = 1) readonly buffer Poses { vec4 pose_data[]; };

// One record per drawn shape (static, written by set_model).
struct ShapeInstance {
  vec4 local_pos;   // shape frame in the body's com frame: position (xyz)
  vec4 local_rot;   // ... and rotation quaternion (x y z w)
  vec4 color;       // linear RGB, a: unused
  ivec4 ids;        // x: body (-1: world), y: shape, z: flags (1: ground grid)
};
layout(std430, set = 0, binding = 2) readonly buffer Instances { ShapeInstance instances[]; };

layout(set = 0, binding = 3) uniform sampler2DShadow shadow_map;

// Per frame (ring slot by dynamic offset): the colour field's colour per body, then per particle
// (linear RGB), read when frame.field.x is 1.
layout(std430, set = 0, binding = 4) readonly buffer ElementColors { vec4 element_color[]; };

// What a draw reads from its push constants.
layout(push_constant) uniform DrawConstants {
  int mode;            // 0: shape instances (gl_InstanceIndex, from the draw's firstInstance,
                       // indexes `instances`), 1: particles (gl_InstanceIndex is the particle),
                       // 2: overlay lines behind surfaces (faded), 3: particle surfaces
                       // (world-space vertices, gl_VertexIndex is the particle)
  int pad0, pad1, pad2;
  vec4 particle_color; // linear RGB
} draw;

const int kFlagGrid = 1;

vec3 to_srgb(vec3 c) {
  vec3 lo = c * 12.92;
  vec3 hi = 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055;
  return mix(lo, hi, step(vec3(0.0031308), c));
}
