// VTK XML unstructured grid reader (.vtu), ASCII data arrays only: the first Piece's Points and
// Cells (connectivity, offsets, types); tets as in the legacy reader (io/tet_mesh_vtk_cells.hpp).
// Binary, appended or compressed arrays are refused with a message. Numbers inside a DataArray
// are located by the array's line plus the newlines before them.
#include <tinyxml2.h>

#include <cstring>

#include "io/tet_mesh_finish.hpp"
#include "io/tet_mesh_text.hpp"
#include "io/tet_mesh_vtk_cells.hpp"
#include "sim/load_limits.hpp"

namespace sim {

namespace {

using io::TetFileError;
using io::TokenReader;

std::string at(const std::string& path, const tinyxml2::XMLNode* node, const std::string& what) {
  return path + ":" + std::to_string(node->GetLineNum()) + ": " + what;
}

const tinyxml2::XMLElement* child(const std::string& path, const tinyxml2::XMLElement* parent, const char* name) {
  const tinyxml2::XMLElement* e = parent->FirstChildElement(name);
  if (e == nullptr) throw TetFileError{at(path, parent, "<" + std::string(parent->Name()) + ">: no <" + name + ">")};
  return e;
}

const tinyxml2::XMLElement* named_array(const std::string& path, const tinyxml2::XMLElement* cells, const char* name) {
  for (const auto* a = cells->FirstChildElement("DataArray"); a != nullptr; a = a->NextSiblingElement("DataArray"))
    if (const char* n = a->Attribute("Name"); n != nullptr && std::strcmp(n, name) == 0) return a;
  throw TetFileError{at(path, cells, "<Cells>: no DataArray Name=\"" + std::string(name) + "\"")};
}

// A reader over an ASCII DataArray's text; refuses other encodings.
TokenReader array_reader(const std::string& path, const tinyxml2::XMLElement* array) {
  const char* format = array->Attribute("format");
  if (format == nullptr || std::strcmp(format, "ascii") != 0)
    throw TetFileError{at(path, array, "<DataArray>: format '" + std::string(format ? format : "") +
                                           "' is not read (only format=\"ascii\" is; binary, appended and compressed "
                                           "arrays are not)")};
  const tinyxml2::XMLNode* text = array->FirstChild();
  const char* s = text != nullptr && text->ToText() != nullptr ? text->Value() : "";
  // tinyxml2 gives a text node the line of its first non-blank character; the text itself starts
  // with the newlines before it.
  int line = text != nullptr ? text->GetLineNum() : array->GetLineNum();
  for (const char* c = s; *c == ' ' || *c == '\t' || *c == '\r' || *c == '\n'; ++c) line -= *c == '\n';
  return TokenReader(s, path, 0, line);
}

std::int64_t count_attribute(const std::string& path, const tinyxml2::XMLElement* e, const char* name, std::int64_t max) {
  int64_t v = -1;
  if (e->QueryInt64Attribute(name, &v) != tinyxml2::XML_SUCCESS || v < 0 || v > max)
    throw TetFileError{at(path, e, "<" + std::string(e->Name()) + ">: attribute '" + name + "' must be an integer in 0.." +
                                       std::to_string(max))};
  return v;
}

}  // namespace

Result<TetMesh> read_vtu_tet_mesh(const std::string& path, TetMeshReadReport* report) {
  try {
    const std::string text = io::read_tet_mesh_file(path);
    tinyxml2::XMLDocument doc;
    if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS)
      throw TetFileError{path + ":" + std::to_string(doc.ErrorLineNum()) + ": XML syntax error: " + doc.ErrorStr()};
    const tinyxml2::XMLElement* root = doc.RootElement();
    if (root == nullptr || std::strcmp(root->Name(), "VTKFile") != 0)
      throw TetFileError{path + ":1: not a VTK XML file (no <VTKFile>)"};
    const char* type = root->Attribute("type");
    if (type == nullptr || std::strcmp(type, "UnstructuredGrid") != 0)
      throw TetFileError{at(path, root, "<VTKFile>: type '" + std::string(type ? type : "") +
                                            "' is not an unstructured grid (UnstructuredGrid)")};
    if (root->Attribute("compressor") != nullptr && root->FirstChildElement("AppendedData") != nullptr)
      throw TetFileError{at(path, root, "<VTKFile>: compressed appended data is not read (write ASCII arrays)")};
    const auto* piece = child(path, child(path, root, "UnstructuredGrid"), "Piece");
    // Each point takes at least 6 bytes ("0 0 0 "), each cell 4 (an offset, a type, a point).
    const std::int64_t n_points = count_attribute(path, piece, "NumberOfPoints",
                                                  std::min<std::int64_t>(limits::kMaxTetMeshNodes, text.size() / 6));
    const std::int64_t n_cells = count_attribute(path, piece, "NumberOfCells",
                                                 std::min<std::int64_t>(limits::kMaxTetMeshFileElements, text.size() / 4));
    TetMesh mesh;
    {
      const auto* array = child(path, child(path, piece, "Points"), "DataArray");
      int components = 3;
      array->QueryIntAttribute("NumberOfComponents", &components);
      if (components != 3) throw TetFileError{at(path, array, "<DataArray>: points with " + std::to_string(components) + " components (3 expected)")};
      TokenReader in = array_reader(path, array);
      mesh.points.reserve(static_cast<std::size_t>(n_points));
      for (std::int64_t i = 0; i < n_points; ++i) mesh.points.push_back(in.point("Points"));
      if (!in.at_end()) {
        (void)in.token("");
        in.fail("Points", "more values than NumberOfPoints=" + std::to_string(n_points) + " points");
      }
    }
    const auto* cells_element = child(path, piece, "Cells");
    io::VtkCells cells;
    cells.file = path;
    {
      TokenReader in = array_reader(path, named_array(path, cells_element, "offsets"));
      cells.offsets.reserve(static_cast<std::size_t>(n_cells) + 1);
      cells.offsets.push_back(0);
      for (std::int64_t c = 0; c < n_cells; ++c) {
        cells.offsets.push_back(in.integer_in("offsets", "offset", cells.offsets.back(), limits::kMaxTetMeshFileElements * 10));
        cells.lines.push_back(in.line());
      }
    }
    {
      TokenReader in = array_reader(path, named_array(path, cells_element, "connectivity"));
      const std::int64_t n = cells.offsets.back();
      if (static_cast<std::uint64_t>(n) > text.size() / 2)
        throw TetFileError{path + ": the offsets ask for " + std::to_string(n) + " connectivity entries, more than the file holds"};
      cells.connectivity.reserve(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i) cells.connectivity.push_back(in.integer_in("connectivity", "point", 0, n_points - 1));
    }
    {
      const auto* types = named_array(path, cells_element, "types");
      cells.types_line = types->GetLineNum();
      TokenReader in = array_reader(path, types);
      cells.types.reserve(static_cast<std::size_t>(n_cells));
      for (std::int64_t c = 0; c < n_cells; ++c) cells.types.push_back(static_cast<int>(in.integer_in("types", "cell type", 0, 255)));
    }
    io::TetSource source;
    io::assemble_vtk_tets(cells, mesh, source, report);
    io::finish_tet_mesh(mesh, source, report);
    if (report != nullptr) report->format = "VTK XML (.vtu) ASCII";
    mesh.source = path;
    return mesh;
  } catch (const TetFileError& e) {
    return Error{e.message};
  }
}

}  // namespace sim
