#!/usr/bin/env python3
"""The replay page of `mcdyn view` / `mcdyn sim --html` in a real browser.

usage: check_viewer.py MCDYN_EXE SOURCE_ROOT CHROMIUM

Opens the page in Debian's headless Chromium (SwiftShader WebGL, no GPU)
and checks:
  - 2 s of the pendulum: no console message at all (the page logs nothing
    when it works, so any message is an error or a warning), the page ran to
    its first frame (data-ready) with no caught error, the number of bodies
    drawn equals the model's (read from the log by h5py, independently of
    the page), #t=1.5 opens the page paused at the frame of 1.5 s (within
    one frame at 60 fps), the canvas is not blank and the screenshots at
    #t=0 and #t=1.5 differ;
  - a body and a title named "</script><img ... onerror=...>": the page
    holds exactly the script elements mcdyn writes, the injected handler
    never runs, the page still works;
  - a mesh geom: the log stores the mesh file's vertices, scaled, and the
    page draws the body;
  - visual geometry: a URDF's <visual> box and mesh (a committed OBJ) reach
    the log (/model/visual_*, the mesh's vertices scaled) and the page draws
    both;
  - a non-convex visual mesh (models/l_block.yaml): the log holds the
    OBJ's own triangles, the page draws as many, and its screenshot shows
    the notch of the L where the convex hull would fill it;
  - the box tower: the page draws every contact of the frame shown (the
    log's count at that step, far more than the CSV's 8 slots);
  - bad input: a foreign HDF5 file, a corrupt one, a run over the size
    bound, a triangle naming a vertex its mesh does not have: exit 1, a
    message, no page.
"""
import atexit
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

import h5py
import numpy as np

EXE, SRC, CHROMIUM = sys.argv[1:4]
TMP = tempfile.mkdtemp(prefix="mcdyn-viewer-")
atexit.register(shutil.rmtree, TMP, ignore_errors=True)
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)
    return ok


# One BLAS thread: on a loaded machine OpenBLAS's spinning threads make the
# box tower's steps hundreds of times slower.
ENV = dict(os.environ, OPENBLAS_NUM_THREADS="1")


def run(args, ok=True):
    p = subprocess.run(args, cwd=TMP, capture_output=True, text=True, timeout=600, env=ENV)
    if ok and p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(args)}: {p.stderr}{p.stdout}")
    return p


def chromium(url, *mode):
    """Runs headless Chromium on url; returns (stdout, console lines)."""
    profile = tempfile.mkdtemp(dir=TMP)
    p = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--use-angle=swiftshader",
                        "--enable-unsafe-swiftshader", "--window-size=800,600",
                        "--virtual-time-budget=8000", "--enable-logging=stderr", "--v=0",
                        f"--user-data-dir={profile}", *mode, url],
                       cwd=TMP, capture_output=True, text=True, timeout=600)
    console = [l for l in p.stderr.splitlines() if ":CONSOLE" in l]
    return p.stdout, console


def body_attributes(dom):
    m = re.search(r"<body([^>]*)>", dom)
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', m.group(1))) if m else {}


