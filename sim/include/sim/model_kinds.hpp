// The kinds the Model's arrays hold per shape and per joint: plain enumerations, kernel-safe (the
// per-row and per-shape kernels of sim/src/kernels/ read them through their views).
#pragma once

namespace sim {

enum class ShapeType { Plane, Sphere, Capsule, Box, ConvexMesh, Cylinder, Ellipsoid };
enum class JointType { Fixed, Revolute, Prismatic, Ball };
enum class DriveMode { None, Position, Velocity };
// FEM soft bodies (kernels/tet_material_kernel.hpp): the material of a tetrahedron and the
// compliance block its six strain rows carry (paper §9.1-9.2).
enum class SoftModel { Corotational, NeoHookean };
enum class SoftCompliance { Full, Diagonal };

}  // namespace sim
