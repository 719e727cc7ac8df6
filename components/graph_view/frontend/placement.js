/* Where nodes go. Pure functions over plain positions ({id: {x, y}}), no vis-network here.
 *
 * New nodes are put beside what they connect to and then settled by the force layout (layout.js) with every
 * node already on screen fixed, so the drawing never jumps as the graph grows. A first batch with no stored
 * positions is seeded as one disc per group (topic community, or source document) and laid out fully.
 */
"use strict";

window.GraphPlacement = (function () {
  const GAP = 40;  // minimum distance between a placed node and any other

  function hash(text) {
    let h = 2166136261;
    for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 16777619); }
    return (h >>> 0) / 4294967296;
  }

  function Grid() { this.cells = new Map(); }
  Grid.prototype.add = function (x, y) {
    const k = Math.floor(x / GAP) + "," + Math.floor(y / GAP);
    if (!this.cells.has(k)) this.cells.set(k, []);
    this.cells.get(k).push([x, y]);
  };
  Grid.prototype.free = function (x, y) {
    const cx = Math.floor(x / GAP), cy = Math.floor(y / GAP);
    for (let i = -1; i <= 1; i++) {
      for (let j = -1; j <= 1; j++) {
        const pts = this.cells.get((cx + i) + "," + (cy + j)) || [];
        for (const p of pts) { if ((p[0] - x) ** 2 + (p[1] - y) ** 2 < GAP * GAP) return false; }
      }
    }
    return true;
  };

  function findSpot(grid, cx, cy, r0, seed) {
    for (let ring = 0; ring < 60; ring++) {
      const r = r0 + ring * GAP * 0.75, steps = 8 + ring * 3;
      for (let k = 0; k < steps; k++) {
        const a = seed * 2 * Math.PI + (k / steps) * 2 * Math.PI;
        const x = cx + r * Math.cos(a), y = cy + r * Math.sin(a);
        if (grid.free(x, y)) return [x, y];
      }
    }
    return [cx + r0 * Math.cos(seed * 6.283), cy + r0 * Math.sin(seed * 6.283)];
  }

  /* Positions for `added` (raw nodes with id and group_key/doc): stored ones are reused; others go beside their
   * placed neighbours, else beside their group's nodes, else just outside the drawing. `pos` is not changed. */
  function placeNear(pos, groupOfId, added, adjacency, stored) {
    const grid = new Grid(), groups = new Map(), placed = Object.assign({}, pos), out = new Map();
    let sx = 0, sy = 0, n = 0, radius = 0;
    Object.keys(pos).forEach((id) => {
      const p = pos[id];
      grid.add(p.x, p.y); sx += p.x; sy += p.y; n++;
      const acc = groups.get(groupOfId(id)) || { x: 0, y: 0, n: 0 };
      acc.x += p.x; acc.y += p.y; acc.n++; groups.set(groupOfId(id), acc);
    });
    const cx = n ? sx / n : 0, cy = n ? sy / n : 0;
    Object.keys(pos).forEach((id) => { radius = Math.max(radius, Math.hypot(pos[id].x - cx, pos[id].y - cy)); });
    for (const raw of added) {
      let xy = stored[raw.id] ? [stored[raw.id].x, stored[raw.id].y] : null;
      if (!xy) {
        const seed = hash(raw.id);
        const near = (adjacency.get(raw.id) || []).map((m) => placed[m]).filter(Boolean);
        const g = groups.get(groupOf(raw));
        if (near.length) {
          const mx = near.reduce((s, p) => s + p.x, 0) / near.length;
          const my = near.reduce((s, p) => s + p.y, 0) / near.length;
          xy = findSpot(grid, mx, my, GAP * 1.6, seed);
        } else if (g && g.n) {
          xy = findSpot(grid, g.x / g.n, g.y / g.n, GAP * 2, seed);
        } else {
          xy = findSpot(grid, cx, cy, n ? radius + GAP * 3 : 0, seed);
        }
      }
      placed[raw.id] = { x: xy[0], y: xy[1] };
      grid.add(xy[0], xy[1]);
      out.set(raw.id, xy);
    }
    return out;
  }

  function groupOf(raw) { return raw.group_key || raw.doc || ""; }

  /* Seed positions for a full layout: each group (topic community, or source document) a disc of its own, the
   * biggest in the middle and the others on rings around it, discs apart. Returns {places, anchors}: both
   * Map id -> [x, y]; a node's anchor is its group's centre. `aspect` (width / height of the view) stretches
   * the rings sideways so the islands use a wide canvas. */
  function seedClusters(added, aspect) {
    const stretch = Math.max(1, Math.min(2.2, aspect || 1));
    const byGroup = new Map(), out = new Map(), anchors = new Map();
    added.forEach((raw) => {
      const g = groupOf(raw);
      if (!byGroup.has(g)) byGroup.set(g, []);
      byGroup.get(g).push(raw);
    });
    const groups = Array.from(byGroup.keys()).sort((a, b) => byGroup.get(b).length - byGroup.get(a).length ||
                                                             (a < b ? -1 : 1));
    const k = spacing(added.length);
    const radius = (g) => 0.62 * k * Math.sqrt(byGroup.get(g).length) + k * 0.6;
    const centres = new Map();
    centres.set(groups[0], [0, 0]);
    let ringR = groups.length ? radius(groups[0]) : 0, i = 1;
    while (i < groups.length) {  // fill rings outwards: each ring as many discs as fit on its circumference
      const widest = radius(groups[i]);
      const r = ringR + widest * 1.15;
      let used = 0;
      const ring = [];
      while (i < groups.length && (used + 2 * radius(groups[i]) * 1.1 <= 2 * Math.PI * r || !ring.length)) {
        used += 2 * radius(groups[i]) * 1.1;
        ring.push(groups[i]);
        i++;
      }
      let a = 0;
      ring.forEach((g) => {
        const share = (2 * radius(g) * 1.1) / Math.max(used, 2 * Math.PI * r);
        a += Math.PI * share;
        centres.set(g, [r * Math.cos(a) * stretch, r * Math.sin(a)]);
        a += Math.PI * share;
      });
      ringR = r + widest * 1.15;
    }
    groups.forEach((g) => {
      const members = byGroup.get(g), c = centres.get(g), spread = radius(g) * 0.8;
      members.forEach((raw) => {
        const u = hash(raw.id), v = hash(raw.id + "~");
        out.set(raw.id, [c[0] + spread * Math.sqrt(u) * Math.cos(v * 6.283),
                         c[1] + spread * Math.sqrt(u) * Math.sin(v * 6.283)]);
        anchors.set(raw.id, c);
      });
    });
    return { places: out, anchors: anchors };
  }

  /* Ideal edge length: roomy while labels are readable at the fitted zoom, tighter for big graphs. */
  function spacing(count) { return count < 150 ? 120 : count < 600 ? 90 : 70; }

  /* Force layout over `pos` (every node, {id: {x, y}}); only ids in `movable` move. Returns their new places.
   * With `anchors` (Map id -> [x, y], every node), nodes are pulled to their anchor instead of the centre. */
  function settle(pos, movable, edges, iterations, temperature, anchors) {
    const ids = Object.keys(pos);
    const index = new Map(ids.map((id, i) => [id, i]));
    const x = new Float64Array(ids.length), y = new Float64Array(ids.length);
    const fixed = new Uint8Array(ids.length);
    ids.forEach((id, i) => { x[i] = pos[id].x; y[i] = pos[id].y; fixed[i] = movable.has(id) ? 0 : 1; });
    const pairs = [];
    edges.forEach((e) => {
      const a = index.get(e.from), b = index.get(e.to);
      if (a !== undefined && b !== undefined && a !== b) pairs.push(a, b);
    });
    const k = spacing(ids.length);
    let ax = null, ay = null;
    if (anchors) {
      ax = new Float64Array(ids.length); ay = new Float64Array(ids.length);
      ids.forEach((id, i) => { const a = anchors.get(id) || [x[i], y[i]]; ax[i] = a[0]; ay[i] = a[1]; });
    }
    GraphLayout.run({ x: x, y: y, edges: Int32Array.from(pairs), fixed: fixed, iterations: iterations,
                      k: k, temperature: temperature * k / 70, ax: ax, ay: ay });
    const out = new Map();
    ids.forEach((id, i) => { if (!fixed[i]) out.set(id, [x[i], y[i]]); });
    return out;
  }

  return { placeNear: placeNear, seedClusters: seedClusters, settle: settle };
})();
