// Contact force read-outs after a step: the total contact force a body receives (sum of its
// contacts' λ_n n + λ_f1 d1 + λ_f2 d2, with the sign of its side), e.g. per gripper finger.
#pragma once

#include "sim/step.hpp"

namespace sim {

struct BodyContactForce {
  Vec3 force = Vec3::Zero();  // total contact force on the body, world [N]
  Real normal = 0;            // sum of the normal force magnitudes λ_n [N]
  int contacts = 0;           // contacts involving the body
};

BodyContactForce body_contact_force(const Workspace& workspace, int body);

}  // namespace sim
