#version 450
// One directional light (Lambert) plus a hemispherical ambient term; the ground gets a 0.1 m /
// 1 m grid from its world position.
layout(push_constant) uniform Push {
  mat4 mvp;
  vec4 rot0;
  vec4 rot1;
  vec4 rot2;
  vec4 color;
} pc;
layout(location = 0) in vec3 world_normal;
layout(location = 1) in vec3 world_position;
layout(location = 0) out vec4 out_color;
void main() {
  vec3 n = normalize(world_normal);
  vec3 light = normalize(vec3(0.4, 0.3, 0.85));
  float diffuse = max(dot(n, light), 0.0);
  float ambient = 0.35 + 0.15 * n.z;
  vec3 base = pc.color.rgb;
  if (pc.color.a < 0.5) {
    vec2 p = world_position.xy;
    vec2 fine = abs(fract(p * 10.0 - 0.5) - 0.5) / fwidth(p * 10.0);
    vec2 coarse = abs(fract(p - 0.5) - 0.5) / fwidth(p);
    float line = 1.0 - min(min(fine.x, fine.y), 1.0);
    float major = 1.0 - min(min(coarse.x, coarse.y), 1.0);
    base = mix(base, base * 0.75, line * 0.6);
    base = mix(base, base * 0.5, major);
  }
  out_color = vec4(base * (ambient + 0.75 * diffuse), 1.0);
}
