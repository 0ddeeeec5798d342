// mcdyn replay page (docs/outputs.md, "The replay page"): three.js and the run
// are inlined in the page by `mcdyn view`; nothing is fetched. The page
// states its condition on <body> for tests and scripts: data-ready="1" once
// the first frame is drawn, data-bodies = bodies drawn, data-model-bodies =
// bodies of the model, data-visuals = visual shapes drawn,
// data-visual-triangles = triangles of the visual meshes drawn as
// themselves, data-canvas and data-camera = where the camera looks (at the
// end), data-frame, data-time, data-contacts = contacts drawn in the frame,
// data-errors = errors caught.
const errors = [];
function reportError(text) {
  errors.push(text);
  document.body.dataset.errors = String(errors.length);
  document.getElementById('message').textContent = errors.join('\n');
}
window.addEventListener('error', (e) => reportError(String(e.message)));
window.addEventListener('unhandledrejection', (e) => reportError(String(e.reason)));

// Each three.js file is an ES module held as text in a <script type="text/plain">;
// its imports are pointed at the blob URLs of the modules already made.
function moduleUrl(id, imports) {
  let text = document.getElementById(id).textContent;
  for (const [from, to] of imports) text = text.split(from).join(`'${to}'`);
  return URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
}
const coreUrl = moduleUrl('three.core.js', []);
const threeUrl = moduleUrl('three.module.js', [["'./three.core.js'", coreUrl]]);
const hullUrl = moduleUrl('ConvexHull.js', [["'three'", threeUrl]]);
const orbitUrl = moduleUrl('OrbitControls.js', [["'three'", threeUrl]]);
const convexUrl = moduleUrl('ConvexGeometry.js', [["'three'", threeUrl], ["'../math/ConvexHull.js'", hullUrl]]);
const THREE = await import(threeUrl);
const { OrbitControls } = await import(orbitUrl);
const { ConvexGeometry } = await import(convexUrl);

const run = JSON.parse(document.getElementById('mcdyn-data').textContent);

function bytes(b64) {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
}
const floats = (b64) => new Float32Array(bytes(b64));
const t = floats(run.t);
const pose = floats(run.pose); // nframe x nbody x 7: x y z qw qx qy qz
const ncontacts = new Int32Array(bytes(run.ncontacts));
// Every contact of every frame, frame after frame: 3 numbers each.
const cpoint = floats(run.contact_point); // world point
const cnormal = floats(run.contact_normal); // unit normal from B to A
const cforce = floats(run.contact_force); // the force on A, world [N]
const nbody = run.bodies.length;
const nframe = t.length;
const cfirst = new Int32Array(nframe + 1); // frame f's contacts: cfirst[f] .. cfirst[f + 1] - 1
for (let f = 0; f < nframe; f++) cfirst[f + 1] = cfirst[f] + ncontacts[f];
if (cfirst[nframe] * 3 !== cforce.length) throw new Error('contact arrays do not match the counts');

const GEOM = { SPHERE: 0, BOX: 1, CYLINDER: 2, CAPSULE: 3, PLANE: 4, MESH: 5 };
const palette = [0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f];

const scene = new THREE.Scene();
scene.background = new THREE.Color(0xdfe4ea);
scene.add(new THREE.HemisphereLight(0xffffff, 0x8090a0, 2.0));
const sun = new THREE.DirectionalLight(0xffffff, 1.5);
sun.position.set(3, -4, 6);
scene.add(sun);

// A three.js geometry of a geom in its own frame (z up as in mcdyn).
function geometryOf(g) {
  const [a, b, c] = g.size;
  switch (g.type) {
    case GEOM.SPHERE: return new THREE.SphereGeometry(a, 24, 16);
    case GEOM.BOX: return new THREE.BoxGeometry(2 * a, 2 * b, 2 * c);
    case GEOM.CYLINDER: return new THREE.CylinderGeometry(a, a, 2 * b, 24).rotateX(Math.PI / 2);
    case GEOM.CAPSULE: return new THREE.CapsuleGeometry(a, 2 * b, 8, 16).rotateX(Math.PI / 2);
    case GEOM.PLANE: return new THREE.PlaneGeometry(20, 20);
    case GEOM.MESH: {
      // A visual mesh with triangles is drawn as itself; a collision mesh
      // (and a log without triangles) as the convex hull of its vertices,
      // which is what collision uses.
      const v = g.mesh ? floats(g.mesh) : new Float32Array(0);
      if (g.triangles && v.length > 0) {
        const geometry = new THREE.BufferGeometry();
        geometry.setAttribute('position', new THREE.BufferAttribute(v, 3));
        geometry.setIndex(new THREE.BufferAttribute(new Uint32Array(bytes(g.triangles)), 1));
        geometry.computeVertexNormals();
        return geometry;
      }
      const points = [];
      for (let i = 0; i + 2 < v.length; i += 3) points.push(new THREE.Vector3(v[i], v[i + 1], v[i + 2]));
      return points.length >= 4 ? new ConvexGeometry(points) : null;
    }
    default: return null;
  }
}

