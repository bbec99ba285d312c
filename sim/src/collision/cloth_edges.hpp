// The edges of a cloth's triangles (Model::particle_triangles), each owned by one triangle: a
// contact found on an edge shared by two faces is kept once, by its owner (particle_faces_sdf).
// Built once when the model is compiled.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace sim::detail {

// Key of the edge between particles a and b, either order: lower << 32 | higher.
std::uint64_t cloth_edge_key(int a, int b);

// Sorted unique edge keys and, aligned, the lowest-index triangle holding each edge.
void build_cloth_edges(const std::vector<std::array<int, 3>>& triangles, std::vector<std::uint64_t>& keys,
                       std::vector<int>& owners);

// The owner of edge (a, b) in a table from build_cloth_edges; -1 when no triangle has it.
int cloth_edge_owner(const std::vector<std::uint64_t>& keys, const std::vector<int>& owners, int a, int b);

}  // namespace sim::detail
