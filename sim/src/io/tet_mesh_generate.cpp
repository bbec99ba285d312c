// TetGen in a child process (see sim/tet_mesh_generate.hpp). The surface goes to the child as a
// piecewise linear complex (one triangle per facet); the child runs tetrahedralize() and writes
// back 'M', the node and tet counts (int64) and the nodes (3 doubles) and tets (4 int32), or 'E'
// and TetGen's failure; a self-intersecting surface is found by TetGen's detection run (-d)
// first. The parent checks the reply's length against its counts, every index and
// coordinate, orients the tets positively (TetGen's own order is the other one) and computes the
// boundary.
#define TETLIBRARY  // tetgen.h's library interface: terminatetetgen() throws its code
#include <tetgen.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

#include "io/child_process.hpp"
#include "io/fd_io.hpp"
#include "io/tet_mesh_finish.hpp"
#include "io/tet_mesh_text.hpp"
#include "sim/load_limits.hpp"
#include "sim/tet_mesh_generate.hpp"
#include "sim/tet_mesh_quality.hpp"

namespace sim {

namespace {

constexpr char kMeshTag = 'M', kErrorTag = 'E';

// terminatetetgen()'s codes (tetgen.h).
std::string tetgen_failure(int code) {
  switch (code) {
    case 1: return "TetGen ran out of memory";
    case 2: return "TetGen hit an internal error";
    case 3: return "the surface intersects itself (TetGen found a self-intersection)";
    case 4: return "the surface has a feature too small for TetGen's tolerance";
    case 5: return "the surface has two facets too close to each other";
    case 10: return "TetGen found an input error in the surface";
    default: return "TetGen failed with code " + std::to_string(code);
  }
}

void tetgen_in_child(int fd, const std::vector<double>& points, const std::vector<int>& triangles, std::string switches) {
  tetgenio in, out;
  in.firstnumber = 0;
  in.numberofpoints = static_cast<int>(points.size() / 3);
  in.pointlist = new REAL[points.size()];
  std::memcpy(in.pointlist, points.data(), points.size() * sizeof(double));
  in.numberoffacets = static_cast<int>(triangles.size() / 3);
  in.facetlist = new tetgenio::facet[static_cast<std::size_t>(in.numberoffacets)];
  for (int f = 0; f < in.numberoffacets; ++f) {
    tetgenio::facet& facet = in.facetlist[f];
    tetgenio::init(&facet);
    facet.numberofpolygons = 1;
    facet.polygonlist = new tetgenio::polygon[1];
    tetgenio::init(&facet.polygonlist[0]);
    facet.polygonlist[0].numberofvertices = 3;
    facet.polygonlist[0].vertexlist = new int[3];
    for (int k = 0; k < 3; ++k) facet.polygonlist[0].vertexlist[k] = triangles[static_cast<std::size_t>(3 * f + k)];
  }
  std::string reply;
  try {
    // TetGen's meshing run segfaults on some self-intersecting surfaces (two overlapping boxes)
    // where its detection run (-d) lists the triangles that cross: that run goes first.
    tetgenbehavior detect;
    std::string detect_switches = "pzQd";
    tetgenio crossing;
    if (detect.parse_commandline(detect_switches.data())) tetrahedralize(&detect, &in, &crossing);
    tetgenbehavior behaviour;
    if (crossing.numberoftrifaces > 0) {
      reply = kErrorTag + std::string("the surface intersects itself: ") + std::to_string(crossing.numberoftrifaces) +
              " of its triangles cross others (TetGen -d)";
    } else if (!behaviour.parse_commandline(switches.data())) {
      reply = kErrorTag + std::string("TetGen refused the switches '") + switches + "'";
    } else {
      tetrahedralize(&behaviour, &in, &out);
      const std::int64_t np = out.numberofpoints, nt = out.numberoftetrahedra;
      if (out.numberofcorners != 4 || np < 0 || nt < 0 || (np > 0 && out.pointlist == nullptr) ||
          (nt > 0 && out.tetrahedronlist == nullptr)) {
        reply = kErrorTag + std::string("TetGen returned no usable mesh");
      } else {
        reply.push_back(kMeshTag);
        reply.append(reinterpret_cast<const char*>(&np), 8).append(reinterpret_cast<const char*>(&nt), 8);
        reply.append(reinterpret_cast<const char*>(out.pointlist), static_cast<std::size_t>(np) * 24);
        for (std::int64_t i = 0; i < nt * 4; ++i) {
          const std::int32_t v = out.tetrahedronlist[i];
          reply.append(reinterpret_cast<const char*>(&v), 4);
        }
      }
    }
  } catch (int code) {
    reply = kErrorTag + tetgen_failure(code);
  }
  io::write_all(fd, reply.data(), reply.size());
}

std::string number(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.9g", v);
  return buffer;
}

// Where an edge problem is: the first edge (in triangle order) used by `uses` triangles
// (1: boundary, 3: three or more), or walked the same way twice (uses 0), as "e.g. the edge from
// vertex a (x y z) to vertex b (x y z)"; "" when none (or the indices are bad).
std::string first_edge_where(const TriangleMesh& surface, int uses) {
  const int n = static_cast<int>(surface.vertices.size());
  std::map<std::pair<int, int>, std::array<int, 2>> edges;  // undirected edge → {uses, walked a→b with a < b}
  std::vector<std::pair<int, int>> order;
  for (const auto& t : surface.triangles) {
    if (t[0] < 0 || t[1] < 0 || t[2] < 0 || t[0] >= n || t[1] >= n || t[2] >= n) return {};
    for (int k = 0; k < 3; ++k) {
      const int a = t[k], b = t[(k + 1) % 3];
      if (a == b) continue;
      auto [it, inserted] = edges.try_emplace({std::min(a, b), std::max(a, b)}, std::array<int, 2>{0, 0});
      if (inserted) order.push_back(it->first);
      ++it->second[0];
      it->second[1] += a < b ? 1 : 0;
    }
  }
  for (const auto& e : order) {
    const auto& [count, forward] = edges[e];
    const bool hit = uses == 1 ? count == 1 : uses >= 3 ? count >= 3 : (count == 2 && forward != 1);
    if (!hit) continue;
    auto at = [&](int v) {
      const Vec3& x = surface.vertices[static_cast<std::size_t>(v)];
      return "vertex " + std::to_string(v) + " (" + number(x.x()) + " " + number(x.y()) + " " + number(x.z()) + ")";
    };
    return "e.g. the edge from " + at(e.first) + " to " + at(e.second);
  }
  return {};
}

}  // namespace

Real tet_volume_for_edge(Real edge) { return edge * edge * edge / (6 * std::sqrt(Real(2))); }

std::string check_closed_surface(const TriangleMesh& surface) {
  const MeshDiagnostics d = check_mesh(surface);
  std::string problems;
  auto add = [&](int count, const std::string& what, int edge_uses = -1) {
    if (count <= 0) return;
    problems += (problems.empty() ? "" : "\n") + std::to_string(count) + " " + what;
    if (edge_uses < 0) return;
    if (std::string where = first_edge_where(surface, edge_uses); !where.empty()) problems += "; " + where;
  };
  if (d.triangle_count == 0) problems = "it has no triangles";
  add(d.non_finite_vertices, "vertices with non-finite coordinates");
  add(d.bad_indices, "triangles with vertex indices out of range");
  add(d.degenerate_triangles, "degenerate triangles (a repeated corner or zero area)");
  add(d.boundary_edges, "boundary edges (edges of one triangle): the surface is not closed", 1);
  add(d.non_manifold_edges, "non-manifold edges (shared by three or more triangles)", 3);
  add(d.inconsistent_edges, "edges whose two triangles are oriented inconsistently (flipped triangles)", 0);
  if (!problems.empty()) return problems;
  double volume = 0;
  for (const auto& t : surface.triangles)
    volume += surface.vertices[t[0]].dot(surface.vertices[t[1]].cross(surface.vertices[t[2]])) / 6.0;
  if (!(volume > 0))
    return "the surface encloses a volume of " + number(volume) +
           " m^3: it is inside out (triangles clockwise seen from outside) or flat";
  return {};
}

Result<TetMesh> tetrahedralize_surface(const TriangleMesh& surface, const TetGenOptions& options, const std::string& where,
                                       TetGenReport* report) {
  if (std::string problem = check_closed_surface(surface); !problem.empty()) {
    std::string indented;
    for (char c : problem) indented += c == '\n' ? std::string("\n  ") : std::string(1, c);
    return Error{where + ": cannot tetrahedralise: " + indented};
  }
  if (!(options.max_volume >= 0) || !std::isfinite(options.max_volume))
    return Error{where + ": the maximum tet volume must be a finite number >= 0"};
  if (options.radius_edge_ratio != 0 && !(options.radius_edge_ratio >= 1.05 && options.radius_edge_ratio <= 100))
    return Error{where + ": the radius-edge ratio bound must be 0 (none) or within 1.05 .. 100 (TetGen may not finish below ~1.1)"};
  if (!(options.min_dihedral_deg >= 0 && options.min_dihedral_deg <= 30))
    return Error{where + ": the minimum dihedral angle must be within 0 .. 30 degrees"};
  double enclosed = 0;
  for (const auto& t : surface.triangles)
    enclosed += surface.vertices[t[0]].dot(surface.vertices[t[1]].cross(surface.vertices[t[2]])) / 6.0;
  if (options.max_volume > 0 && enclosed / options.max_volume > static_cast<double>(limits::kMaxTetMeshTets))
    return Error{where + ": a maximum tet volume of " + number(options.max_volume) + " m^3 asks for more than " +
                 number(enclosed / options.max_volume) + " tets in " + number(enclosed) + " m^3 (the limit is " +
                 std::to_string(limits::kMaxTetMeshTets) + ")"};
  // Only the vertices the triangles use: TetGen would insert an unused one as a Steiner point.
  std::vector<int> index(surface.vertices.size(), -1);
  std::vector<double> points;
  std::vector<int> triangles;
  triangles.reserve(surface.triangles.size() * 3);
  for (const auto& t : surface.triangles)
    for (int v : t) {
      if (index[v] < 0) {
        index[v] = static_cast<int>(points.size() / 3);
        for (int k = 0; k < 3; ++k) points.push_back(static_cast<double>(surface.vertices[v][k]));
      }
      triangles.push_back(index[v]);
    }
  const std::size_t unused = surface.vertices.size() - points.size() / 3;
  std::string switches = "pzQ";
  if (options.radius_edge_ratio > 0)
    switches += "q" + number(options.radius_edge_ratio) + "/" + number(options.min_dihedral_deg);
  if (options.max_volume > 0) switches += "a" + number(options.max_volume);
  if (report != nullptr) {
    report->switches = switches;
    if (unused > 0) report->notes.push_back(where + ": " + std::to_string(unused) + " vertices no triangle uses were left out");
  }
  io::ChildLimits limits;
  limits.wall_seconds = options.time_limit_seconds;
  limits.extra_address_space = options.memory_limit_bytes;
  limits.max_output_bytes = 17 + static_cast<std::size_t>(limits::kMaxTetMeshNodes) * 24 +
                            static_cast<std::size_t>(limits::kMaxTetMeshTets) * 16;
  const auto start = std::chrono::steady_clock::now();
  const io::ChildOutcome o =
      io::run_in_child([&](int fd) { tetgen_in_child(fd, points, triangles, switches); }, limits);
  if (report != nullptr) report->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (o.kind != io::ChildOutcome::Kind::finished) {
    std::string said = o.messages;
    while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
    said = said.substr(said.find_last_of('\n') == std::string::npos ? 0 : said.find_last_of('\n') + 1);
    if (said.size() > 300) said = said.substr(0, 300) + "...";
    return Error{where + ": the tet mesher (TetGen) " + io::describe(o, limits) + (said.empty() ? "" : ": " + said)};
  }
  const std::string& r = o.output;
  if (r.empty()) return Error{where + ": the tet mesher (TetGen) returned nothing"};
  if (r[0] == kErrorTag) return Error{where + ": " + r.substr(1)};
  std::int64_t np = -1, nt = -1;
  if (r[0] != kMeshTag || r.size() < 17) return Error{where + ": the tet mesher (TetGen) sent an unknown reply"};
  std::memcpy(&np, r.data() + 1, 8);
  std::memcpy(&nt, r.data() + 9, 8);
  if (np < 0 || nt < 0 || np > limits::kMaxTetMeshNodes || nt > limits::kMaxTetMeshTets ||
      r.size() != 17 + static_cast<std::size_t>(np) * 24 + static_cast<std::size_t>(nt) * 16)
    return Error{where + ": the tet mesher (TetGen) sent " + std::to_string(r.size()) + " bytes for " + std::to_string(np) +
                 " nodes and " + std::to_string(nt) + " tets"};
  if (nt == 0) return Error{where + ": TetGen made no tetrahedra"};
  TetMesh mesh;
  mesh.source = where;
  mesh.points.resize(static_cast<std::size_t>(np));
  const char* p = r.data() + 17;
  for (auto& x : mesh.points) {
    double c[3];
    std::memcpy(c, p, 24);
    p += 24;
    if (!std::isfinite(c[0]) || !std::isfinite(c[1]) || !std::isfinite(c[2]))
      return Error{where + ": TetGen returned a non-finite node"};
    x = Vec3(static_cast<Real>(c[0]), static_cast<Real>(c[1]), static_cast<Real>(c[2]));
  }
  mesh.tets.resize(static_cast<std::size_t>(nt));
  for (auto& e : mesh.tets) {
    std::memcpy(e.data(), p, 16);
    p += 16;
    for (std::int32_t i : e)
      if (i < 0 || i >= np) return Error{where + ": TetGen returned a tet with node " + std::to_string(i) + " of " + std::to_string(np)};
    // TetGen lists the nodes the other way round: made positive here, as its convention (not a repair).
    if (tet_signed_volume(mesh.points[e[0]], mesh.points[e[1]], mesh.points[e[2]], mesh.points[e[3]]) < 0) std::swap(e[2], e[3]);
  }
  try {
    io::TetSource source;
    source.file = where;
    TetMeshReadReport finish;
    io::finish_tet_mesh(mesh, source, &finish);
    if (report != nullptr)
      for (std::string& n : finish.notes) report->notes.push_back(std::move(n));
  } catch (const io::TetFileError& e) {
    return Error{e.message};
  }
  // TetGen's bounds are targets: below a ratio of 2, and for the dihedral angle, tets at the
  // surface may miss them, and its final optimisation (flips that merge three tets into two)
  // can leave a few tets above the maximum volume. Counted and said, never silent.
  if (report != nullptr && (options.radius_edge_ratio > 0 || options.min_dihedral_deg > 0 || options.max_volume > 0)) {
    std::size_t above = 0, below = 0, larger = 0;
    Real largest = 0;
    for (const auto& e : mesh.tets) {
      const Vec3 &a = mesh.points[e[0]], &b = mesh.points[e[1]], &c = mesh.points[e[2]], &d = mesh.points[e[3]];
      const Real v = tet_signed_volume(a, b, c, d);
      if (options.max_volume > 0 && v > options.max_volume * (1 + 1e-9)) {
        ++larger;
        largest = std::max(largest, v);
      }
      if (options.radius_edge_ratio > 0 && tet_radius_edge_ratio(a, b, c, d) > options.radius_edge_ratio * (1 + 1e-3)) ++above;
      if (options.min_dihedral_deg > 0 && tet_dihedral_range_deg(a, b, c, d)[0] < options.min_dihedral_deg) ++below;
    }
    if (above > 0)
      report->notes.push_back(where + ": " + std::to_string(above) + " of " + std::to_string(mesh.tets.size()) +
                              " tets have a radius-edge ratio above " + number(options.radius_edge_ratio) +
                              " (TetGen holds bounds under 2 only away from the surface)");
    if (larger > 0)
      report->notes.push_back(where + ": " + std::to_string(larger) + " of " + std::to_string(mesh.tets.size()) +
                              " tets are larger than the maximum volume " + number(options.max_volume) + " m^3 (up to " +
                              number(largest / options.max_volume) + " times; TetGen's final flips merge tets)");
    if (below > 0)
      report->notes.push_back(where + ": " + std::to_string(below) + " of " + std::to_string(mesh.tets.size()) +
                              " tets have a dihedral angle under " + number(options.min_dihedral_deg) + " deg");
  }
  return mesh;
}

}  // namespace sim