function materialOf(g) {
  if (g.type === GEOM.PLANE) return new THREE.MeshStandardMaterial({ color: 0xb8bcc2, side: THREE.DoubleSide });
  const color = g.body < 0 ? 0x8a8f96 : palette[g.body % palette.length];
  // A triangle mesh from a file may be wound either way: both sides drawn.
  const side = g.triangles ? THREE.DoubleSide : THREE.FrontSide;
  return new THREE.MeshStandardMaterial({ color, roughness: 0.6, metalness: 0.1, side });
}

// Half-metre squares on the plane z = height of a geom frame.
function grid(size, height) {
  const lines = new THREE.GridHelper(size, Math.round(size / 0.5), 0x60656c, 0x80858c);
  lines.rotateX(Math.PI / 2);
  lines.position.z = height;
  return lines;
}

function placeGeom(object, g) {
  const [x, y, z, qw, qx, qy, qz] = g.pose;
  object.position.set(x, y, z);
  object.quaternion.set(qx, qy, qz, qw);
}

// Each body holds two layers: its visual shapes (the URDF's <visual>, or its
// collision shapes where a link has none) and its collision shapes; the
// "collision" box shows the second instead of the first. A log without
// visual shapes shows the collision layer only, and so does a body without
// any (a scenario robot with ignore_collision whose visual meshes are
// missing, given shapes of its own). The world's shapes (floors,
// walls, links welded to the world) are drawn from the collision geometry.
const visuals = (run.visuals || []).filter((g) => g.body >= 0);
const hasVisuals = visuals.length > 0;
const bodyGroups = [];
const visualLayers = [];
const collisionLayers = [];
for (let k = 0; k < nbody; k++) {
  const group = new THREE.Group();
  group.name = run.bodies[k];
  scene.add(group);
  bodyGroups.push(group);
  visualLayers.push(new THREE.Group());
  collisionLayers.push(new THREE.Group());
}
let visualsDrawn = 0;
let visualTriangles = 0;
for (const g of visuals) {
  const geometry = geometryOf(g);
  if (!geometry) continue;
  if (g.triangles) visualTriangles += geometry.index.count / 3;
  const mesh = new THREE.Mesh(geometry, materialOf(g));
  placeGeom(mesh, g);
  visualLayers[g.body].add(mesh);
  visualsDrawn++;
}
for (const g of run.geoms) {
  const geometry = geometryOf(g);
  if (!geometry) continue;
  const mesh = new THREE.Mesh(geometry, materialOf(g));
  placeGeom(mesh, g);
  (g.body >= 0 ? collisionLayers[g.body] : scene).add(mesh);
  if (g.type === GEOM.PLANE) mesh.add(grid(20, 0.001));
  else if (g.type === GEOM.BOX && g.body < 0 && Math.max(g.size[0], g.size[1]) > 1) {
    mesh.add(grid(2 * Math.min(Math.max(g.size[0], g.size[1]), 20), g.size[2] + 0.001));
  }
}
for (let k = 0; k < nbody; k++) {
  for (const layer of [visualLayers[k], collisionLayers[k]]) if (layer.children.length > 0) bodyGroups[k].add(layer);
}
// The tree: a line from each body's frame to its parent's.
const links = run.parents.map((p, k) => [p, k]).filter(([p]) => p >= 0);
const linkPositions = new Float32Array(links.length * 6);
const linkGeometry = new THREE.BufferGeometry();
linkGeometry.setAttribute('position', new THREE.BufferAttribute(linkPositions, 3));
scene.add(new THREE.LineSegments(linkGeometry, new THREE.LineBasicMaterial({ color: 0x333333 })));

