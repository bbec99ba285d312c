#!/usr/bin/env python3
"""Writes the tet-mesh test files (tests/unit/test_tet_mesh_io.cpp): one cube, side 2 at the
origin's corner (volume 8), cut into 6 tets around its diagonal (Kuhn), in every format the
readers take, and malformed variants. Run from this folder; the files are committed."""
import struct

S = 2.0
pts = [(S * (i & 1), S * ((i >> 1) & 1), S * ((i >> 2) & 1)) for i in range(8)]
# Kuhn: 0 -> e_a -> e_a + e_b -> 7 for each axis order; listed positively oriented.
def vol(t):
    a, b, c, d = (pts[i] for i in t)
    u = [b[k] - a[k] for k in range(3)]; v = [c[k] - a[k] for k in range(3)]; w = [d[k] - a[k] for k in range(3)]
    return (u[1]*v[2]-u[2]*v[1])*w[0] + (u[2]*v[0]-u[0]*v[2])*w[1] + (u[0]*v[1]-u[1]*v[0])*w[2]
tets = []
for t in [(0, 1, 3, 7), (0, 1, 5, 7), (0, 2, 3, 7), (0, 2, 6, 7), (0, 4, 5, 7), (0, 4, 6, 7)]:
    tets.append(t if vol(t) > 0 else (t[0], t[1], t[3], t[2]))
tags = [10 * (i + 1) for i in range(8)]  # sparse node tags: 10, 20, ..., 80
tris = [(0, 1, 3), (0, 3, 2)]            # two surface triangles (element type 2), skipped

def w(name, text, mode="w"):
    with open(name, mode) as f:
        f.write(text)

# ---- Gmsh 2.2 ASCII
def msh2(nodes=None, elements=None, count=None):
    nodes = nodes or "".join(f"{tags[i]} {p[0]:g} {p[1]:g} {p[2]:g}\n" for i, p in enumerate(pts))
    if elements is None:
        el = [f"{k + 1} 15 2 0 1 {tags[0]}\n" for k in range(1)]
        el += [f"{k + 2} 2 2 0 1 " + " ".join(str(tags[i]) for i in t) + "\n" for k, t in enumerate(tris)]
        el += [f"{k + 4} 4 2 0 1 " + " ".join(str(tags[i]) for i in t) + "\n" for k, t in enumerate(tets)]
        elements = el
    return ("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Comments\nskipped\n$EndComments\n"
            f"$Nodes\n{count or len(pts)}\n{nodes}$EndNodes\n$Elements\n{len(elements)}\n{''.join(elements)}$EndElements\n")
w("cube_v2.msh", msh2())

# ---- Gmsh 2.2 binary
b = b"$MeshFormat\n2.2 1 8\n" + struct.pack("<i", 1) + b"\n$EndMeshFormat\n$Nodes\n8\n"
for i, p in enumerate(pts):
    b += struct.pack("<i3d", tags[i], *p)
b += b"\n$EndNodes\n$Elements\n8\n"
b += struct.pack("<3i", 2, 2, 2) + b"".join(struct.pack("<3i3i", k + 2, 0, 1, *(tags[i] for i in t)) for k, t in enumerate(tris))
b += struct.pack("<3i", 4, 6, 2) + b"".join(struct.pack("<3i4i", k + 4, 0, 1, *(tags[i] for i in t)) for k, t in enumerate(tets))
b += b"\n$EndElements\n"
w("cube_v2_binary.msh", b, "wb")

# ---- Gmsh 4.1 ASCII: $Entities skipped, nodes in two blocks, a triangle block
def msh4(node_lines=None, tet_lines=None, header=None):
    first, second = [0, 1, 2, 3], [4, 5, 6, 7]
    nodes = f"2 8 10 80\n2 1 0 4\n" + "".join(f"{tags[i]}\n" for i in first) + "".join(
        f"{pts[i][0]:g} {pts[i][1]:g} {pts[i][2]:g}\n" for i in first)
    nodes += f"3 1 0 4\n" + "".join(f"{tags[i]}\n" for i in second) + "".join(
        f"{pts[i][0]:g} {pts[i][1]:g} {pts[i][2]:g}\n" for i in second)
    if node_lines is not None: nodes = node_lines
    els = tet_lines or "".join(f"{k + 3} " + " ".join(str(tags[i]) for i in t) + "\n" for k, t in enumerate(tets))
    return ("$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Entities\n0 0 1 1\n1 0 0 0 2 2 2 0 0\n1 0 0 0 2 2 2 0 0\n$EndEntities\n"
            f"$Nodes\n{nodes}$EndNodes\n$Elements\n"
            + (header or f"2 8 1 8\n2 1 2 2\n1 10 20 40\n2 10 40 30\n3 1 4 6\n") + els + "$EndElements\n")
