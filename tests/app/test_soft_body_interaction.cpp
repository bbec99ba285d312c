// Soft bodies and cloth in the editor: picking on their surfaces (a click at the projected pixel
// of a known particle picks that particle, through one of its faces), the Ctrl+drag spring on a
// picked particle moves it the way it is dragged (through SimRunner::set_grab and the step's
// Control, as for rigid bodies), and the property path's soft-body material (E, ν, density,
// damping): ranges refused with a reason, density turning into lumped masses, and an E edit
// through the document undone and redone to the exact values in the spec and the running model.
// No Qt here: the document's undo and redo are in test_gui_soft_body_document.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "app/sim_runner_support.hpp"
#include "gui/face_probe.hpp"
#include "gui/grab_spring.hpp"
#include "gui/orbit_camera.hpp"
#include "gui/picking.hpp"
#include "gui/scene_properties.hpp"
#include "sim/sdf.hpp"
#include "sim/soft_render_mesh.hpp"

using namespace coulomb::gui;
using namespace runner_test;

namespace {

sim::Vec3 particle_position(const sim::Model& m, const sim::State& s, int p) {
  const auto c = static_cast<std::size_t>(m.particle_coord(p));
  return {s.q[c], s.q[c + 1], s.q[c + 2]};
}

// The particle on the model's surface triangles nearest `point`.
int surface_particle_near(const sim::Model& m, const sim::State& s, const sim::Vec3& point) {
  int best = -1;
  for (const auto& t : m.particle_triangles)
    for (int p : t)
      if (best < 0 || (particle_position(m, s, p) - point).norm() < (particle_position(m, s, best) - point).norm()) best = p;
  return best;
}

// An affine field, and its values per body (0), then per particle, as compute_element_field lays
// them out: what a face's interpolation must reproduce exactly.
double affine_value(const sim::Vec3& x) { return 3 * x.x() - 2 * x.y() + 5 * x.z(); }

std::vector<float> affine_field(const sim::Model& m, const sim::State& s) {
  std::vector<float> values(static_cast<std::size_t>(m.body_count + m.particle_count), 0.0f);
  for (int p = 0; p < m.particle_count; ++p)
    values[static_cast<std::size_t>(m.body_count + p)] = static_cast<float>(affine_value(particle_position(m, s, p)));
  return values;
}

}  // namespace

TEST_CASE("a click on a soft or cloth surface picks the particle under the cursor", "[app][interaction]") {
  for (const char* name : {"soft_cube", "cloth"}) {
    INFO(name);
    const Loaded scene = load(name);
    const sim::Model& m = *scene.model;
    const sim::State state = sim::make_initial_state(m);
    // The camera looks down at the object from above and to the side; the particle is on the
    // top surface, off its centre (a visible vertex, not a silhouette one).
    sim::Vec3 lo = particle_position(m, state, 0), hi = lo;
    for (int p = 0; p < m.particle_count; ++p) lo = lo.cwiseMin(particle_position(m, state, p)), hi = hi.cwiseMax(particle_position(m, state, p));
    const sim::Vec3 centre = 0.5 * (lo + hi);
    const sim::Vec3 size = hi - lo;
    const int target = surface_particle_near(m, state, sim::Vec3(centre.x() + 0.25 * size.x(), centre.y() - 0.25 * size.y(), hi.z()));
    REQUIRE(target >= 0);
    OrbitCamera camera;
    camera.target = centre;
    camera.distance = 3 * std::max(size.norm(), 0.3);
    camera.yaw = 0.4;
    camera.pitch = 0.9;
    const int width = 640, height = 480;
    double x = 0, y = 0;
    REQUIRE(camera.project(particle_position(m, state, target), width, height, x, y));
    Ray ray;
    camera.pixel_ray(x, y, width, height, ray.origin, ray.direction);
    const PickHit hit = pick(m, state, ray);
    REQUIRE(hit.kind == PickHit::Particle);
    CHECK(hit.index == target);
    REQUIRE(hit.face >= 0);
    const auto& face = m.particle_triangles[static_cast<std::size_t>(hit.face)];
    CHECK(std::find(face.begin(), face.end(), target) != face.end());
    // A pixel a little off the vertex still picks it (the nearest corner of the face hit).
    Ray off;
    camera.pixel_ray(x + 1.0, y + 0.7, width, height, off.origin, off.direction);
    CHECK(pick(m, state, off).index == target);
  }
}

