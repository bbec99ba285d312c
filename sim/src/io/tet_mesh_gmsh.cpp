// Gmsh .msh reader: MSH 2.2 and 4.1, ASCII and binary (little-endian). Nodes and 4-node
// tetrahedra (element type 4; a 10-node tet, type 11, keeps its 4 corners); every other element
// type and section is skipped and counted. Node tags become indices 0..n-1 in file order.
// Format: https://gmsh.info/doc/texinfo/gmsh.html#MSH-file-format (and its 2.2 legacy section).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>

#include "io/tet_mesh_finish.hpp"
#include "io/tet_mesh_text.hpp"
#include "sim/load_limits.hpp"

namespace sim {

namespace {

using io::NodeTagMap;
using io::TetFileError;
using io::TokenReader;

// Nodes of Gmsh element types 1..31 (0: unknown), needed to step over elements in binary files.
constexpr int kGmshNodes[32] = {0, 2, 3, 4, 4, 8, 6, 5, 3, 6, 9, 10, 27, 18, 14, 1,
                                8, 20, 15, 13, 9, 10, 12, 15, 15, 21, 4, 5, 6, 20, 35, 56};
constexpr int kTet4 = 4, kTet10 = 11;

int gmsh_nodes(long long type) { return type >= 1 && type < 32 ? kGmshNodes[type] : 0; }

const char* gmsh_type_name(long long type) {
  switch (type) {
    case 1: return "2-node line";
    case 2: return "3-node triangle";
    case 3: return "4-node quadrangle";
    case 5: return "8-node hexahedron";
    case 6: return "6-node prism";
    case 7: return "5-node pyramid";
    case 8: return "3-node line";
    case 9: return "6-node triangle";
    case 15: return "point";
    default: return "element";
  }
}

struct GmshReader {
  GmshReader(TokenReader& reader, TetMeshReadReport* read_report) : in(reader), report(read_report) {}
  TokenReader& in;
  TetMeshReadReport* report;
  bool binary = false;
  int version = 0;  // 2 or 4
  TetMesh mesh;
  io::TetSource source;
  NodeTagMap tags;
  bool have_nodes = false, have_elements = false, noted_tet10 = false;
  int elements_line = 0;  // the $Elements line, for a file without tets
  std::map<long long, long long> skipped;  // element type -> count

  void add_node(long long tag, const Vec3& p, std::string_view element) {
    if (!tags.insert(tag, static_cast<std::int32_t>(mesh.points.size())))
      in.fail(element, "node tag " + std::to_string(tag) + " appears twice");
    mesh.points.push_back(p);
  }

  Vec3 binary_point(std::string_view element) {
    double c[3];
    for (double& v : c) v = in.binary<double>(element);
    for (int k = 0; k < 3; ++k)
      if (!std::isfinite(c[k])) {
        in.fail(element, std::string("binary node ") + "xyz"[k] + " coordinate is not finite (" + std::to_string(c[k]) +
                             ") at byte " + std::to_string(in.offset() - 8 * (3 - k)));
      }
    return Vec3(static_cast<Real>(c[0]), static_cast<Real>(c[1]), static_cast<Real>(c[2]));
  }

  // A tet (type 4 or 11) whose node tags are `node_tags` (first four used).
  void add_tet(long long id, long long type, const long long* node_tags, std::string_view element) {
    std::array<std::int32_t, 4> e{};
    for (int k = 0; k < 4; ++k) {
      e[k] = tags.find(node_tags[k]);
      if (e[k] < 0)
        in.fail(element, "element " + std::to_string(id) + ": node tag " + std::to_string(node_tags[k]) +
                             " is not in $Nodes");
    }
    if (type == kTet10 && !noted_tet10 && report != nullptr) {
      noted_tet10 = true;
      report->notes.push_back(in.where(element) + "element " + std::to_string(id) +
                              ": 10-node tetrahedra (type 11): their 4 corner nodes are used, the 6 edge nodes dropped");
    }
    if (static_cast<std::int64_t>(mesh.tets.size()) >= limits::kMaxTetMeshTets)
      in.fail(element, "more than " + std::to_string(limits::kMaxTetMeshTets) + " tetrahedra (the limit)");
    mesh.tets.push_back(e);
    source.tet_lines.push_back(in.line());
    source.tet_ids.push_back(id);
  }