w("cube_v41.msh", msh4())

# ---- Gmsh 4.1 binary
b = b"$MeshFormat\n4.1 1 8\n" + struct.pack("<i", 1) + b"\n$EndMeshFormat\n$Nodes\n"
b += struct.pack("<4Q", 1, 8, 10, 80) + struct.pack("<iiiQ", 3, 1, 0, 8)
b += b"".join(struct.pack("<Q", t) for t in tags) + b"".join(struct.pack("<3d", *p) for p in pts)
b += b"\n$EndNodes\n$Elements\n" + struct.pack("<4Q", 2, 8, 1, 8)
b += struct.pack("<iiiQ", 2, 1, 2, 2) + b"".join(struct.pack("<4Q", k + 1, *(tags[i] for i in t)) for k, t in enumerate(tris))
b += struct.pack("<iiiQ", 3, 1, 4, 6) + b"".join(struct.pack("<5Q", k + 3, *(tags[i] for i in t)) for k, t in enumerate(tets))
b += b"\n$EndElements\n"
w("cube_v41_binary.msh", b, "wb")

# ---- TetGen, 1-based, with an attribute and boundary markers, comments
w("cube.node", "# cube, side 2\n8 3 1 1\n" + "".join(f"{i + 1} {p[0]:g} {p[1]:g} {p[2]:g} 0.5 1  # node\n" for i, p in enumerate(pts)))
w("cube.ele", "6 4 1\n" + "".join(f"{k + 1} " + " ".join(str(i + 1) for i in t) + " 7\n" for k, t in enumerate(tets)))
# 0-based, one tet inverted (nodes listed in the other order): turned positive, and said
w("cube0.node", "8 3 0 0\n" + "".join(f"{i} {p[0]:g} {p[1]:g} {p[2]:g}\n" for i, p in enumerate(pts)))
inv = list(tets); inv[2] = (inv[2][0], inv[2][1], inv[2][3], inv[2][2])
w("cube0.ele", "6 4 0\n" + "".join(f"{k} " + " ".join(str(i) for i in t) + "\n" for k, t in enumerate(inv)))

# ---- VTK legacy ASCII (3.0), a triangle cell skipped, point data ignored
def vtk(points=None, cells=None, types=None, npts=None):
    points = points or "".join(f"{p[0]:g} {p[1]:g} {p[2]:g}\n" for p in pts)
    cl = cells or ["3 0 1 3\n"] + ["4 " + " ".join(map(str, t)) + "\n" for t in tets]
    ty = types or ["5\n"] + ["10\n"] * len(tets)
    size = sum(len(c.split()) for c in cl)
    return ("# vtk DataFile Version 3.0\ncube\nASCII\nDATASET UNSTRUCTURED_GRID\n"
            f"POINTS {npts or len(pts)} double\n{points}CELLS {len(cl)} {size}\n{''.join(cl)}CELL_TYPES {len(ty)}\n{''.join(ty)}"
            "POINT_DATA 8\nSCALARS t float 1\nLOOKUP_TABLE default\n0 1 2 3 4 5 6 7\n")
w("cube.vtk", vtk())
# VTK 5.1: OFFSETS and CONNECTIVITY
offs = [0]; conn = []
for t in tets:
    conn += list(t); offs.append(len(conn))
w("cube_v51.vtk", "# vtk DataFile Version 5.1\ncube\nASCII\nDATASET UNSTRUCTURED_GRID\n"
  f"POINTS 8 float\n" + "".join(f"{p[0]:g} {p[1]:g} {p[2]:g}\n" for p in pts) +
  f"METADATA\nINFORMATION 0\n\nCELLS {len(offs)} {len(conn)}\nOFFSETS vtktypeint64\n{' '.join(map(str, offs))}\n"
  f"CONNECTIVITY vtktypeint64\n{' '.join(map(str, conn))}\nCELL_TYPES 6\n" + "10\n" * 6)
