/* A small force layout on typed arrays, used instead of vis-network's physics.
 *
 * vis's Barnes-Hut costs about 40 ms per iteration at 2,000 nodes on a two-core machine, so a decent layout
 * would take seconds. This Fruchterman-Reingold variant only repels nodes closer than two ideal edge lengths
 * (found through a grid), attracts along edges and pulls gently to the centre: one iteration is O(nodes + edges).
 * Nodes marked fixed do not move, so new nodes can settle among old ones without disturbing them. With anchors
 * (one point per node: its topic group's place), each node is pulled to its group's anchor instead of the
 * centre, so groups settle as separate islands.
 */
"use strict";

window.GraphLayout = (function () {
  function buildGrid(n, x, y, cell) {
    const grid = new Map();
    for (let i = 0; i < n; i++) {
      const key = Math.floor(x[i] / cell) * 1000003 + Math.floor(y[i] / cell);
      const bucket = grid.get(key);
      if (bucket) bucket.push(i); else grid.set(key, [i]);
    }
    return grid;
  }

  function repel(i, x, y, grid, cell, k2, dx, dy) {
    const cx = Math.floor(x[i] / cell), cy = Math.floor(y[i] / cell), limit = cell * cell;
    for (let a = -1; a <= 1; a++) {
      for (let b = -1; b <= 1; b++) {
        const bucket = grid.get((cx + a) * 1000003 + (cy + b));
        if (!bucket) continue;
        for (let m = 0; m < bucket.length; m++) {
          const j = bucket[m];
          if (j === i) continue;
          let ddx = x[i] - x[j], ddy = y[i] - y[j];
          let d2 = ddx * ddx + ddy * ddy;
          if (d2 > limit) continue;
          if (d2 < 0.01) {  // coincident nodes: a fixed per-node nudge, so they separate deterministically
            ddx = ((i * 7919) % 13) - 6 + 0.5;
            ddy = ((i * 104729) % 11) - 5 + 0.5;
            d2 = ddx * ddx + ddy * ddy;
          }
          const f = k2 / d2;
          dx[i] += ddx * f;
          dy[i] += ddy * f;
        }
      }
    }
  }

  /* opts: x, y (Float64Array, changed in place), edges (Int32Array of index pairs), fixed (Uint8Array or null),
   * iterations, k (ideal edge length), temperature (largest first step), ax/ay (Float64Array anchors, or none). */
  function run(opts) {
    const x = opts.x, y = opts.y, edges = opts.edges, fixed = opts.fixed;
    const n = x.length, k = opts.k || 70, k2 = k * k, cell = 2 * k;
    const iterations = opts.iterations || 120;
    const free = [];
    for (let i = 0; i < n; i++) if (!fixed || !fixed[i]) free.push(i);
    if (!free.length) return;
    let temp = opts.temperature || 3 * k;
    const cool = Math.pow(1 / temp, 1 / iterations);
    const dx = new Float64Array(n), dy = new Float64Array(n);
    const gravity = opts.gravity === undefined ? 0.012 : opts.gravity;
    const ax = opts.ax || null, ay = opts.ay || null, pull = gravity * 6;
    for (let it = 0; it < iterations; it++) {
      dx.fill(0); dy.fill(0);
      let cx = 0, cy = 0;
      for (let i = 0; i < n; i++) { cx += x[i]; cy += y[i]; }
      cx /= n; cy /= n;
      const grid = buildGrid(n, x, y, cell);
      for (const i of free) repel(i, x, y, grid, cell, k2, dx, dy);
      for (let e = 0; e < edges.length; e += 2) {
        const a = edges[e], b = edges[e + 1];
        const ddx = x[a] - x[b], ddy = y[a] - y[b];
        const f = Math.sqrt(ddx * ddx + ddy * ddy) / k;
        dx[a] -= ddx * f; dy[a] -= ddy * f;
        dx[b] += ddx * f; dy[b] += ddy * f;
      }
      for (const i of free) {
        if (ax) {
          dx[i] -= (x[i] - ax[i]) * pull * k;
          dy[i] -= (y[i] - ay[i]) * pull * k;
        } else {
          dx[i] -= (x[i] - cx) * gravity * k;
          dy[i] -= (y[i] - cy) * gravity * k;
        }
        const len = Math.sqrt(dx[i] * dx[i] + dy[i] * dy[i]);
        if (len > 0) {
          const s = Math.min(len, temp) / len;
          x[i] += dx[i] * s;
          y[i] += dy[i] * s;
        }
      }
      temp = Math.max(temp * cool, 1);
    }
  }

  return { run: run };
})();
