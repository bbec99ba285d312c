// The direct solver's saddle-point form eliminated along the joint tree
// (solver/tree_kkt_factor.hpp) and its choice against A's own factor (solver/direct_factor.hpp),
// on Newton systems captured from scenes with joints, contacts on the ground, contacts between
// bodies (loop rows) and chains:
// - both eliminations' x solves the independently assembled A to round-off, and agrees with
//   Eigen's LDLᵀ of it;
// - K's factor grows linearly with the limbs on one body, A's quadratically (the body's rows make a
//   dense block of A); the tree form needs fewer operations where bodies carry several joints (the
//   ragdoll's torso and hips) and A's on chains (pendulum, flexible beam), and the direct solver
//   takes the cheaper one;
// - a moving body whose H block cannot be inverted sends the solver to A's factor, which still
//   solves the system.
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>

#include "sim/compile.hpp"
#include "sim/robot_import.hpp"
#include "solver/direct_factor.hpp"
#include "solver/linear_solvers.hpp"
#include "support/captured_schur.hpp"
#include "support/captured_system.hpp"
#include "support/ragdoll_scene.hpp"
#include "support/scratch_files.hpp"

using sim::Real;

namespace {

struct Captured {
  std::string name;
  sim::Model model;
  sim::SolveCapture capture;
};

// The ragdoll's first Newton system of step `steps` (it lands at about step 90 and lies on the
// floor from about 200 on).
Captured capture_ragdoll(int steps) {
  const auto dir = test::scratch_dir("tree_kkt_ragdoll");
  test::write_file(dir / "ragdoll.xml", test::kRagdollMjcf);
  auto spec = sim::load_description((dir / "ragdoll.xml").string());
  REQUIRE(spec.ok());
  Captured c{"ragdoll step " + std::to_string(steps), test::compile(*spec), {}};
  c.capture = test::capture_scene_system(*spec, c.model, steps, 0, sim::LinearSolver::Direct, 1);
  return c;
}

// Four balls on ball joints in a square ring, hung by one of them from the world off the ring's
// centre of mass (it swings): the fourth joint closes a loop, so its 3 rows are loop rows.
constexpr const char* kRingScene = R"(<scene name="ring" dt="0.01" gravity="0 0 -9.81">
  <body name="b0" pos="0 0 2" mass="1" inertia="0.01 0.01 0.01"><sphere radius="0.05"/></body>
  <body name="b1" pos="0.5 0 2" mass="1" inertia="0.01 0.01 0.01"><sphere radius="0.05"/></body>
  <body name="b2" pos="0.5 0 1.5" mass="1" inertia="0.01 0.01 0.01"><sphere radius="0.05"/></body>
  <body name="b3" pos="0 0 1.5" mass="1" inertia="0.01 0.01 0.01"><sphere radius="0.05"/></body>
  <joint name="hang" type="ball" parent="world" child="b0" pos="0 0 2.2"/>
  <joint name="j01" type="ball" parent="b0" child="b1" pos="0.25 0 2"/>
  <joint name="j12" type="ball" parent="b1" child="b2" pos="0.5 0 1.75"/>
  <joint name="j23" type="ball" parent="b2" child="b3" pos="0.25 0 1.5"/>
  <joint name="j30" type="ball" parent="b3" child="b0" pos="0 0 1.75"/>
</scene>
)";

Captured capture_ring(int steps) {
  const auto dir = test::scratch_dir("tree_kkt_ring");
  test::write_file(dir / "ring.xml", kRingScene);
  auto spec = sim::load_scene_file((dir / "ring.xml").string());
  REQUIRE(spec.ok());
  Captured c{"ring step " + std::to_string(steps), test::compile(*spec), {}};
  c.capture = test::capture_scene_system(*spec, c.model, steps, 0, sim::LinearSolver::Direct, 1);
  return c;
}

Captured capture_shipped(const char* scene, int steps) {
  return {std::string(scene) + " step " + std::to_string(steps), test::load_shipped_model(scene),
          test::capture_shipped_system(scene, steps, 0, sim::LinearSolver::Direct, 1)};
}

// A free hub with `limbs` capsules on two hinges each (through a light frame), in the air.
std::string star_mjcf(int limbs) {
  std::ostringstream x;
  x << R"(<mujoco model="star"><option timestep="0.005"/>
  <default><joint type="hinge" damping="1"/><geom type="capsule" size="0.03"/></default>
  <worldbody><body name="hub" pos="0 0 2"><freejoint/><geom type="sphere" size="0.1"/>)";
  for (int k = 0; k < limbs; ++k) {
    const double a = 2 * 3.141592653589793 * k / limbs, c = std::cos(a), s = std::sin(a);
    x << "<body name=\"limb" << k << "\" pos=\"" << 0.1 * c << " " << 0.1 * s << " 0\">"
      << "<joint name=\"a" << k << "\" axis=\"0 0 1\"/><joint name=\"b" << k << "\" axis=\"" << -s << " " << c << " 0\"/>"
      << "<geom fromto=\"0 0 0 " << 0.3 * c << " " << 0.3 * s << " 0\"/></body>";
  }
  x << "</body></worldbody></mujoco>";
  return x.str();
}