// A body without collision geometry is drawn as a small frame.
for (const group of bodyGroups) if (group.children.length === 0) group.add(new THREE.AxesHelper(0.05));

// Contacts: a dot at each point and an arrow along the whole force on body
// A (normal and friction), its length proportional to the force's magnitude
// (the largest of the run is 0.3 m); a contact without force shows its
// normal, 1 mm long. One dot and arrow per contact of the busiest frame.
let maxForce = 0;
for (let i = 0; i < cforce.length; i += 3) maxForce = Math.max(maxForce, Math.hypot(cforce[i], cforce[i + 1], cforce[i + 2]));
const arrowPerNewton = maxForce > 0 ? 0.3 / maxForce : 0;
let mostContacts = 0;
for (let f = 0; f < nframe; f++) mostContacts = Math.max(mostContacts, ncontacts[f]);
const contactLayer = new THREE.Group();
scene.add(contactLayer);
const dots = [];
const arrows = [];
for (let s = 0; s < mostContacts; s++) {
  const dot = new THREE.Mesh(new THREE.SphereGeometry(0.012, 12, 8), new THREE.MeshBasicMaterial({ color: 0xd62728 }));
  const arrow = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), 0.1, 0xd62728);
  contactLayer.add(dot, arrow);
  dots.push(dot);
  arrows.push(arrow);
}

const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(window.devicePixelRatio);
const view = document.getElementById('view');
view.appendChild(renderer.domElement);
const camera = new THREE.PerspectiveCamera(45, 1, 0.01, 500);
camera.up.set(0, 0, 1);
const controls = new OrbitControls(camera, renderer.domElement);

// The camera frames every body position of the run and the small world
// geoms (floors and walls, large, would push the bodies out of sight).
function frameCamera() {
  const box = new THREE.Box3();
  for (let i = 0; i < pose.length; i += 7) box.expandByPoint(new THREE.Vector3(pose[i], pose[i + 1], pose[i + 2]));
  for (const g of run.geoms) {
    if (g.body < 0 && g.type !== GEOM.PLANE && Math.max(...g.size) < 2) box.expandByPoint(new THREE.Vector3(g.pose[0], g.pose[1], g.pose[2]));
  }
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, 0), new THREE.Vector3(1, 1, 1));
  const center = box.getCenter(new THREE.Vector3());
  const radius = Math.max(0.3, 0.5 * box.getSize(new THREE.Vector3()).length()) + 0.2;
  controls.target.copy(center);
  camera.position.copy(center).add(new THREE.Vector3(1.2, -1.6, 0.8).normalize().multiplyScalar(2.2 * radius));
  controls.update();
}
frameCamera();

// Where the camera looks, for tests that find a point of the scene on a
// screenshot: the canvas's rectangle in CSS pixels (left, top, width,
// height) and the matrix from world to clip coordinates (column-major).
function stateCamera() {
  const rect = renderer.domElement.getBoundingClientRect();
  document.body.dataset.canvas = [rect.left, rect.top, rect.width, rect.height].join(',');
  camera.updateMatrixWorld();
  const worldToClip = new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse);
  document.body.dataset.camera = worldToClip.elements.join(',');
}

function resize() {
  const w = view.clientWidth || 1;
  const h = view.clientHeight || 1;
  renderer.setSize(w, h);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
  stateCamera();
}
window.addEventListener('resize', resize);
controls.addEventListener('change', stateCamera);
resize();

const ui = {
  play: document.getElementById('play'),
  slider: document.getElementById('slider'),
  speed: document.getElementById('speed'),
  contacts: document.getElementById('show-contacts'),
  collision: document.getElementById('show-collision'),
  time: document.getElementById('time'),
  count: document.getElementById('contacts'),
};
document.getElementById('name').textContent = run.title;
document.title = `${run.title} — mcdyn replay`;
ui.slider.max = String(Math.max(0, nframe - 1));

let frame = 0;
let playing = false;
let simTime = nframe ? t[0] : 0;

// The frame at simulated time s: the last one with t <= s.
function frameAt(s) {
  let lo = 0;
  let hi = nframe - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t[mid] <= s) lo = mid; else hi = mid - 1;
  }
  return lo;
}

