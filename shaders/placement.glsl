// Vertex-stage placement of mesh vertices: shape instance or particle, then the body pose from
// the pose buffer. Included by mesh.vert and shadow.vert (after scene_layout.glsl).

vec3 rotate(vec4 q, vec3 v) {
  vec3 t = 2.0 * cross(q.xyz, v);
  return v + q.w * t + cross(q.xyz, t);
}

// World position and normal of a mesh vertex, and the instance it belongs to.
struct Placed {
  vec3 position;
  vec3 normal;
  int body;
  int flags;
  vec3 color;
};

Placed place_vertex(vec3 p, vec3 n) {
  Placed o;
  if (draw.mode == 1) {
    vec4 particle = pose_data[frame.info.w + gl_InstanceIndex];
    o.position = particle.xyz + p * particle.w;   // the particle mesh is a unit sphere
    o.normal = n;
    o.body = -2;
    o.flags = 0;
    o.color = frame.field.x == 1 ? element_color[frame.field.y + gl_InstanceIndex].rgb : draw.particle_color.rgb;
    return o;
  }
  if (draw.mode == 3) {
    // Particle surfaces (render/src/particle_surfaces.hpp): world-space vertices rewritten every
    // frame, one per particle, so gl_VertexIndex is the particle.
    o.position = p;
    o.normal = n;
    o.body = -2;
    o.flags = 0;
    o.color = frame.field.x == 1 ? element_color[frame.field.y + gl_VertexIndex].rgb : draw.particle_color.rgb;
    return o;
  }
  ShapeInstance s = instances[gl_InstanceIndex];
  vec3 lp = rotate(s.local_rot, p) + s.local_pos.xyz;
  vec3 ln = rotate(s.local_rot, n);
  if (s.ids.x >= 0) {
    vec4 body_pos = pose_data[2 * s.ids.x];
    vec4 body_rot = pose_data[2 * s.ids.x + 1];
    lp = rotate(body_rot, lp) + body_pos.xyz;
    ln = rotate(body_rot, ln);
  }
  o.position = lp;
  o.normal = ln;
  o.body = s.ids.x;
  o.flags = s.ids.z;
  o.color = frame.field.x == 1 && s.ids.x >= 0 ? element_color[s.ids.x].rgb : s.color.rgb;
  return o;
}