// The direct solver's analysis of the star's first Newton system: {tree, A's} factor entries.
std::pair<long long, long long> star_factor_entries(int limbs) {
  const auto dir = test::scratch_dir("tree_kkt_star");
  const auto file = dir / ("star" + std::to_string(limbs) + ".xml");
  test::write_file(file, star_mjcf(limbs));
  auto spec = sim::load_description(file.string());
  REQUIRE(spec.ok());
  const sim::Model m = test::compile(*spec);
  const sim::SolveCapture c = test::capture_scene_system(*spec, m, 3, 0, sim::LinearSolver::Direct, 1);
  REQUIRE(c.filled);
  test::CapturedSchur schur;
  test::build_captured_schur(m, c.system, schur);
  sim::DirectFactor direct;
  REQUIRE(direct.factorize(*schur.system));
  return {direct.tree().factor_nonzeros(), direct.row_space().factor_nonzeros()};
}

// |A x − b|∞ / |b|∞ with A assembled from the capture (the oracle), and |x − x_Eigen|∞ / |x_Eigen|∞.
struct Accuracy {
  Real residual = 0, difference = 0;
};

Accuracy accuracy(const sim::CapturedSystem& sys, const sim::VecX& x) {
  const test::SpMat A = test::assembled_schur(sys);
  const test::VecX b = Eigen::Map<const test::VecX>(sys.b.data(), sys.rows);
  Eigen::SimplicialLDLT<test::SpMat> reference(A);
  REQUIRE(reference.info() == Eigen::Success);
  const test::VecX x_ref = reference.solve(b);
  const test::VecX xs = x.head(sys.rows);
  return {(A * xs - b).lpNorm<Eigen::Infinity>() / b.lpNorm<Eigen::Infinity>(),
          (xs - x_ref).lpNorm<Eigen::Infinity>() / x_ref.lpNorm<Eigen::Infinity>()};
}

}  // namespace

TEST_CASE("the saddle-point factor along the joint tree solves captured Newton systems to round-off",
          "[scene][solver][linear][direct][tree]") {
  // Joints with ground contacts (ragdoll on the floor), joints alone (workcell, pendulum, beam),
  // a closed loop of joints (ring), contacts between bodies (heavy_stack, table_pile).
  std::vector<Captured> systems;
  systems.push_back(capture_ragdoll(250));
  systems.push_back(capture_ragdoll(100));
  systems.push_back(capture_ring(10));
  for (auto [scene, steps] : {std::pair{"workcell", 15}, {"pendulum", 10}, {"flexible_beam", 5}, {"heavy_stack", 30},
                              {"table_pile", 40}})
    systems.push_back(capture_shipped(scene, steps));
  int compared = 0, with_loops = 0;
  for (const Captured& c : systems) {
    INFO(c.name);
    REQUIRE(c.capture.filled);
    const sim::CapturedSystem& sys = c.capture.system;
    const test::VecX b = Eigen::Map<const test::VecX>(sys.b.data(), sys.rows);
    if (sys.iteration != 0 || b.lpNorm<Eigen::Infinity>() == 0) continue;
    test::CapturedSchur schur;
    test::build_captured_schur(c.model, sys, schur);
    const sim::SchurSystem& A = *schur.system;

    sim::TreeKktFactor tree;
    REQUIRE(tree.prepare(A));
    CHECK_FALSE(tree.prepare(A));  // the same pattern: analysed once
    REQUIRE(tree.factorize_prepared(A));
    sim::VecX x_tree(sys.rows);
    tree.solve(b, x_tree);
    const Accuracy t = accuracy(sys, x_tree);

    sim::SparseSchurFactor rows;
    rows.prepare(A);
    REQUIRE(rows.factorize_prepared(A));
    sim::VecX x_rows(sys.rows);
    rows.solve(b, x_rows);
    const Accuracy r = accuracy(sys, x_rows);

    INFO("rows " << sys.rows << ", loop rows " << tree.loop_rows() << "; tree: |Ax - b|/|b| " << t.residual
                 << ", |x - x_ref|/|x_ref| " << t.difference << ", factor " << tree.factor_nonzeros() << " entries, "
                 << tree.factor_operations() << " operations; A's: " << r.residual << ", " << r.difference << ", "
                 << rows.factor_nonzeros() << ", " << rows.factor_operations());
    CHECK(t.residual < 1e-9);
    CHECK(t.difference < 1e-8);
    CHECK(r.residual < 1e-10);
    CHECK(r.difference < 1e-8);
    if (tree.loop_rows() > 0) ++with_loops;
    if (c.name.rfind("ring", 0) == 0) CHECK(tree.loop_rows() == 3);
    // The production path (solve_linear's direct solver: the cheaper elimination, refined).
    sim::VecX x;
    sim::LinearScratch scratch;
    const sim::LinearSolveStats st = sim::solve_linear(sim::LinearSolver::Direct, A, b, x, 1, 0, 1, scratch, nullptr);
    CHECK(st.breakdown == sim::LinearBreakdown::None);
    const Accuracy d = accuracy(sys, x);
    INFO("solve_linear (" << sim::to_string(scratch.direct.elimination()) << "): " << d.residual << ", " << d.difference);
    CHECK(d.residual < 1e-10);
    CHECK(d.difference < 1e-8);
    ++compared;
  }
  CHECK(compared >= 6);
  CHECK(with_loops >= 1);
}

