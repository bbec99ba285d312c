#include "collision/manifold.hpp"

#include <algorithm>
#include <limits>


namespace sim::detail {

void clip_polygon(const std::vector<ClipVertex>& in, const Vec3& n, Real d, std::uint32_t plane_id,
                  std::vector<ClipVertex>& out, Real slop) {
  out.clear();
  const std::size_t count = in.size();
  if (count == 0) return;
  Real db = n.dot(in[0].p) - d;
  for (std::size_t i = 0; i < count; ++i) {
    const ClipVertex& a = in[i];
    const ClipVertex& b = in[i + 1 < count ? i + 1 : 0];
    const Real da = db;
    db = n.dot(b.p) - d;
    const bool a_in = da <= slop, b_in = db <= slop;
    if (a_in) out.push_back(a);
    if (a_in != b_in) {
      const Real t = std::clamp(da / (da - db), Real(0), Real(1));
      // The new point is named by the edge it splits and the plane: a cheap multiplicative hash.
      const std::uint32_t id =
          0x80000000u | ((a.id * 0x9e3779b1u) ^ (b.id * 0x85ebca77u) ^ ((plane_id + 1) * 0xc2b2ae3du));
      out.push_back({a.p + t * (b.p - a.p), id});
    }
  }
}

void reduce_manifold(std::vector<RawContact>& contacts, std::size_t begin, int max_points,
                     std::vector<char>& keep) {
  const std::size_t end = contacts.size();
  const std::size_t count = end - begin;
  if (count <= static_cast<std::size_t>(max_points) || max_points <= 0) return;
  const Vec3 n = contacts[begin].normal;
  auto planar = [&](std::size_t i) {
    const Vec3& p = contacts[begin + i].point_second;
    return Vec3(p - n * n.dot(p));
  };
  keep.assign(count, 0);
  int kept = 0;
  auto take = [&](std::size_t i) {
    if (!keep[i]) keep[i] = 1, ++kept;
  };
  // Deepest point.
  std::size_t deepest = 0;
  for (std::size_t i = 1; i < count; ++i)
    if (contacts[begin + i].separation() < contacts[begin + deepest].separation()) deepest = i;
  take(deepest);
  // Farthest from it.
  const Vec3 p0 = planar(deepest);
  std::size_t far = deepest;
  Real far_d = -1;
  for (std::size_t i = 0; i < count; ++i) {
    const Real d = (planar(i) - p0).squaredNorm();
    if (d > far_d) far_d = d, far = i;
  }
  take(far);
  // Widest triangle on each side of the line deepest-far.
  const Vec3 axis = planar(far) - p0;
  std::size_t left = count, right = count;
  Real left_area = 0, right_area = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const Real area = n.dot(axis.cross(planar(i) - p0));
    if (area > left_area) left_area = area, left = i;
    if (area < right_area) right_area = area, right = i;
  }
  if (left < count && kept < max_points) take(left);
  if (right < count && kept < max_points) take(right);
  // Farthest-point sampling for the rest.
  while (kept < max_points) {
    std::size_t best = count;
    Real best_d = -1;
    for (std::size_t i = 0; i < count; ++i) {
      if (keep[i]) continue;
      Real nearest = std::numeric_limits<Real>::infinity();
      const Vec3 pi = planar(i);
      for (std::size_t j = 0; j < count; ++j)
        if (keep[j]) nearest = std::min(nearest, (planar(j) - pi).squaredNorm());
      if (nearest > best_d) best_d = nearest, best = i;
    }
    if (best == count) break;
    take(best);
  }
  std::size_t out = begin;
  for (std::size_t i = 0; i < count; ++i)
    if (keep[i]) contacts[out++] = contacts[begin + i];
  contacts.resize(out);
}

}  // namespace sim::detail
