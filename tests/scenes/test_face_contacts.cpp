// Barycentric cloth-face contacts (collision/particle_faces_sdf.cpp, one row over a face's three
// corners: constraint/particle_face_contact.hpp). A coarse particle sheet of our own (7 x 7
// particles, 6 cm apart, test::particle_sheet_over_bowl) is dropped over a thick-walled SDF bowl
// smaller than itself: it comes to
// rest draped over the bowl's round rim, which lies under the middle of faces, not under particles.
// Oracles: the exact point-triangle distance to the bowl's own triangles, sampled densely over
// every face (no part of the sheet in the wall), the contacts' barycentric weights (inside the
// face, not at a corner) and the sheet at rest. Without face contacts the rim cuts through the
// faces (the same measure fails), so the test can tell the difference.
#include <catch2/catch.hpp>

#include "support/point_triangle_distance.hpp"

#include <algorithm>
#include <cmath>

#include "support/scene_builders.hpp"

using sim::Real;
using sim::Vec3;

namespace {


struct SheetResult {
  Real face_penetration = 0;      // deepest point of any face inside the bowl's wall [m]
  Real particle_penetration = 0;  // deepest particle centre inside the wall [m]
  Real max_speed = 0;             // fastest particle at the end [m/s]
  int face_contacts = 0;          // cloth-face contacts at the end
  int interior_contacts = 0;      // of those: every barycentric weight >= 0.02 (inside the face)
  Real largest_weight = 0;        // largest barycentric weight of any face contact at the end
  bool ok = true;
};

SheetResult sheet_on_bowl(bool face_contacts, int steps) {
  const sim::Model model = test::compile(test::particle_sheet_over_bowl(face_contacts));
  sim::State state = sim::make_initial_state(model);
  const sim::Control control = sim::make_initial_control(model);
  sim::Workspace ws;
  const sim::TriangleMesh& bowl = model.meshes.at(0)->mesh;
  // Signed by the mesh's winding is not needed: the sheet starts above the bowl, so any point
  // closer than its radius to the bowl's surface, or below the surface it started above, is in.
  auto distance_to_bowl = [&](const Vec3& p) {
    Real best = 1e30;
    for (const auto& t : bowl.triangles)
      best = std::min(best, test::point_triangle_distance(p, bowl.vertices[t[0]], bowl.vertices[t[1]], bowl.vertices[t[2]]));
    return best;
  };
  auto x = [&](int p) {
    const int c = model.particle_coord(p);
    return Vec3(state.q[c], state.q[c + 1], state.q[c + 2]);
  };
  SheetResult out;
  for (int s = 0; s < steps; ++s) {
    const sim::StepReport r = sim::step(model, state, control, ws);
    if (!r.ok()) {
      out.ok = false;
      return out;
    }
  }
  // The wall is solid between its inner and outer surface: a point is inside it when it is
  // within the wall's material. The distance to the surface alone does not say which side, so
  // the bowl's field (baked from the same triangles) gives the sign, the triangles the depth.
  const sim::SdfMesh& field = *model.meshes.at(0);
  auto penetration = [&](const Vec3& p) {
    const Real phi = field.grid->sample(p);
    return phi < 0 ? distance_to_bowl(p) : Real(0);
  };
  for (int p = 0; p < model.particle_count; ++p) {
    out.particle_penetration = std::max(out.particle_penetration, penetration(x(p)));
    out.max_speed = std::max(out.max_speed, Vec3(state.u[model.particle_dof(p)], state.u[model.particle_dof(p) + 1],
                                                 state.u[model.particle_dof(p) + 2]).norm());
  }
  for (const auto& t : model.particle_triangles) {
    const Vec3 a = x(t[0]), b = x(t[1]), c = x(t[2]);
    const int m = 24;
    for (int i = 0; i <= m; ++i)
      for (int j = 0; i + j <= m; ++j)
        out.face_penetration =
            std::max(out.face_penetration, penetration(a + (b - a) * (Real(i) / m) + (c - a) * (Real(j) / m)));
  }
  for (const sim::Contact& c : ws.contacts.contacts) {
    if (c.sdf_feature != sim::SdfFeature::ClothFace) continue;
    REQUIRE(c.a.kind == sim::ContactSide::ParticleFace);
    ++out.face_contacts;
    const Vec3& w = c.a.local_point;
    CHECK(w.sum() == Approx(1).margin(1e-9));
    out.largest_weight = std::max(out.largest_weight, w.maxCoeff());
    if (w.minCoeff() >= Real(0.02)) ++out.interior_contacts;
  }
  return out;
}

}  // namespace

TEST_CASE("a particle sheet rests on an SDF bowl's rim through barycentric face contacts", "[scene][sdf][rows]") {
  const SheetResult faces = sheet_on_bowl(true, 150);
  INFO("face contacts: " << faces.face_contacts << " (" << faces.interior_contacts << " inside their face, largest weight "
                         << faces.largest_weight << "), face penetration " << faces.face_penetration
                         << " m, particle penetration " << faces.particle_penetration << " m, fastest particle "
                         << faces.max_speed << " m/s");
  REQUIRE(faces.ok);
  CHECK(faces.face_contacts >= 8);                    // the rim under many faces
  CHECK(faces.interior_contacts >= 4);                // contact points inside faces, not at corners
  CHECK(faces.largest_weight < Real(1) - 1e-6);       // no face contact sits at a corner
  CHECK(faces.face_penetration < 0.002);              // no part of the sheet in the wall
  CHECK(faces.particle_penetration < 0.001);
  CHECK(faces.max_speed < 0.05);                      // at rest

  const SheetResult vertices = sheet_on_bowl(false, 150);
  INFO("particles only: face penetration " << vertices.face_penetration << " m");
  REQUIRE(vertices.ok);
  CHECK(vertices.face_contacts == 0);
  CHECK(vertices.face_penetration > 0.004);  // the rim cuts through the faces
}