TEST_CASE("a picked soft face in the property view: its particles and the field interpolated at the pick",
          "[interaction][field]") {
  const Loaded scene = load("soft_cube");
  const sim::Model& m = *scene.model;
  const sim::State state = sim::make_initial_state(m);
  // A ray straight down onto the top face, between particles.
  sim::Vec3 lo = particle_position(m, state, 0), hi = lo;
  for (int p = 0; p < m.particle_count; ++p) lo = lo.cwiseMin(particle_position(m, state, p)), hi = hi.cwiseMax(particle_position(m, state, p));
  Ray ray;
  ray.origin = sim::Vec3(lo.x() + 0.37 * (hi.x() - lo.x()), lo.y() + 0.61 * (hi.y() - lo.y()), hi.z() + 1);
  ray.direction = sim::Vec3(0, 0, -1);
  const PickHit hit = pick(m, state, ray);
  REQUIRE(hit.kind == PickHit::Particle);
  REQUIRE(hit.face >= 0);
  // An affine field over the particles (values per body, then per particle) is reproduced at the
  // hit point by the face's barycentric interpolation.
  const std::vector<float> values = affine_field(m, state);
  const FaceProbe probe = probe_face(m, state, hit.render_mesh, hit.face, hit.point, values);
  REQUIRE(probe.face == hit.face);
  const auto& face = m.particle_triangles[static_cast<std::size_t>(hit.face)];
  CHECK(probe.particles == std::array<int, 3>{face[0], face[1], face[2]});
  CHECK(probe.weights[0] + probe.weights[1] + probe.weights[2] == Approx(1).epsilon(1e-12));
  for (double w : probe.weights) CHECK((w > -1e-9 && w < 1 + 1e-9));
  REQUIRE(probe.has_value);
  CHECK(probe.value == Approx(affine_value(hit.point)).margin(1e-5));
  for (int k = 0; k < 3; ++k)
    CHECK(probe.corner_values[static_cast<std::size_t>(k)] == values[static_cast<std::size_t>(m.body_count + face[static_cast<std::size_t>(k)])]);
  const std::string text = describe_face_probe(probe, "volumetric strain", "");
  INFO(text);
  CHECK(text.find("face " + std::to_string(hit.face) + ": particles " + std::to_string(face[0]) + " " +
                  std::to_string(face[1]) + " " + std::to_string(face[2])) == 0);
  CHECK(text.find("volumetric strain") != std::string::npos);
  // No field: the face and its particles only; a face out of range: nothing.
  CHECK_FALSE(probe_face(m, state, hit.render_mesh, hit.face, hit.point, {}).has_value);
  CHECK(describe_face_probe(probe_face(m, state, hit.render_mesh, hit.face, hit.point, {}), "none", "").find("\n") == std::string::npos);
  CHECK(probe_face(m, state, -1, static_cast<int>(m.particle_triangles.size()), hit.point, values).face == -1);
}

