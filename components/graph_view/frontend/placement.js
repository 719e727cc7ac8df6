/* Where nodes go. Pure functions over plain positions ({id: {x, y}}), no vis-network here.
 *
 * New nodes are put beside what they connect to and then settled by the force layout (layout.js) with every
 * node already on screen fixed, so the drawing never jumps as the graph grows. A first batch with no stored
 * positions is seeded as one cluster per source document and laid out fully.
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

  /* Positions for `added` (raw nodes with id and doc): stored ones are reused; others go beside their placed
   * neighbours, else beside their document's nodes, else just outside the drawing. `pos` is not changed. */
  function placeNear(pos, docOf, added, adjacency, stored) {
    const grid = new Grid(), groups = new Map(), placed = Object.assign({}, pos), out = new Map();
    let sx = 0, sy = 0, n = 0, radius = 0;
    Object.keys(pos).forEach((id) => {
      const p = pos[id];
      grid.add(p.x, p.y); sx += p.x; sy += p.y; n++;
      const acc = groups.get(docOf(id)) || { x: 0, y: 0, n: 0 };
      acc.x += p.x; acc.y += p.y; acc.n++; groups.set(docOf(id), acc);
    });
    const cx = n ? sx / n : 0, cy = n ? sy / n : 0;
    Object.keys(pos).forEach((id) => { radius = Math.max(radius, Math.hypot(pos[id].x - cx, pos[id].y - cy)); });
    for (const raw of added) {
      let xy = stored[raw.id] ? [stored[raw.id].x, stored[raw.id].y] : null;
      if (!xy) {
        const seed = hash(raw.id);
        const near = (adjacency.get(raw.id) || []).map((m) => placed[m]).filter(Boolean);
        const g = groups.get(raw.doc || "");
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

  /* Seed positions for a first batch: each source document a disc of its own, the discs on a ring. */
  function seedClusters(added) {
    const byGroup = new Map(), out = new Map();
    added.forEach((raw) => {
      const g = raw.doc || "";
      if (!byGroup.has(g)) byGroup.set(g, []);
      byGroup.get(g).push(raw);
    });
    const groups = Array.from(byGroup.keys());
    const ring = groups.length > 1 ? 90 * Math.sqrt(added.length) : 0;
    groups.forEach((g, gi) => {
      const members = byGroup.get(g);
      const a = (gi / groups.length) * 2 * Math.PI;
      const gx = ring * Math.cos(a), gy = ring * Math.sin(a), spread = 30 * Math.sqrt(members.length);
      members.forEach((raw) => {
        const u = hash(raw.id), v = hash(raw.id + "~");
        out.set(raw.id, [gx + spread * Math.sqrt(u) * Math.cos(v * 6.283),
                         gy + spread * Math.sqrt(u) * Math.sin(v * 6.283)]);
      });
    });
    return out;
  }

  /* Ideal edge length: roomy while labels are readable at the fitted zoom, tighter for big graphs. */
  function spacing(count) { return count < 150 ? 120 : count < 600 ? 90 : 70; }

  /* Force layout over `pos` (every node, {id: {x, y}}); only ids in `movable` move. Returns their new places. */
  function settle(pos, movable, edges, iterations, temperature) {
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
    GraphLayout.run({ x: x, y: y, edges: Int32Array.from(pairs), fixed: fixed, iterations: iterations,
                      k: k, temperature: temperature * k / 70 });
    const out = new Map();
    ids.forEach((id, i) => { if (!fixed[i]) out.set(id, [x[i], y[i]]); });
    return out;
  }

  /* Hub labels are drawn larger; a hub whose label would overlap a bigger hub's gets the normal size back.
   * hubs: [{id, label, size, font, x, y}] -> Map id -> font size. */
  function declutter(hubs) {
    const kept = [], out = new Map();
    hubs.slice().sort((a, b) => (b.size || 0) - (a.size || 0)).forEach((h) => {
      const width = Math.min(34, (h.label || "").length) * h.font * 0.55;
      const clash = kept.some((k) => Math.abs(k.x - h.x) < (k.w + width) / 2 + 10 && Math.abs(k.y - h.y) < 60);
      if (clash) out.set(h.id, 13);
      else { kept.push({ x: h.x, y: h.y, w: width }); out.set(h.id, h.font); }
    });
    return out;
  }

  return { placeNear: placeNear, seedClusters: seedClusters, settle: settle, declutter: declutter };
})();
