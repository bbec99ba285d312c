#include "constraint/row_assembly.hpp"

#include <algorithm>

#include "constraint/attachment_rows.hpp"
#include "constraint/contact_normal_rows.hpp"
#include "constraint/distance_rows.hpp"
#include "constraint/drive_rows.hpp"
#include "constraint/friction_rows.hpp"
#include "constraint/joint_rows.hpp"
#include "constraint/limit_rows.hpp"
#include "constraint/shell_rows.hpp"
#include "constraint/tet_rows.hpp"
#include "core/kernel_views.hpp"
#include "core/parallel.hpp"

namespace sim {

namespace {

void set_row(RowSet& rows, int r, RowKind kind, int source, int sub, Real compliance) {
  rows.row_kind[r] = kind;
  rows.row_source[r] = source;
  rows.row_sub[r] = static_cast<std::int8_t>(sub);
  rows.row_compliance[r] = compliance;
  rows.row_bound[r] = -1;
  rows.row_bias[r] = 0;
}

}  // namespace

RowNodes row_nodes(const Model& m, const ContactBuffer& contacts, const RowSet& rows, int r) {
  const int source = rows.row_source[r];
  switch (rows.row_kind[r]) {
    case RowKind::Bilateral:
      if (r >= rows.first_bending && r < rows.first_drive) return bending_row_nodes(m, source);
      if (r >= rows.first_membrane && r < rows.first_bending) return membrane_row_nodes(m, source);
      if (tet_row_of_sub(rows.row_sub[r]) >= 0) return tet_row_nodes(m, source);
      if (rows.row_sub[r] <= kAttachmentSubBase) return attachment_row_nodes(m, source);
      return rows.row_sub[r] < 0 ? distance_row_nodes(m, source) : joint_row_nodes(m, source);
    case RowKind::Drive:
    case RowKind::Limit:
      return joint_row_nodes(m, source);
    case RowKind::Normal:
    case RowKind::Friction:
      return contact_row_nodes(m, contacts.contacts[source]);
  }
  return {};
}

void assemble_rows(const Model& m, const ContactBuffer& contacts, RowSet& rows) {
  const int joints = m.joint_count, distances = m.distance_count, n = contacts.size();
  std::vector<int>& bilateral = rows.joint_bilateral_first;
  std::vector<int>& drive = rows.joint_drive_first;
  std::vector<int>& limit = rows.joint_limit_first;
  bilateral.resize(joints + 1);
  drive.resize(joints + 1);
  limit.resize(joints + 1);
  parallel_for(joints, [&](int j) {
    bilateral[j] = joint_bilateral_row_count(m.joint_type[j]);
    drive[j] = joint_has_drive(m, j) ? 1 : 0;
    limit[j] = joint_has_limit(m, j) ? 2 : 0;
  });
  exclusive_scan_counts(bilateral, joints);
  exclusive_scan_counts(drive, joints);
  exclusive_scan_counts(limit, joints);
  rows.first_tet = bilateral[joints] + distances;
  rows.first_attachment = rows.first_tet + kTetRows * m.tet_count;
  rows.first_membrane = rows.first_attachment + kAttachmentRows * m.attachment_count;
  rows.first_bending = rows.first_membrane + kMembraneRows * m.membrane_count;
  rows.first_drive = rows.first_bending + m.bending_count;
  rows.first_limit = rows.first_drive + drive[joints];
  rows.first_normal = rows.first_limit + limit[joints];
  rows.first_friction = rows.first_normal + n;
  // Room for as many contacts as the buffer holds (step() reserves it from the model): the rows'
  // arrays are sized for them once and keep that capacity (RowSet::resize never shrinks it), so
  // contacts that come and go below it allocate nothing. Entries: at most row_entry_bound per row,
  // and kBendingParticles for each bending row.
  const int room = rows.first_normal + 3 * static_cast<int>(contacts.contacts.capacity());
  if (rows.row_kind.capacity() < static_cast<std::size_t>(room)) {
    const int slots = row_entry_bound(m);
    rows.resize(room);
    rows.resize_entries(slots * room + std::max(kBendingParticles - slots, 0) * m.bending_count);
    rows.row_nodes_scratch.reserve(room);
  }
  rows.resize(rows.first_friction + 2 * n);

  // Each source sets its rows and their nodes (computed once per source) and entry counts.
  std::vector<int>& first = rows.row_entry_first;
  std::vector<RowNodes>& nodes = rows.row_nodes_scratch;
  nodes.resize(rows.count);
  auto set = [&](int r, const RowNodes& of_row, RowKind kind, int source, int sub, Real compliance) {
    set_row(rows, r, kind, source, sub, compliance);
    nodes[r] = of_row;
    first[r] = of_row.entries();
  };
  parallel_for(joints, [&](int j) {
    const RowNodes jn = joint_row_nodes(m, j);
    const int count = joint_bilateral_row_count(m.joint_type[j]);
    const int positional = m.joint_type[j] == JointType::Prismatic ? 2 : 3;
    for (int k = 0; k < count; ++k)
      set(bilateral[j] + k, jn, RowKind::Bilateral, j, k,
          k < positional ? m.joint_linear_compliance[j] : m.joint_angular_compliance[j]);
    if (drive[j + 1] > drive[j]) set(rows.first_drive + drive[j], jn, RowKind::Drive, j, 0, 0);
    if (limit[j + 1] > limit[j]) {
      set(rows.first_limit + limit[j], jn, RowKind::Limit, j, 0, 0);
      set(rows.first_limit + limit[j] + 1, jn, RowKind::Limit, j, 1, 0);
    }
  });
  parallel_for(distances, [&](int i) {
    set(bilateral[joints] + i, distance_row_nodes(m, i), RowKind::Bilateral, i, -1, m.distance_compliance[i]);
  });
  parallel_for(m.tet_count, [&](int t) {
    const RowNodes tn = tet_row_nodes(m, t);
    for (int k = 0; k < kTetRows; ++k)
      set(rows.first_tet + kTetRows * t + k, tn, RowKind::Bilateral, t, tet_row_sub(k), 0);  // e: each evaluation
  });
  parallel_for(m.attachment_count, [&](int i) {
    const RowNodes an = attachment_row_nodes(m, i);
    for (int k = 0; k < kAttachmentRows; ++k)
      set(rows.first_attachment + kAttachmentRows * i + k, an, RowKind::Bilateral, i, attachment_row_sub(k),
          m.attachment_compliance[i]);
  });
  parallel_for(m.membrane_count, [&](int t) {  // shell rows (constraint/shell_rows.hpp)
    const RowNodes tn = membrane_row_nodes(m, t);
    for (int k = 0; k < kMembraneRows; ++k)
      set(rows.first_membrane + kMembraneRows * t + k, tn, RowKind::Bilateral, t, membrane_row_sub(k), 0);
  });
  parallel_for(m.bending_count, [&](int e) {
    set(rows.first_bending + e, bending_row_nodes(m, e), RowKind::Bilateral, e, kBendingRowSub, 0);
  });
  parallel_for(n, [&](int c) {
    const RowNodes cn = contact_row_nodes(m, contacts.contacts[c]);
    set(rows.first_normal + c, cn, RowKind::Normal, c, 0, 0);
    set(rows.first_friction + 2 * c, cn, RowKind::Friction, c, 1, 0);
    set(rows.first_friction + 2 * c + 1, cn, RowKind::Friction, c, 2, 0);
  });

  // Entries: offsets from the scan of the counts, then each row's (node, dof, width) in parallel.
  exclusive_scan_counts(first, rows.count);
  rows.resize_entries(first[rows.count]);
  parallel_for(rows.count, [&](int r) { rows.set_nodes(m, r, first[r], nodes[r]); });
}

// The row kinds' kernels (kernels/joint_row_kernels.hpp, joint_coordinate_row_kernels.hpp,
// distance_row_kernel.hpp, contact_row_kernels.hpp) over the Model's and the configuration's views,
// one call per joint, distance and contact.
void evaluate_rows(const Model& m, const ContactBuffer& contacts, const Configuration& c,
                   const std::vector<Real>& joint_reference, RowSet& rows) {
  const int joints = m.joint_count;
  const ConfigurationView at = configuration_view(c);
  const RowGradientView out = rows.gradient_view();
  const JointView jv = joint_view(m);
  const JointCoordinateRowsView coordinate_rows{rows.joint_drive_first.data(), rows.joint_limit_first.data(),
                                                rows.first_drive, rows.first_limit, joint_reference.data()};
  parallel_for(joints, [&](int j) {
    evaluate_joint_rows(jv, at, out, j, rows.joint_bilateral_first[j]);
    evaluate_joint_coordinate_rows(jv, at, out, coordinate_rows, j);
  });
  const int first_distance = rows.joint_bilateral_first[joints];
  const DistanceView dv = distance_view(m);
  parallel_for(m.distance_count, [&](int i) { evaluate_distance_row(dv, at, out, i, first_distance + i); });
  const TetView tv = tet_view(m);
  const TetRowsView tet_rows{rows.row_compliance.data(), rows.row_bias.data(), rows.row_bound.data(),
                             rows.tet_pressure.size() >= static_cast<std::size_t>(m.tet_count) ? rows.tet_pressure.data()
                                                                                              : nullptr,
                             rows.first_tet};
  parallel_for(m.tet_count, [&](int t) { evaluate_tet_rows(tv, at, out, tet_rows, t); });
  const AttachmentView av = attachment_view(m);
  parallel_for(m.attachment_count, [&](int i) { evaluate_attachment_rows(av, at, out, i, rows.first_attachment); });
  evaluate_shell_rows(m, c, rows);
  const ContactModelView cm = contact_model_view(m);
  const ContactRowsView contact_rows{rows.row_bias.data(), rows.first_normal, rows.first_friction};
  parallel_for(contacts.size(), [&](int i) {
    const Contact& k = contacts.contacts[i];
    evaluate_contact_rows(cm, at, out, contact_rows, i, k.a, k.b, k.shape_a, k.shape_b, k.normal, k.tangent1,
                          k.tangent2, k.thickness);
  });
}

}  // namespace sim