TEST_CASE("the direct solver takes the tree form for a ragdoll and A's own factor on chains",
          "[scene][solver][linear][direct][tree]") {
  struct Expect {
    Captured captured;
    sim::DirectElimination elimination;
  };
  std::vector<Expect> expect;
  expect.push_back({capture_ragdoll(250), sim::DirectElimination::Tree});
  expect.push_back({capture_ragdoll(60), sim::DirectElimination::Tree});  // in the air: joints only
  expect.push_back({capture_shipped("pendulum", 10), sim::DirectElimination::RowSpace});
  expect.push_back({capture_shipped("flexible_beam", 5), sim::DirectElimination::RowSpace});
  for (const Expect& e : expect) {
    const Captured& c = e.captured;
    INFO(c.name);
    const sim::CapturedSystem& sys = c.capture.system;
    REQUIRE(sys.rows > 0);
    test::CapturedSchur schur;
    test::build_captured_schur(c.model, sys, schur);
    sim::DirectFactor direct;
    REQUIRE(direct.factorize(*schur.system));
    INFO("tree " << direct.tree().factor_operations() << " operations, " << direct.tree().factor_nonzeros()
                 << " entries; A's " << direct.row_space().factor_operations() << ", " << direct.row_space().factor_nonzeros());
    CHECK(direct.elimination() == e.elimination);
    if (e.elimination == sim::DirectElimination::Tree) {
      // Several joints on one body (the torso: hips and shoulders; a hip: three hinges through
      // light frames) make dense blocks of A that K does not have.
      CHECK(direct.tree().factor_operations() * 1.5 < direct.row_space().factor_operations());
    }
    const test::VecX b = Eigen::Map<const test::VecX>(sys.b.data(), sys.rows);
    sim::VecX x(sys.rows);
    direct.solve(b, x);
    CHECK(accuracy(sys, x).residual < 1e-10);
  }
}

TEST_CASE("a moving body without an invertible inertia sends the direct solver to A's factor",
          "[scene][solver][linear][direct][tree]") {
  const Captured c = capture_ragdoll(250);
  const sim::CapturedSystem& sys = c.capture.system;
  test::CapturedSchur schur;
  test::build_captured_schur(c.model, sys, schur);
  const sim::SchurSystem& A = *schur.system;
  // A body some row moves, its world inverse inertia made singular (one principal axis locked):
  // A = J H⁻¹ Jᵀ + C + εI stays positive definite, K has no H block to write for it.
  int body = -1;
  for (int n = 0; n < c.model.body_count && body < 0; ++n)
    if (A.node_entries().node_entry_first[n + 1] > A.node_entries().node_entry_first[n]) body = n;
  REQUIRE(body >= 0);
  const sim::Vec3 axis = sim::Vec3(1, 2, 3).normalized();
  sim::Mat3& inv_inertia = schur.inv_mass.body_inv_inertia[static_cast<std::size_t>(body)];
  inv_inertia = (sim::Mat3::Identity() - axis * axis.transpose()) * inv_inertia * (sim::Mat3::Identity() - axis * axis.transpose());
  sim::TreeKktFactor tree;
  tree.prepare(A);
  CHECK_FALSE(tree.factorize_prepared(A));
  sim::DirectFactor direct;
  REQUIRE(direct.factorize(A));
  CHECK(direct.elimination() == sim::DirectElimination::RowSpace);
  const sim::VecX b = Eigen::Map<const sim::VecX>(sys.b.data(), sys.rows);
  sim::VecX x(sys.rows), ax(sys.rows), s1(c.model.dof_count()), s2(c.model.dof_count());
  direct.solve(b, x);
  A.apply(x, ax, s1, s2);
  CHECK((ax - b).lpNorm<Eigen::Infinity>() < 1e-10 * b.lpNorm<Eigen::Infinity>());
}

TEST_CASE("the tree form's factor grows linearly with the joints on one body, A's quadratically",
          "[scene][solver][linear][direct][tree]") {
  const auto [tree4, rows4] = star_factor_entries(4);
  const auto [tree12, rows12] = star_factor_entries(12);
  INFO("4 limbs: tree " << tree4 << ", A's " << rows4 << "; 12 limbs: tree " << tree12 << ", A's " << rows12);
  // Three times the limbs: about three times the tree's entries (plus the hub's constant block),
  // while the hub's 5 rows per limb make a dense (5k)² block of A.
  CHECK(tree12 < 3.3 * tree4);
  CHECK(rows12 > 5.0 * rows4);
  CHECK(tree12 < rows12);
}