def png_pixels(path):
    """The RGB(A) pixels of an 8-bit non-interlaced PNG as a numpy array."""
    data = open(path, "rb").read()
    pos, idat, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "8-bit RGB or RGBA expected"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 4 if ctype == 6 else 3
    raw, stride = zlib.decompress(idat), width * bpp
    out = bytearray(height * stride)
    prev = bytearray(stride)
    for y in range(height):
        f, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = row[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                row[i] = (row[i] + a) & 255
            elif f == 2:
                row[i] = (row[i] + b) & 255
            elif f == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[y * stride:(y + 1) * stride] = row
        prev = row
    return np.frombuffer(bytes(out), np.uint8).reshape(height, width, bpp)[:, :, :3]


def pendulum():
    h5, page = os.path.join(TMP, "run.h5"), os.path.join(TMP, "run.html")
    sim_page = os.path.join(TMP, "sim.html")
    run([EXE, "sim", os.path.join(SRC, "models/pendulum12.yaml"), "--duration", "2",
         "--h5", h5, "--html", sim_page, "--quiet"])
    run([EXE, "view", h5, "--html", page])
    check(os.path.getsize(sim_page) > 0, "sim --html wrote its page")
    with h5py.File(h5, "r") as f:
        nbody = len(f["model/body_name"])
    url = "file://" + page
    dom, console = chromium(url + "#t=1.5", "--dump-dom")
    attrs = body_attributes(dom)
    check(console == [], f"no console message ({console[:3]})")
    check(attrs.get("ready") == "1" and attrs.get("errors") == "0",
          f"the page drew its first frame without error ({attrs})")
    check(attrs.get("bodies") == str(nbody) and attrs.get("model-bodies") == str(nbody),
          f"bodies drawn {attrs.get('bodies')} = bodies of the log {nbody}")
    # 60 frames per second: the frame shown is the last at or before 1.5 s.
    check(abs(float(attrs.get("time", "nan")) - 1.5) <= 1 / 60 + 1e-6,
          f"#t=1.5 shows t = {attrs.get('time')}")
    shots = []
    for t in ("0", "1.5"):
        png = os.path.join(TMP, f"t{t}.png")
        _, console = chromium(f"{url}#t={t}", f"--screenshot={png}")
        check(console == [] and os.path.isfile(png), f"screenshot at #t={t} without console message")
        shots.append(png_pixels(png))
    for t, px in zip(("0", "1.5"), shots):
        # Not blank: the most common colour (the background) covers less
        # than 99 % of the canvas.
        colors, counts = np.unique(px.reshape(-1, 3), axis=0, return_counts=True)
        check(counts.max() < 0.99 * counts.sum(), f"#t={t}: the canvas is not blank")
    changed = np.any(shots[0] != shots[1], axis=2).mean()
    check(changed > 0.002, f"#t=0 and #t=1.5 differ ({100 * changed:.2f} % of the pixels)")


HOSTILE = '</script><img src=x onerror="document.body.dataset.pwned=1">'
URDF = """<robot name="r"><link name="{name}"><inertial><mass value="1"/>
<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
<collision><geometry>{geometry}</geometry></collision></link></robot>"""
SCENARIO = """name: {name}
robots: [{{urdf: r.urdf, base: floating, position: [0, 0, 0.3]}}]
environment: [{{name: ground, type: plane}}]
duration: 0.3
output: {{html: scenario.html}}
"""


def xml(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def one_body(name, geometry):
    with open(os.path.join(TMP, "r.urdf"), "w") as f:
        f.write(URDF.format(name=xml(name), geometry=geometry))
    with open(os.path.join(TMP, "s.yaml"), "w") as f:
        f.write(SCENARIO.format(name="'" + name.replace("'", "''") + "'"))
    h5 = os.path.join(TMP, "one.h5")
    run([EXE, "sim", "s.yaml", "--h5", h5, "--quiet"])
    return h5


def hostile_names():
    h5 = one_body(HOSTILE, '<box size="0.1 0.1 0.1"/>')
    page = os.path.join(TMP, "hostile.html")
    run([EXE, "view", h5, "--html", page, "--title", HOSTILE])
    for path in (page, os.path.join(TMP, "scenario.html")):  # view --title; the scenario's name
        text = open(path, encoding="utf-8").read()
        # mcdyn writes 6 three.js scripts, the data and the viewer.
        check(len(re.findall(r"</script", text, re.I)) == 8,
              f"{os.path.basename(path)}: no name closes a script element")
    dom, console = chromium("file://" + page, "--dump-dom")
    attrs = body_attributes(dom)
    check("pwned" not in attrs and console == [], "the injected handler never ran")
    check(attrs.get("ready") == "1" and attrs.get("bodies") == "1", f"the page works ({attrs})")


def mesh_geom():
    cube = os.path.join(SRC, "tests/collision/data/cube.obj")
    h5 = one_body("meshed", f'<mesh filename="{cube}" scale="0.1 0.2 0.3"/>')
    obj = np.array([[float(x) for x in l.split()[1:4]] for l in open(cube) if l.startswith("v ")])
    with h5py.File(h5, "r") as f:
        rng, verts = f["model/geom_mesh_vertex"][...], f["model/mesh_vertex"][...]
        mesh = [k for k in range(len(rng)) if f["model/geom_type"][k] == 5]
    check(len(mesh) == 1 and rng[mesh[0]][1] >= len(obj), "the log holds the mesh's vertices")
    first, count = rng[mesh[0]]
    # Assimp repeats a vertex per face corner: the same set of points.
    stored = np.unique(np.round(verts[first:first + count], 12), axis=0)
    expected = np.unique(np.round(obj * [0.1, 0.2, 0.3], 12), axis=0)
    check(stored.shape == expected.shape and np.allclose(stored, expected, atol=1e-12),
          "mesh vertices scaled as in the URDF")
    page = os.path.join(TMP, "mesh.html")
    run([EXE, "view", h5, "--html", page])
    dom, console = chromium("file://" + page, "--dump-dom")
    attrs = body_attributes(dom)
    check(attrs.get("ready") == "1" and attrs.get("errors") == "0" and console == [],
          f"the mesh page works ({attrs}, {console[:2]})")


VISUAL_URDF = """<robot name="v"><link name="body"><inertial><mass value="1"/>
<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
<visual><origin xyz="0 0 0.05"/><geometry><box size="0.1 0.2 0.3"/></geometry></visual>
<visual><geometry><mesh filename="{mesh}" scale="0.1 0.1 0.1"/></geometry></visual>
<collision><geometry><sphere radius="0.1"/></geometry></collision></link></robot>"""


def visual_geometry():
    mesh = os.path.join(SRC, "tests/io/data/tetra.obj")
    with open(os.path.join(TMP, "v.urdf"), "w") as f:
        f.write(VISUAL_URDF.format(mesh=mesh))
    with open(os.path.join(TMP, "v.yaml"), "w") as f:
        f.write(SCENARIO.format(name="visual").replace("r.urdf", "v.urdf"))
    h5, page = os.path.join(TMP, "visual.h5"), os.path.join(TMP, "visual.html")
    run([EXE, "sim", "v.yaml", "--h5", h5, "--quiet"])
    obj = np.array([[float(x) for x in l.split()[1:4]] for l in open(mesh) if l.startswith("v ")])
    with h5py.File(h5, "r") as f:
        m = f["model"]
        types, rng = list(m["visual_type"][:]), m["visual_mesh_vertex"][...]
        verts = m["mesh_vertex"][rng[1][0]:rng[1][0] + rng[1][1]]
        box = m["visual_size"][0]
    check(types == [1, 5] and np.allclose(box, [0.05, 0.1, 0.15], atol=1e-15),
          f"the log holds the visual box and mesh ({types}, {box})")
    stored = np.unique(np.round(verts, 12), axis=0)
    check(stored.shape == obj.shape and np.allclose(stored, np.unique(obj * 0.1, axis=0), atol=1e-12),
          "the visual mesh's vertices, scaled")
    run([EXE, "view", h5, "--html", page])
    dom, console = chromium("file://" + page, "--dump-dom")
    attrs = body_attributes(dom)
    check(console == [] and attrs.get("errors") == "0" and attrs.get("visuals") == "2"
          and attrs.get("bodies") == "1", f"the page draws the two visual shapes ({attrs})")


def obj_triangles(path):
    """The triangles of an OBJ file of triangles, each as its three corners
    (a 3 x 3 array), rotated to start at the smallest corner: the winding
    is kept, the vertex numbering forgotten."""
    v = [[float(x) for x in l.split()[1:4]] for l in open(path) if l.startswith("v ")]
    faces = [[int(x) - 1 for x in l.split()[1:4]] for l in open(path) if l.startswith("f ")]
    return canonical(np.array(v), np.array(faces))


def canonical(v, tri):
    out = []
    for t in tri:
        corners = [tuple(v[i]) for i in t]
        k = corners.index(min(corners))
        out.append(corners[k:] + corners[:k])
    return sorted(out)


def l_block():
    """The L-shaped plate (models/l_block.yaml): its visual mesh is
    non-convex. The log holds the OBJ's own triangles, the page draws them
    all, and the screenshot shows the notch: a point inside the notch but
    inside the convex hull of the L's vertices is not drawn in the L's
    colour, where a hull would cover it."""
    obj = os.path.join(SRC, "models/meshes/l_block.obj")
    h5, page = os.path.join(TMP, "l_block.h5"), os.path.join(TMP, "l_block.html")
    run([EXE, "sim", os.path.join(SRC, "models/l_block.yaml"), "--h5", h5, "--quiet"])
    run([EXE, "view", h5, "--html", page])
    with h5py.File(h5, "r") as f:
        m = f["model"]
        vrange, trange = m["visual_mesh_vertex"][0], m["visual_mesh_triangle"][0]
        verts = m["mesh_vertex"][vrange[0]:vrange[0] + vrange[1]]
        tris = m["mesh_triangle"][trange[0]:trange[0] + trange[1]]
        t, pose = f["steps/t"][:], f["steps/body_pose"][:, 0, :]
    expected = obj_triangles(obj)
    check(len(tris) == 20 and canonical(verts, tris) == expected,
          f"the log holds the OBJ's 20 triangles, wound as in the file ({len(tris)})")
    png = os.path.join(TMP, "l_block.png")
    dom, console = chromium("file://" + page + "#t=1.5", "--dump-dom")
    attrs = body_attributes(dom)
    check(console == [] and attrs.get("errors") == "0" and attrs.get("visuals") == "1",
          f"the L page works ({attrs.get('errors')}, {console[:2]})")
    check(attrs.get("visual-triangles") == str(len(tris)),
          f"the page draws the mesh's {len(tris)} triangles ({attrs.get('visual-triangles')})")
    _, console = chromium("file://" + page + "#t=1.5", f"--screenshot={png}")
    px = png_pixels(png)
    # The body's pose at the frame shown (the last at or before 1.5 s).
    shown = np.nonzero(np.abs(t - float(attrs.get("time", "nan"))) < 1e-6)[0]
    if not check(len(shown) == 1, f"the page shows a logged step ({attrs.get('time')})"):
        return
    row = shown[0]
    p, (qw, qx, qy, qz) = pose[row, :3], pose[row, 3:]
    R = np.array([[1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qw * qz), 2 * (qx * qz + qw * qy)],
                  [2 * (qx * qy + qw * qz), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qw * qx)],
                  [2 * (qx * qz - qw * qy), 2 * (qy * qz + qw * qx), 1 - 2 * (qx * qx + qy * qy)]])
    # The page's camera: world to clip coordinates. Chromium lays the page
    # out in a shorter viewport for --dump-dom than for --screenshot; the
    # canvas fills the window either way, so the screenshot's canvas is the
    # whole picture, and its aspect enters the perspective projection only
    # through the first row (x scaled by 1 / aspect).
    clip = np.array([float(x) for x in attrs["camera"].split(",")]).reshape(4, 4).T
    _, _, dom_width, dom_height = (float(x) for x in attrs["canvas"].split(","))
    height, width = px.shape[:2]
    clip[0] *= (dom_width / dom_height) / (width / height)

    def pixel(body_point):
        x = clip @ np.append(p + R @ body_point, 1.0)
        u, v = x[0] / x[3], x[1] / x[3]
        col, row = (u + 1) / 2 * width, (1 - v) / 2 * height
        return px[int(round(row)), int(round(col))].astype(int)

    # In the body frame the notch is x, y in [0, 0.25]; the hull of the
    # vertices covers its part x + y <= 0.25, so (0.075, 0.1) at
    # mid-thickness is in the hull, not in the L. Seen from the page's
    # camera (21.8 degrees above the horizon, from +x -y) the line of sight
    # to it crosses the plane of the top face at (0.122, 0.0375), still in
    # the notch: nothing of the L hides it. (-0.125, 0.125, 0.03125) is the
    # middle of the arm's top face, drawn in the L's colour.
    notch = pixel(np.array([0.075, 0.1, 0.0]))
    arm = pixel(np.array([-0.125, 0.125, 0.03125]))
    check(arm[2] > arm[0] + 30, f"the arm of the L is drawn in its blue ({arm})")
    check(np.abs(notch - arm).sum() > 90,
          f"the notch shows what is behind it, not the L ({notch} vs the arm's {arm})")