  void format_section() {
    const std::string_view v = in.token("$MeshFormat");
    if (v == "2" || v == "2.0" || v == "2.1" || v == "2.2")
      version = 2;
    else if (v == "4.1")
      version = 4;
    else
      in.fail("$MeshFormat", "version " + std::string(v.substr(0, 20)) +
                                 " is not supported (MSH 2.2 and 4.1 are; Gmsh writes them with -format msh22 / msh41)");
    const long long file_type = in.integer_in("$MeshFormat", "file-type", 0, 1);
    const long long data_size = in.integer("$MeshFormat", "data-size");
    binary = file_type == 1;
    if (binary) {
      if (data_size != 8) in.fail("$MeshFormat", "data-size " + std::to_string(data_size) + " is not supported (8 is)");
      in.skip_line();
      const int one = in.binary<int>("$MeshFormat");
      if (one != 1) in.fail("$MeshFormat", "binary file of another byte order (the int 1 reads " + std::to_string(one) + ")");
    }
    in.expect("$EndMeshFormat", "$MeshFormat");
    if (report != nullptr)
      report->format = std::string("Gmsh MSH ") + (version == 2 ? "2.2" : "4.1") + (binary ? " binary" : " ASCII");
  }

  void nodes_v2() {
    const std::int64_t n = in.count("$Nodes", "node count", limits::kMaxTetMeshNodes, binary ? 28 : 8);
    mesh.points.reserve(static_cast<std::size_t>(n));
    tags.reserve(static_cast<std::size_t>(n));
    if (binary) {
      in.skip_line();
      for (std::int64_t i = 0; i < n; ++i) {
        const int tag = in.binary<int>("$Nodes");
        add_node(tag, binary_point("$Nodes"), "$Nodes");
      }
    } else {
      for (std::int64_t i = 0; i < n; ++i) {
        const long long tag = in.integer("$Nodes", "node tag");
        add_node(tag, in.point("$Nodes"), "$Nodes");
      }
    }
  }

  void elements_v2() {
    const std::int64_t n = in.count("$Elements", "element count", limits::kMaxTetMeshFileElements, binary ? 16 : 8);
    long long node_tags[64];
    if (binary) {
      in.skip_line();
      for (std::int64_t done = 0; done < n;) {
        const int type = in.binary<int>("$Elements");
        const int follow = in.binary<int>("$Elements");
        const int ntags = in.binary<int>("$Elements");
        const int nodes = gmsh_nodes(type);
        if (nodes == 0 || follow < 1 || follow > n - done || ntags < 0 || ntags > 64) {
          in.fail("$Elements", "binary element block header (type " + std::to_string(type) + ", " +
                                   std::to_string(follow) + " elements, " + std::to_string(ntags) + " tags) is invalid");
        }
        const std::size_t each = 4u * static_cast<std::size_t>(1 + ntags + nodes);
        if (static_cast<std::size_t>(follow) > in.bytes_left() / each) {
          in.fail("$Elements", std::to_string(follow) + " elements cannot fit in the bytes left (truncated?)");
        }
        for (int k = 0; k < follow; ++k) {
          const int id = in.binary<int>("$Elements");
          in.skip_bytes(4u * static_cast<std::size_t>(ntags), "$Elements");
          if (type == kTet4 || type == kTet10) {
            for (int j = 0; j < nodes; ++j) node_tags[j] = in.binary<int>("$Elements");
            add_tet(id, type, node_tags, "$Elements");
          } else {
            in.skip_bytes(4u * static_cast<std::size_t>(nodes), "$Elements");
            ++skipped[type];
          }
        }
        done += follow;
      }
      return;
    }
    for (std::int64_t i = 0; i < n; ++i) {
      const long long id = in.integer("$Elements", "element number");
      const long long type = in.integer("$Elements", "element type");
      if (type != kTet4 && type != kTet10) {
        ++skipped[type];
        in.skip_line();
        continue;
      }
      const long long ntags = in.integer_in("$Elements", "number of tags", 0, 64);
      for (long long k = 0; k < ntags; ++k) (void)in.integer("$Elements", "tag");
      for (int j = 0; j < gmsh_nodes(type); ++j) node_tags[j] = in.integer("$Elements", "node tag");
      add_tet(id, type, node_tags, "$Elements");
    }
  }

