# Generates assets/scenes/friction_texture.xml (a subdivided slab mesh with UVs) and its 16-bit
# Usage: python3 tools/make_friction_texture_scene.py assets/scenes
# PNG grain: the channel of friction_channel.xml painted into the texture (flow ∝ (1, −y/w)).
import math, struct, zlib, sys
out_dir = sys.argv[1]
L = 3.0
T = 0.2
N = 24       # quads per side on top
verts, tris, uvs = [], [], []
def uv_of(x, y): return ((x + L) / (2 * L), (y + L) / (2 * L))
def grid(z, flip):
    base = len(verts)
    for j in range(N + 1):
        for i in range(N + 1):
            verts.append((-L + 2 * L * i / N, -L + 2 * L * j / N, z))
    for j in range(N):
        for i in range(N):
            a = base + j * (N + 1) + i; b = a + 1; c = a + N + 1; d = c + 1
            for t in ((a, b, d), (a, d, c)):
                tris.append(t[::-1] if flip else t)
    return base
top = grid(0.0, False)
bot = grid(-T, True)
def idx(base, i, j): return base + j * (N + 1) + i
# sides: walk the boundary
ring = [(i, 0) for i in range(N)] + [(N, j) for j in range(N)] + [(i, N) for i in range(N, 0, -1)] + [(0, j) for j in range(N, 0, -1)]
for k in range(len(ring)):
    i0, j0 = ring[k]; i1, j1 = ring[(k + 1) % len(ring)]
    a, b = idx(top, i0, j0), idx(top, i1, j1)
    c, d = idx(bot, i0, j0), idx(bot, i1, j1)
    tris.append((a, c, d)); tris.append((a, d, b))
# check orientation of the first side triangle: outward normal should point away from centre
def sub(p, q): return (p[0]-q[0], p[1]-q[1], p[2]-q[2])
def cross(p, q): return (p[1]*q[2]-p[2]*q[1], p[2]*q[0]-p[0]*q[2], p[0]*q[1]-p[1]*q[0])
vol = 0
for (a, b, c) in tris:
    pa, pb, pc = verts[a], verts[b], verts[c]
    vol += sum(x * y for x, y in zip(pa, cross(pb, pc))) / 6
if vol < 0:
    tris = [(a, c, b) for (a, b, c) in tris]
    vol = -vol
assert abs(vol - 4 * L * L * T) < 1e-9, vol
for (a, b, c) in tris:
    for v in (a, b, c): uvs.append(uv_of(verts[v][0], verts[v][1]))
# texture: channel grain, w = 0.25 m; UV frame: u along x (4 m), v along y (4 m), so θ_uv = θ_world
W = 512; w = 0.25
rows = []
for r in range(W):            # file row 0 = v = 1 (top)
    jv = W - 1 - r
    row = bytearray([0])
    for i in range(W):
        x = -L + 2 * L * (i + 0.5) / W; y = -L + 2 * L * (jv + 0.5) / W
        fx, fy = 1.0, -y / w
        gx, gy = -fy, fx                  # grain = flow turned +90°
        th = math.atan2(gy, gx)
        c2, s2 = math.cos(2 * th), math.sin(2 * th)
        for v in ((c2 + 1) / 2, (s2 + 1) / 2, 1.0):
            q = int(round(v * 65535)); row += struct.pack('>H', q)
    rows.append(bytes(row))
def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', W, W, 16, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(b''.join(rows), 9)) + chunk(b'IEND', b'')
open(out_dir + '/friction_texture_grain.png', 'wb').write(png)
def fmt(x): 
    s = repr(float(x)); return s[:-2] if s.endswith('.0') else s
V = '  '.join(' '.join(fmt(c) for c in v) for v in verts)
F = '  '.join(' '.join(str(c) for c in t) for t in tris)
U = '  '.join(' '.join(fmt(c) for c in uv) for uv in uvs)
crates = ''
ys = [0.9, 0.55, 0.25, -0.25, -0.55, -0.9]
for k, (n, y) in enumerate(zip('abcdef', ys)):
    crates += f'  <body name="crate_{n}" pos="{fmt(-2.6 + 0.3 * (5 - k))} {y} 0.05" velocity="2.5 0 0" material="crate"><box size="0.1 0.1 0.1"/></body>\n'
xml = f'''<?xml version="1.0" encoding="UTF-8"?>
<!--
  Friction texture: friction_channel.xml with its channel grain painted into a texture
  (friction_texture_grain.png, 512 x 512, 16-bit, doubled-angle encoded) over the UVs of a
  subdivided slab mesh (6 x 6 x 0.2 m, {len(tris)} triangles, u along x, v along y). Six crates
  launched along +x at 2.5 m/s turn as on the same slab with the procedural channel: each contact
  finds its triangle and barycentrics on the slab, samples the texture at its UV and lifts the
  grain through the triangle's dP/du, dP/dv. (On this SDF-collided slab the crates turn less than
  on friction_channel's plane, with the procedural channel too.) Open it in the app to paint over
  it (Friction panel, Texture grain). Made by tools/make_friction_texture_scene.py.
-->
<scene name="friction_texture" dt="0.0083" gravity="0 0 -9.81">
  <material name="painted" friction="0.5" friction_major="1.0" friction_minor="0.02">
    <grain type="texture" texture="friction_texture_grain.png"/>
  </material>
  <material name="crate" friction="0.5"/>
  <world material="painted">
    <mesh vertices="{V}" triangles="{F}" uvs="{U}" sdf_voxel="0.03"/>
    <plane pos="0 0 -1" material="crate"/>
  </world>
{crates}</scene>
'''
open(out_dir + '/friction_texture.xml', 'w').write(xml)
print(len(verts), len(tris), vol)
