// The kinds the Model's arrays hold per shape and per joint: plain enumerations, kernel-safe (the
// per-row and per-shape kernels of sim/src/kernels/ read them through their views).
#pragma once

namespace sim {

enum class ShapeType { Plane, Sphere, Capsule, Box, ConvexMesh, Cylinder, Ellipsoid };
enum class JointType { Fixed, Revolute, Prismatic, Ball };
enum class DriveMode { None, Position, Velocity };

}  // namespace sim