  // MSH 4.1: size_t in binary; ints for the block headers' dimension, tag and type/parametric.
  std::int64_t size_value(std::string_view element, std::string_view what, std::int64_t max, std::size_t min_bytes) {
    if (!binary) return in.count(element, what, max, min_bytes);
    const std::uint64_t v = in.binary<std::uint64_t>(element);
    if (v > static_cast<std::uint64_t>(max)) {
      in.fail(element, std::string(what) + " " + std::to_string(v) + " at byte " + std::to_string(in.offset() - 8) +
                           " is above the limit of " + std::to_string(max));
    }
    if (min_bytes > 0 && v > in.bytes_left() / min_bytes) {
      in.fail(element, std::string(what) + " " + std::to_string(v) + " at byte " + std::to_string(in.offset() - 8) +
                           " cannot fit in the " +
                           std::to_string(in.bytes_left()) + " bytes left in the file (truncated or corrupt)");
    }
    return static_cast<std::int64_t>(v);
  }
  long long int_value(std::string_view element, std::string_view what) {
    return binary ? in.binary<int>(element) : in.integer(element, what);
  }

  void nodes_v4() {
    if (binary) in.skip_line();
    const std::size_t node_bytes = binary ? 32 : 8;
    const std::int64_t blocks = size_value("$Nodes", "numEntityBlocks", limits::kMaxTetMeshNodes, binary ? 20 : 8);
    const std::int64_t n = size_value("$Nodes", "numNodes", limits::kMaxTetMeshNodes, node_bytes);
    (void)size_value("$Nodes", "minNodeTag", INT64_MAX, 0);
    (void)size_value("$Nodes", "maxNodeTag", INT64_MAX, 0);
    mesh.points.reserve(static_cast<std::size_t>(n));
    tags.reserve(static_cast<std::size_t>(n));
    std::vector<long long> block_tags;
    for (std::int64_t b = 0; b < blocks; ++b) {
      const long long dim = int_value("$Nodes", "entityDim");
      (void)int_value("$Nodes", "entityTag");
      const long long parametric = int_value("$Nodes", "parametric");
      const std::int64_t count = size_value("$Nodes", "numNodesInBlock", n - static_cast<std::int64_t>(mesh.points.size()),
                                            node_bytes);
      if (dim < 0 || dim > 3 || parametric < 0 || parametric > 1) {
        in.fail("$Nodes", "entity block " + std::to_string(b) + ": entityDim " + std::to_string(dim) + ", parametric " +
                              std::to_string(parametric) + " are invalid");
      }
      const int extra = parametric ? static_cast<int>(dim) : 0;
      block_tags.resize(static_cast<std::size_t>(count));
      for (auto& t : block_tags)
        t = binary ? static_cast<long long>(in.binary<std::uint64_t>("$Nodes")) : in.integer("$Nodes", "node tag");
      for (std::int64_t k = 0; k < count; ++k) {
        if (binary) {
          const Vec3 p = binary_point("$Nodes");
          in.skip_bytes(8u * static_cast<std::size_t>(extra), "$Nodes");
          add_node(block_tags[k], p, "$Nodes");
        } else {
          const Vec3 p = in.point("$Nodes");
          for (int e = 0; e < extra; ++e) (void)in.real("$Nodes", "parametric coordinate");
          add_node(block_tags[k], p, "$Nodes");
        }
      }
    }
    if (static_cast<std::int64_t>(mesh.points.size()) != n)
      in.fail("$Nodes", "the entity blocks hold " + std::to_string(mesh.points.size()) + " nodes, the header says " +
                            std::to_string(n));
  }

