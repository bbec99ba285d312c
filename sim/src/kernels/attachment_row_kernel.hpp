// Kernel: the three rows of one particle attachment (constraint/attachment_rows.hpp), compliance
// form (eq. 8): a particle x_p pinned to the point r of a body (com frame; pose (x_b, R)):
//   C_k = e_kᵀ (x_p − x_b − R r),   k = 0, 1, 2 (world axes),
//   ∇C_k G = [e_k, 0] on the particle, [−e_k, −(R r) × e_k] on the body (d(x_b + R r)/dt =
//   v + ω × R r, and e_k·(ω × a) = ω·(a × e_k)). Body −1: r is a world point and the row has one slot.
// Called from constraint/row_assembly.cpp's per-attachment loop.
#pragma once

#include "kernels/kernel_macros.hpp"
#include "kernels/row_gradient_kernels.hpp"
#include "kernels/views.hpp"

namespace sim {

inline constexpr int kAttachmentRows = 3;

// The Model's particle attachments (attachment_count).
struct AttachmentView {
  const int* particle;
  const int* body;      // -1: the world
  const Vec3* local;    // point in the body's com frame (world for -1) [m]
  int count;
};

SIM_HD inline void evaluate_attachment_rows(const AttachmentView& a, const ConfigurationView& c,
                                            const RowGradientView& rows, int i, int first_row) {
  const int b = a.body[i];
  Vec3 arm = Vec3::Zero(), anchor = a.local[i];
  if (b >= 0) {
    const Pose& pose = c.body_pose[b];
    arm = pose.rot * a.local[i];
    anchor = pose.pos + arm;
  }
  const Vec3 d = c.particle_position[a.particle[i]] - anchor;
  for (int k = 0; k < kAttachmentRows; ++k) {
    const Vec3 e = Vec3::Unit(k);
    Vec6 gp = Vec6::Zero(), gb = Vec6::Zero();
    gp.head<3>() = e;
    gb.head<3>() = -e;
    gb.tail<3>() = -arm.cross(e);
    set_row(rows, first_row + kAttachmentRows * i + k, d[k], gp, gb);
  }
}

}  // namespace sim
