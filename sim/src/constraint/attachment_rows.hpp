// Particle attachment rows (soft fingers on a palm, a soft body held by a moving body): three
// RowKind::Bilateral rows per attachment pinning a particle to a body-local point, compliance form
// (eq. 8); kernels/attachment_row_kernel.hpp has the equations. They close the bilateral block
// after the FEM tets' rows; row_sub = kAttachmentSubBase − k marks row k.
#pragma once

#include "constraint/rows.hpp"
#include "core/kinematics.hpp"
#include "kernels/attachment_row_kernel.hpp"

namespace sim {

inline constexpr int kAttachmentSubBase = -16;  // below the tets' −2 … −8
inline int attachment_row_sub(int k) { return kAttachmentSubBase - k; }

// The Model's attachments as the kernel reads them.
AttachmentView attachment_view(const Model& model);
// The two slots: the particle (-1 where pinned), the body (-1 where fixed or the world).
RowNodes attachment_row_nodes(const Model& model, int i);
// The rows of attachment i at configuration c into rows first + 3 i + k (the kernel; for tests).
void evaluate_attachment_rows(const Model& model, int i, const Configuration& c, int first, RowSet& rows);

}  // namespace sim
