#include "collision/cloth_edges.hpp"

#include <algorithm>
#include <utility>

namespace sim::detail {

std::uint64_t cloth_edge_key(int a, int b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(std::min(a, b))) << 32) |
         static_cast<std::uint32_t>(std::max(a, b));
}

void build_cloth_edges(const std::vector<std::array<int, 3>>& triangles, std::vector<std::uint64_t>& keys,
                       std::vector<int>& owners) {
  std::vector<std::pair<std::uint64_t, int>> edges;
  edges.reserve(3 * triangles.size());
  for (std::size_t f = 0; f < triangles.size(); ++f)
    for (int k = 0; k < 3; ++k)
      edges.emplace_back(cloth_edge_key(triangles[f][k], triangles[f][(k + 1) % 3]), static_cast<int>(f));
  std::sort(edges.begin(), edges.end());  // by key, then by triangle: the first of a key is the lowest
  keys.clear();
  owners.clear();
  for (const auto& [key, f] : edges)
    if (keys.empty() || keys.back() != key) keys.push_back(key), owners.push_back(f);
}

int cloth_edge_owner(const std::vector<std::uint64_t>& keys, const std::vector<int>& owners, int a, int b) {
  const std::uint64_t key = cloth_edge_key(a, b);
  const auto it = std::lower_bound(keys.begin(), keys.end(), key);
  return it != keys.end() && *it == key ? owners[static_cast<std::size_t>(it - keys.begin())] : -1;
}

}  // namespace sim::detail
