#!/usr/bin/env python3
"""Writes the gripper arm's meshes (run from anywhere; output next to this script's ../meshes).

palm.stl: the U-shaped palm bracket (non-convex, closed, outward-facing triangles), built from
boxes on a rectilinear grid so that neighbouring faces share their vertices exactly. Its convex
hull is about 1.8 times its volume, so the importer decomposes it into convex parts.
"""
import os

# Grid lines [m] and the filled cells (ix, iy, iz): a U in the y-z plane, extruded along x.
XS = [-0.02, 0.02]
YS = [-0.05, -0.04, 0.04, 0.05]
ZS = [0.0, 0.015, 0.04]
CELLS = {(0, 0, 0), (0, 1, 0), (0, 2, 0), (0, 0, 1), (0, 2, 1)}


def faces():
    grid = (XS, YS, ZS)
    for cell in sorted(CELLS):
        for axis in range(3):
            for side in (0, 1):
                neighbour = list(cell)
                neighbour[axis] += 1 if side else -1
                if tuple(neighbour) in CELLS:
                    continue
                # The face's four corners, counter-clockwise seen from outside.
                u, v = (axis + 1) % 3, (axis + 2) % 3
                fixed = grid[axis][cell[axis] + side]
                lo_u, hi_u = grid[u][cell[u]], grid[u][cell[u] + 1]
                lo_v, hi_v = grid[v][cell[v]], grid[v][cell[v] + 1]
                corners = [(lo_u, lo_v), (hi_u, lo_v), (hi_u, hi_v), (lo_u, hi_v)]
                if not side:
                    corners.reverse()
                points = []
                for cu, cv in corners:
                    p = [0.0, 0.0, 0.0]
                    p[axis], p[u], p[v] = fixed, cu, cv
                    points.append(tuple(p))
                normal = [0.0, 0.0, 0.0]
                normal[axis] = 1.0 if side else -1.0
                yield tuple(normal), (points[0], points[1], points[2])
                yield tuple(normal), (points[0], points[2], points[3])


def write_stl(path):
    with open(path, "w") as out:
        out.write("solid palm\n")
        for n, tri in faces():
            out.write("  facet normal %g %g %g\n    outer loop\n" % n)
            for p in tri:
                out.write("      vertex %g %g %g\n" % p)
            out.write("    endloop\n  endfacet\n")
        out.write("endsolid palm\n")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    write_stl(os.path.join(here, "..", "meshes", "palm.stl"))
