// Row assembly: what the solver consumes from constraint/. Per step, assemble_rows lays out the
// rows of every source (joints: joint_rows, drive_rows, limit_rows; particle distances:
// distance_rows; contacts: contact_normal_rows, friction_rows, with particle-face sides from
// particle_face_contact) as [bilateral | drive | limit | normal | friction], each source's rows at
// an offset from an exclusive scan of the per-source counts, and each row's (node, block) entries
// at an offset from a scan of the per-row entry counts; sources fill their rows in parallel.
// Each Newton iteration, evaluate_rows writes C(q) and ∇C G of every row at a configuration.
// The per-step constants (drive compliance and bias, the contact normals' penetration allowance)
// come from setup_drive_rows and relax_initial_penetration after the evaluation at q⁻.
#pragma once

#include <vector>

#include "constraint/rows.hpp"
#include "core/kinematics.hpp"
#include "sim/contact.hpp"

namespace sim {

// Row structure of the step: kinds, sources, compliances of the bilateral rows, entries (nodes,
// dofs, widths). Reuses the RowSet's capacity: no allocation once it has held this many rows.
void assemble_rows(const Model& model, const ContactBuffer& contacts, RowSet& rows);

// The nodes of row r (from its kind and source).
RowNodes row_nodes(const Model& model, const ContactBuffer& contacts, const RowSet& rows, int r);

// Values C(q) and gradients ∇C G of every row at configuration c. Joint coordinates are unwrapped
// against `joint_reference` (θ at q⁻ on its accumulated branch), so limits and drives see angles
// beyond ±π.
void evaluate_rows(const Model& model, const ContactBuffer& contacts, const Configuration& c,
                   const std::vector<Real>& joint_reference, RowSet& rows);

}  // namespace sim