TEST_CASE("a soft body drawn as a render mesh is picked on that mesh, not on its tets' boundary",
          "[app][interaction][render_mesh]") {
  // soft_cube given an embedded ball as its drawn surface: a ball of radius 0.55 edge about the
  // cube's centre pokes out of the face centres and leaves the corners' columns outside it.
  sim::Vec3 lo, hi;
  const Loaded scene = load("soft_cube", [&](sim::SceneSpec& s) {
    REQUIRE(s.soft_bodies.size() == 1);
    std::vector<sim::Vec3> rest;
    for (const sim::ParticleSpec& p : s.particles) rest.push_back(p.position);
    lo = hi = rest.front();
    for (const sim::Vec3& x : rest) lo = lo.cwiseMin(x), hi = hi.cwiseMax(x);
    sim::Pose pose;
    pose.pos = 0.5 * (lo + hi);
    const sim::TriangleMesh ball = sim::make_sphere_mesh(0.55 * (hi.x() - lo.x()), 3);
    auto made = sim::make_soft_render_mesh(ball.vertices, ball.triangles, sim::Vec3::Ones(), pose,
                                           s.soft_bodies[0].tets, rest);
    REQUIRE(made.ok());
    made.value().file = "ball.obj";
    s.soft_bodies[0].render_mesh = std::make_shared<const sim::SoftRenderMesh>(std::move(made.value()));
  });
  const sim::Model& m = *scene.model;
  REQUIRE(m.soft_render_meshes.size() == 1);
  const sim::SoftRenderMesh& mesh = *m.soft_render_meshes[0];
  const sim::State state = sim::make_initial_state(m);
  const sim::Vec3 centre = 0.5 * (lo + hi);
  const double edge = hi.x() - lo.x(), radius = 0.55 * edge;

  // Straight down onto the top face's centre, a little off the pole: the ball, above the face.
  Ray down;
  down.origin = centre + sim::Vec3(0.07 * edge, -0.05 * edge, 2 * edge);
  down.direction = sim::Vec3(0, 0, -1);
  const PickHit hit = pick(m, state, down);
  REQUIRE(hit.kind == PickHit::Particle);
  CHECK(hit.render_mesh == 0);
  REQUIRE(hit.face >= 0);
  REQUIRE(hit.face < static_cast<int>(mesh.triangles.size()));
  CHECK(hit.point.z() > hi.z() + 0.02 * edge);  // the tets' top face is at hi.z
  CHECK((hit.point - centre).norm() == Approx(radius).epsilon(0.01));
  // The particle picked is the nearest to the hit of those moving the face (its vertices' tets).
  double nearest = std::numeric_limits<double>::infinity();
  for (int v : mesh.triangles[static_cast<std::size_t>(hit.face)])
    for (int p : mesh.embedding.nodes[static_cast<std::size_t>(v)])
      nearest = std::min(nearest, (particle_position(m, state, p) - hit.point).norm());
  CHECK((particle_position(m, state, hit.index) - hit.point).norm() == nearest);
  CHECK(face_moved_by(m, 0, hit.face, hit.index));
  // Without the render mesh the same ray meets the tets' top face, farther down.
  {
    sim::Model bare = m;
    bare.soft_render_meshes.clear();
    const PickHit old = pick(bare, state, down);
    REQUIRE(old.kind == PickHit::Particle);
    CHECK(old.render_mesh == -1);
    CHECK(old.point.z() == Approx(hi.z()).margin(1e-9));
  }
  // Down a corner's column, through the tets' top face but outside the ball: nothing.
  Ray corner = down;
  corner.origin = sim::Vec3(lo.x() + 0.03 * edge, lo.y() + 0.03 * edge, hi.z() + 2 * edge);
  CHECK_FALSE(pick(m, state, corner).hit());

  // The read-out of the render face: an affine field over the particles is affine on the skinned
  // surface, so the corners carry it at the vertices and the pick reads it at the hit point.
  const std::vector<float> values = affine_field(m, state);
  const FaceProbe probe = probe_face(m, state, hit.render_mesh, hit.face, hit.point, values);
  REQUIRE(probe.face == hit.face);
  CHECK(probe.render_mesh == 0);
  CHECK(probe.particles == mesh.triangles[static_cast<std::size_t>(hit.face)]);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK((probe.weights[k] > -1e-9 && probe.weights[k] < 1 + 1e-9));
    const sim::Vec3 vertex = skinned_vertex(m, state, mesh, probe.particles[k]);
    CHECK((vertex - mesh.vertices[static_cast<std::size_t>(probe.particles[k])]).norm() < 1e-12);  // at rest
    CHECK(probe.corner_values[k] == Approx(affine_value(vertex)).margin(1e-5));
  }
  REQUIRE(probe.has_value);
  CHECK(probe.value == Approx(affine_value(hit.point)).margin(1e-5));
  const std::string text = describe_face_probe(probe, "volumetric strain", "");
  INFO(text);
  CHECK(text.find("face " + std::to_string(hit.face) + " of ball.obj: vertices ") == 0);
  // The particles moving the face are exactly its vertices' tets' nodes.
  std::vector<int> movers;
  for (int v : mesh.triangles[static_cast<std::size_t>(hit.face)])
    for (int p : mesh.embedding.nodes[static_cast<std::size_t>(v)]) movers.push_back(p);
  std::sort(movers.begin(), movers.end());
  movers.erase(std::unique(movers.begin(), movers.end()), movers.end());
  int moving = 0;
  for (int p = 0; p < m.particle_count; ++p) moving += face_moved_by(m, 0, hit.face, p) ? 1 : 0;
  CHECK(moving == static_cast<int>(movers.size()));
  CHECK(moving < m.particle_count);
  CHECK_FALSE(face_moved_by(m, -1, -1, hit.index));
  CHECK(probe_face(m, state, 1, hit.face, hit.point, values).face == -1);  // no such render mesh
}