# VTK XML
w("cube.vtu", '<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid" version="1.0" byte_order="LittleEndian">\n'
  '  <UnstructuredGrid>\n    <Piece NumberOfPoints="8" NumberOfCells="6">\n      <Points>\n'
  '        <DataArray type="Float64" NumberOfComponents="3" format="ascii">\n' +
  "".join(f"          {p[0]:g} {p[1]:g} {p[2]:g}\n" for p in pts) + "        </DataArray>\n      </Points>\n      <Cells>\n"
  '        <DataArray type="Int64" Name="connectivity" format="ascii">\n' +
  "".join("          " + " ".join(map(str, t)) + "\n" for t in tets) + "        </DataArray>\n"
  '        <DataArray type="Int64" Name="offsets" format="ascii">\n          ' + " ".join(map(str, offs[1:])) + "\n        </DataArray>\n"
  '        <DataArray type="UInt8" Name="types" format="ascii">\n          ' + " ".join(["10"] * 6) + "\n        </DataArray>\n"
  "      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n")

# ---- malformed (bad_*): each must fail naming file:line
good = msh2()
w("bad_truncated.msh", good[: good.index("$Elements") + 40])
w("bad_truncated_tail.msh", good[: good.index("$EndElements") - 6])  # the last element's last node cut
w("bad_index.msh", good.replace(f"9 4 2 0 1 {tags[0]}", "9 4 2 0 1 990"))
w("bad_nan.msh", good.replace("60 2 0 2", "60 2 nan 2"))
w("bad_huge_count.msh", good.replace("$Nodes\n8\n", "$Nodes\n1000000000000\n"))
w("bad_triangles_only.msh", msh2(elements=[f"{k + 1} 2 2 0 1 " + " ".join(str(tags[i]) for i in t) + "\n" for k, t in enumerate(tris)]))
w("bad_degenerate.msh", msh2(nodes="".join(f"{tags[i]} {p[0]:g} {p[1]:g} {0 if i in (4, 5, 6, 7) else p[2]:g}\n" for i, p in enumerate(pts))))
w("bad_v4_block_count.msh", msh4(header="1 6 1 6\n3 1 4 7\n"))
w("bad_index.ele", "6 4 0\n" + "".join(f"{k + 1} " + " ".join(str(i + 1 if k != 3 else 9) for i in t) + "\n" for k, t in enumerate(tets)))
w("bad_index.node", open("cube.node").read())
w("bad_nan.node", "8 3 0 0\n" + "".join(f"{i + 1} {p[0]:g} {'inf' if i == 5 else p[1]:} {p[2]:g}\n" for i, p in enumerate(pts)))
w("bad_nan.ele", open("cube.ele").read())
w("bad_truncated.vtk", vtk()[: vtk().index("CELLS") + 30])
w("bad_huge_count.vtk", vtk().replace("POINTS 8 double", "POINTS 99999999 double"))
w("bad_index.vtk", vtk(cells=["3 0 1 3\n"] + ["4 " + " ".join(map(str, t if k != 2 else (0, 1, 2, 8))) + "\n" for k, t in enumerate(tets)]))
w("bad_triangles_only.vtk", vtk(cells=["3 0 1 3\n", "3 0 3 2\n"], types=["5\n", "5\n"]))

# ---- closed surfaces for `coulomb tetmesh` (tests/CMakeLists.txt): the cube's boundary (outward
# counter-clockwise), and the same with one triangle missing (open: refused)
quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
faces = [t for q in quads for t in ((q[0], q[1], q[2]), (q[0], q[2], q[3]))]
obj = "".join(f"v {p[0]:g} {p[1]:g} {p[2]:g}\n" for p in pts)
w("cube_surface.obj", "# cube, side 2, closed\n" + obj + "".join(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in faces))
w("open_surface.obj", "# the cube without one triangle\n" + obj + "".join(f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in faces[:-1]))

# binary and XML malformed variants
binary = open("cube_v41_binary.msh", "rb").read()
w("bad_truncated_binary.msh", binary[: binary.index(b"\n$EndElements") - 10], "wb")  # the last tet cut
w("bad_index.vtu", open("cube.vtu").read().replace("          0 4 7 6\n", "          0 4 7 9\n"))
w("bad_binary_array.vtu", open("cube.vtu").read().replace('Name="types" format="ascii"', 'Name="types" format="binary"'))
b = bytearray(open("cube_v2_binary.msh", "rb").read())
at = b.index(b"$Nodes\n8\n") + 9 + 4  # the first node's x, after its tag
b[at:at + 8] = struct.pack("<d", float("nan"))
w("bad_nan_binary.msh", bytes(b), "wb")
# 10-node tets (TetGen -o2): the 4 corners are used, the 6 edge nodes (here any nodes) dropped
w("cube10.node", open("cube.node").read())
w("cube10.ele", "6 10 0\n" + "".join(f"{k + 1} " + " ".join(str(i + 1) for i in t) + " 1 2 3 4 5 6\n" for k, t in enumerate(tets)))