def box_tower():
    h5, page = os.path.join(TMP, "tower.h5"), os.path.join(TMP, "tower.html")
    # the boxes settle onto each other within 0.1 s (26 to 28 contacts)
    run([EXE, "sim", os.path.join(SRC, "models/box_tower.yaml"), "--duration", "0.15",
         "--h5", h5, "--quiet"])
    run([EXE, "view", h5, "--html", page])
    dom, console = chromium("file://" + page + "#t=0.12", "--dump-dom")
    attrs = body_attributes(dom)
    with h5py.File(h5, "r") as f:
        t, nc = f["steps/t"][:], f["steps/ncontacts"][:]
    shown = np.nonzero(np.abs(t - float(attrs.get("time", "nan"))) < 1e-6)[0]
    expected = int(nc[shown[0]]) if len(shown) else -1
    check(console == [] and attrs.get("errors") == "0", f"the tower page works ({console[:2]})")
    check(expected > 8 and attrs.get("contacts") == str(expected),
          f"tower: contacts drawn {attrs.get('contacts')} = the step's {expected} (> 8 slots)")


def bad_input():
    foreign = os.path.join(TMP, "foreign.h5")
    with h5py.File(foreign, "w") as f:
        f["x"] = np.zeros(3)
    corrupt = os.path.join(TMP, "corrupt.h5")
    with open(os.path.join(TMP, "run.h5"), "rb") as f:
        open(corrupt, "wb").write(f.read(4096))
    # the L's log with a triangle naming a vertex past its mesh's 12
    bad_triangle = os.path.join(TMP, "bad_triangle.h5")
    shutil.copy(os.path.join(TMP, "l_block.h5"), bad_triangle)
    with h5py.File(bad_triangle, "r+") as f:
        f["model/mesh_triangle"][3, 1] = 12
    cases = [([foreign], "not an mcdyn log"), ([corrupt], "HDF5"),
             ([os.path.join(TMP, "run.h5"), "--max-mb", "0.5"], "more than the bound"),
             ([bad_triangle], "names vertex 12 of 12")]
    for args, message in cases:
        page = os.path.join(TMP, "bad.html")
        p = run([EXE, "view", *args, "--html", page], ok=False)
        check(p.returncode == 1 and message in p.stderr and not os.path.exists(page),
              f"view {os.path.basename(args[0])} {args[1:]}: exit 1, '{message}', no page")
    leftovers = [n for n in os.listdir(TMP) if n.startswith(".bad.html")]
    check(leftovers == [], "no temporary page left behind")


pendulum()
hostile_names()
mesh_geom()
visual_geometry()
l_block()
box_tower()
bad_input()
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
