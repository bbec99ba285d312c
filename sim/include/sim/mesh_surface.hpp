// Surface coordinates of a triangle-mesh shape (issue 12): the UVs of its triangles' corners,
// each triangle's UV tangent frame dP/du, dP/dv (the push-forward that lifts a direction of the
// texture's UV plane onto the surface), and a bounding-volume hierarchy over the triangles for the
// closest triangle to a point. Built at compile time for mesh shapes with UVs
// (Model::shape_surface); contacts on a textured mesh find their triangle and barycentrics with it.
//
// Why a BVH query and not a triangle-id grid stored with the SDF: a contact is generated a few
// dozen times per pair and step, while a grid needs an id per voxel (a 64³ band is ~10⁵–10⁶ ids
// per mesh, and the baked-grid cache format would change); a grid also gives the triangle closest
// to the voxel centre, not to the contact point, which is wrong within a voxel of every edge and UV
// seam. The query is exact and O(log n), and only contacts whose field is a texture pay for it.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/math.hpp"

namespace sim {

// A point of a mesh surface: triangle (index into the shape's triangles) and barycentrics of its
// corners 1 and 2 (corner 0 has 1 − b1 − b2). triangle −1: none.
struct SurfacePoint {
  int triangle = -1;
  float b1 = 0, b2 = 0;
};

struct MeshSurface {
  std::vector<Vec3> vertices;                 // shape frame [m]
  std::vector<std::array<int, 3>> triangles;  // as ShapeSpec::triangles (ids match)
  std::vector<Vec2> corner_uvs;               // 3 per triangle
  // Per triangle: dP/du and dP/dv (shape frame) solving [e1 e2] = [dP/du dP/dv] [Δuv1 Δuv2], with
  // e_k = P_k − P_0 and Δuv_k = uv_k − uv_0; zero for a triangle whose UVs are degenerate (its
  // texture lookup then gives no grain) or whose area is zero (left out of the BVH).
  std::vector<Vec3> tangent_u, tangent_v;
  // BVH: nodes with boxes; a leaf holds triangles order[first .. first + count).
  struct Node {
    Vec3 lo, hi;
    int first = 0, count = 0;  // leaf when count > 0
    int left = -1, right = -1;
  };
  std::vector<Node> nodes;
  std::vector<int> order;

  // The closest surface point to p (shape frame); triangle −1 for a mesh without triangles.
  // No allocation (a fixed stack of 64 nodes; the tree is built with depth ≤ 48).
  SurfacePoint closest_point(const Vec3& p) const;
  // The first triangle a ray (shape frame, direction not necessarily unit) hits at parameter
  // t in [0, t_max]: its point, and t (negative when it misses). For the app's brush.
  SurfacePoint intersect_ray(const Vec3& origin, const Vec3& direction, Real t_max, Real& t) const;
  Vec2 uv(const SurfacePoint& s) const;        // interpolated UV
  Vec3 position(const SurfacePoint& s) const;  // shape frame
  // A direction of the UV plane (du, dv) lifted onto triangle t: du dP/du + dv dP/dv (shape frame).
  Vec3 lift(int triangle, const Vec2& uv_direction) const;
  // The inverse on the triangle's plane: the UV direction whose lift is the projection of w
  // (least squares; zero for a degenerate frame).
  Vec2 to_uv(int triangle, const Vec3& w) const;
};

// Builds the surface of a mesh with `corner_uvs` (3 per triangle). Triangles with an index out of
// range or zero area are kept in the arrays (ids match the spec) but not in the BVH.
MeshSurface make_mesh_surface(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles,
                              const std::vector<Vec2>& corner_uvs);

}  // namespace sim