function showFrame(f) {
  frame = Math.min(Math.max(f, 0), nframe - 1);
  for (let k = 0; k < nbody; k++) {
    const p = (frame * nbody + k) * 7;
    bodyGroups[k].position.set(pose[p], pose[p + 1], pose[p + 2]);
    bodyGroups[k].quaternion.set(pose[p + 4], pose[p + 5], pose[p + 6], pose[p + 3]);
  }
  links.forEach(([p, k], i) => {
    for (const [j, body] of [[0, p], [1, k]]) {
      const b = (frame * nbody + body) * 7;
      linkPositions.set([pose[b], pose[b + 1], pose[b + 2]], 6 * i + 3 * j);
    }
  });
  linkGeometry.attributes.position.needsUpdate = true;
  linkGeometry.computeBoundingSphere();
  const n = ncontacts[frame];
  for (let s = 0; s < mostContacts; s++) {
    dots[s].visible = arrows[s].visible = s < n;
    if (s >= n) continue;
    const c = (cfirst[frame] + s) * 3;
    const force = new THREE.Vector3(cforce[c], cforce[c + 1], cforce[c + 2]);
    const length = force.length() * arrowPerNewton;
    dots[s].position.set(cpoint[c], cpoint[c + 1], cpoint[c + 2]);
    arrows[s].position.copy(dots[s].position);
    arrows[s].setDirection(length > 1e-3 ? force.normalize() : new THREE.Vector3(cnormal[c], cnormal[c + 1], cnormal[c + 2]));
    arrows[s].setLength(Math.max(1e-3, length), 0.03, 0.015);
  }
  document.body.dataset.contacts = String(arrows.filter((a) => a.visible).length);
  contactLayer.visible = ui.contacts.checked;
  ui.slider.value = String(frame);
  ui.time.textContent = t[frame].toFixed(3);
  ui.count.textContent = String(n);
  document.body.dataset.frame = String(frame);
  document.body.dataset.time = String(t[frame]);
}

function setPlaying(on) {
  playing = on && nframe > 1;
  ui.play.textContent = playing ? 'Pause' : 'Play';
}

// "#t=SECONDS" opens the page paused at that time.
function applyHash() {
  const m = /^#t=([0-9.eE+-]+)$/.exec(window.location.hash);
  if (!m || !Number.isFinite(Number(m[1]))) return false;
  setPlaying(false);
  simTime = Number(m[1]);
  showFrame(frameAt(simTime));
  return true;
}

ui.play.addEventListener('click', () => {
  if (!playing && frame >= nframe - 1) simTime = t[0];
  setPlaying(!playing);
});
ui.slider.addEventListener('input', () => {
  setPlaying(false);
  showFrame(Number(ui.slider.value));
  simTime = t[frame];
});
ui.contacts.addEventListener('change', () => { contactLayer.visible = ui.contacts.checked; });
function showLayers() {
  const collision = ui.collision.checked || !hasVisuals;
  for (let k = 0; k < nbody; k++) {
    visualLayers[k].visible = !collision;
    collisionLayers[k].visible = collision || visualLayers[k].children.length === 0;
  }
}
ui.collision.disabled = !hasVisuals;
ui.collision.checked = !hasVisuals;
ui.collision.addEventListener('change', showLayers);
showLayers();
window.addEventListener('keydown', (e) => {
  if (e.code === 'Space' && e.target.tagName !== 'INPUT') { e.preventDefault(); ui.play.click(); }
});
window.addEventListener('hashchange', applyHash);

let lastWall = null;
function tick(wall) {
  if (playing && lastWall !== null) {
    simTime += ((wall - lastWall) / 1000) * Number(ui.speed.value);
    if (simTime >= t[nframe - 1]) { simTime = t[nframe - 1]; setPlaying(false); }
    showFrame(frameAt(simTime));
  }
  lastWall = wall;
  controls.update();
  renderer.render(scene, camera);
  requestAnimationFrame(tick);
}

if (nframe === 0) reportError('the run has no recorded step');
else if (!applyHash()) { showFrame(0); setPlaying(true); }
renderer.render(scene, camera);
document.body.dataset.modelBodies = String(run.model_bodies);
document.body.dataset.bodies = String(bodyGroups.filter((g) => g.parent === scene && g.children.length > 0).length);
document.body.dataset.visuals = String(visualsDrawn);
document.body.dataset.visualTriangles = String(visualTriangles);

document.body.dataset.ready = '1';
requestAnimationFrame(tick);
