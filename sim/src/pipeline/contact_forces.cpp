#include "sim/contact_forces.hpp"

#include "kernels/contact_kernels.hpp"

namespace sim {

BodyContactForce body_contact_force(const Workspace& ws, int body) {
  BodyContactForce out;
  const int n = std::min<int>(ws.contacts.size(), static_cast<int>(ws.contact_normal_force.size()));
  for (int c = 0; c < n; ++c) {
    const Contact& k = ws.contacts.contacts[c];
    const bool on_a = k.a.kind == ContactSide::Body && k.a.index == body;
    const bool on_b = k.b.kind == ContactSide::Body && k.b.index == body;
    if (!on_a && !on_b) continue;
    // The force along +n acts on side a (n points from b to a); side b receives the opposite.
    const Vec2 lf = ws.contact_friction_force[c];
    const Vec3 f = contact_world_force(k.normal, k.tangent1, k.tangent2, ws.contact_normal_force[c], lf);
    out.force += on_a ? f : Vec3(-f);
    out.normal += ws.contact_normal_force[c];
    ++out.contacts;
  }
  return out;
}

}  // namespace sim