TEST_CASE("Ctrl+drag on a soft body's particle pulls it the way it is dragged", "[app][interaction]") {
  // The soft cube without gravity, floating where it starts: only the spring moves it.
  const Loaded scene = load("soft_cube", [](sim::SceneSpec& s) { s.gravity = sim::Vec3::Zero(); });
  const sim::Model& m = *scene.model;
  const sim::State initial = sim::make_initial_state(m);
  sim::Vec3 top_corner = particle_position(m, initial, 0);
  int p = 0;
  for (int i = 0; i < m.particle_count; ++i)
    if (particle_position(m, initial, i).sum() > top_corner.sum()) top_corner = particle_position(m, initial, i), p = i;
  const sim::Vec3 start = particle_position(m, initial, p);
  const sim::Vec3 drag(0.1, 0.0, 0.05);  // right and up by the mouse
  Grab grab;
  grab.kind = Grab::Particle;
  grab.index = p;
  grab.target = start + drag;
  SimRunner runner;
  runner.load(scene.spec, scene.model);
  runner.set_grab(grab);
  run_steps(runner, 60);  // 0.5 s
  const Snapshot& s = runner.latest();
  const sim::Vec3 moved = particle_position(*s.model, s.state, p) - start;
  // The body's centre of mass moved the same way (the force went into the step, not a teleport).
  sim::Vec3 com_shift = sim::Vec3::Zero();
  for (int i = 0; i < m.particle_count; ++i) com_shift += particle_position(*s.model, s.state, i) - particle_position(m, initial, i);
  com_shift /= m.particle_count;
  INFO("grabbed particle moved " << moved.transpose() << " (dragged " << drag.transpose() << "), centre of mass "
                                 << com_shift.transpose());
  CHECK(moved.dot(drag.normalized()) > 0.3 * drag.norm());
  // The off-centre pull also turns the cube, so the corner swings a little sideways (measured
  // 0.84 of the way along the drag's direction); it ends far closer to the target.
  CHECK(moved.normalized().dot(drag.normalized()) > 0.7);
  CHECK((moved - drag).norm() < 2.0 / 3.0 * drag.norm());
  CHECK(com_shift.dot(drag) > 0);
  // Released, nothing more is applied.
  runner.set_grab(Grab{});
  run_steps(runner, 1);
}

TEST_CASE("soft body material in the property path: ranges refused with reasons, density to lumped masses",
          "[app][interaction]") {
  const Loaded scene = load("soft_cube");
  sim::SceneSpec spec = *scene.spec;
  const ItemRef body{ItemKind::SoftBody, 0};
  REQUIRE(item_exists(spec, body));
  CHECK(item_label(spec, body) == "soft body 'cube'");
  const auto props = describe_item(spec, body);
  REQUIRE(props.size() == 4);
  for (const PropertyInfo& p : props) CHECK(p.structural);
  CHECK(std::get<double>(*get_property(spec, {body, "E"})) == 1e5);
  CHECK(std::get<double>(*get_property(spec, {body, "nu"})) == Approx(0.45));

  const sim::SceneSpec before = spec;
  for (const auto& [name, value, words] : {std::tuple{"nu", 0.5, "[0, 0.5)"}, std::tuple{"nu", -0.1, "outside"},
                                           std::tuple{"E", 0.0, "must be > 0"}, std::tuple{"E", -5.0, "outside"},
                                           std::tuple{"density", 0.0, "must be > 0"}, std::tuple{"damping", -1.0, "outside"}}) {
    const std::string e = set_property(spec, {body, name}, value);
    INFO(name << " = " << value << ": " << e);
    CHECK(e.find(words) != std::string::npos);
    CHECK(spec.soft_bodies[0].material.youngs_modulus == before.soft_bodies[0].material.youngs_modulus);
    CHECK(spec.soft_bodies[0].material.poisson_ratio == before.soft_bodies[0].material.poisson_ratio);
  }

  // Density 2000 doubles every free particle's lumped mass (ρ V/4 per tet corner); the total is
  // ρ times the cube's volume (0.2 m)³.
  REQUIRE(set_property(spec, {body, "density"}, 2000.0).empty());
  double total = 0;
  for (std::size_t i = 0; i < spec.particles.size(); ++i) {
    CHECK(spec.particles[i].mass == Approx(2 * before.particles[i].mass).epsilon(1e-12));
    total += spec.particles[i].mass;
  }
  CHECK(total == Approx(2000 * 0.008).epsilon(1e-12));
  // Lamé inputs show as E, ν and switch to them when edited.
  spec.soft_bodies[0].material.lame_lambda = 4e5;
  spec.soft_bodies[0].material.lame_mu = 1e5;
  CHECK(std::get<double>(*get_property(spec, {body, "nu"})) == Approx(0.4));  // λ/(2(λ + μ))
  CHECK(std::get<double>(*get_property(spec, {body, "E"})) == Approx(1e5 * (1.2e6 + 2e5) / 5e5));
  REQUIRE(set_property(spec, {body, "nu"}, 0.3).empty());
  CHECK(spec.soft_bodies[0].material.lame_lambda < 0);
  CHECK(spec.soft_bodies[0].material.youngs_modulus == Approx(2.8e5));
  CHECK(spec.soft_bodies[0].material.poisson_ratio == 0.3);
  CHECK(soft_body_of_particle(spec, 0) == 0);
}