  void elements_v4() {
    if (binary) in.skip_line();
    const std::int64_t blocks =
        size_value("$Elements", "numEntityBlocks", limits::kMaxTetMeshFileElements, binary ? 20 : 8);
    const std::int64_t n = size_value("$Elements", "numElements", limits::kMaxTetMeshFileElements, binary ? 16 : 4);
    (void)size_value("$Elements", "minElementTag", INT64_MAX, 0);
    (void)size_value("$Elements", "maxElementTag", INT64_MAX, 0);
    std::int64_t done = 0;
    long long node_tags[64];
    for (std::int64_t b = 0; b < blocks; ++b) {
      (void)int_value("$Elements", "entityDim");
      (void)int_value("$Elements", "entityTag");
      const long long type = int_value("$Elements", "elementType");
      const std::int64_t count =
          size_value("$Elements", "numElementsInBlock", n - done, binary ? 8 * std::max(1, gmsh_nodes(type) + 1) : 4);
      const int nodes = gmsh_nodes(type);
      if (nodes == 0 && (binary || type == kTet4)) {
        in.fail("$Elements", "element type " + std::to_string(type) + " is unknown");
      }
      const bool tet = type == kTet4 || type == kTet10;
      for (std::int64_t k = 0; k < count; ++k) {
        if (binary) {
          const long long id = static_cast<long long>(in.binary<std::uint64_t>("$Elements"));
          if (!tet) {
            in.skip_bytes(8u * static_cast<std::size_t>(nodes), "$Elements");
            continue;
          }
          for (int j = 0; j < nodes; ++j) node_tags[j] = static_cast<long long>(in.binary<std::uint64_t>("$Elements"));
          add_tet(id, type, node_tags, "$Elements");
        } else {
          const long long id = in.integer("$Elements", "element tag");
          if (!tet) {
            in.skip_line();
            continue;
          }
          for (int j = 0; j < nodes; ++j) node_tags[j] = in.integer("$Elements", "node tag");
          add_tet(id, type, node_tags, "$Elements");
        }
      }
      if (!tet) skipped[type] += count;
      done += count;
    }
    if (done != n)
      in.fail("$Elements", "the entity blocks hold " + std::to_string(done) + " elements, the header says " + std::to_string(n));
  }

  TetMesh read() {
    in.expect("$MeshFormat", "header");
    format_section();
    while (!in.at_end()) {
      const std::string_view section = in.token("section");
      if (section.empty() || section[0] != '$')
        in.fail("section", "expected a section ('$Name'), found '" + std::string(section.substr(0, 40)) + "'");
      const std::string name(section.substr(1));
      if (name == "Nodes") {
        if (have_nodes) in.fail("$Nodes", "a second $Nodes section");
        have_nodes = true;
        version == 2 ? nodes_v2() : nodes_v4();
        in.expect("$EndNodes", "$Nodes");
      } else if (name == "Elements") {
        if (!have_nodes) in.fail("$Elements", "comes before $Nodes");
        if (have_elements) in.fail("$Elements", "a second $Elements section");
        have_elements = true;
        elements_line = in.line();
        version == 2 ? elements_v2() : elements_v4();
        in.expect("$EndElements", "$Elements");
      } else {
        in.skip_past("$End" + name, section);
      }
    }
    if (!have_elements) in.fail("", "no $Elements section (truncated?)");
    if (mesh.tets.empty()) {
      std::string what = "no tetrahedra (element type 4) in the file";
      if (!skipped.empty()) {
        what += "; it has";
        for (const auto& [type, count] : skipped)
          what += " " + std::to_string(count) + " " + gmsh_type_name(type) + " (type " + std::to_string(type) + ")";
      }
      throw TetFileError{in.file() + ":" + std::to_string(elements_line) + ": $Elements: " + what};
    }
    if (report != nullptr && !skipped.empty()) {
      std::string what = in.file() + ": skipped elements of other types:";
      for (const auto& [type, count] : skipped) {
        what += " " + std::to_string(count) + " " + gmsh_type_name(type) + " (type " + std::to_string(type) + ")";
        report->skipped_elements += static_cast<int>(count);
      }
      report->notes.push_back(what);
    }
    source.file = in.file();
    io::finish_tet_mesh(mesh, source, report);
    mesh.source = in.file();
    return std::move(mesh);
  }
};

}  // namespace

Result<TetMesh> read_gmsh_msh(const std::string& path, TetMeshReadReport* report) {
  try {
    const std::string text = io::read_tet_mesh_file(path);
    TokenReader in(text, path);
    GmshReader reader(in, report);
    return reader.read();
  } catch (const TetFileError& e) {
    return Error{e.message};
  }
}

}  // namespace sim
