/* Node labels, drawn by us instead of vis-network so that no two ever overlap.
 *
 * vis draws every label whose font is big enough on screen, on top of each other: at 300 nodes that is a smear
 * of text. Here labels are placed greedily in order of importance (the selected node, then hubs, then the rest
 * by degree) in screen space, and a label whose box would touch one already placed is skipped. Hubs are
 * labelled at every zoom, other nodes once the view is zoomed in far enough to read them. The boxes drawn last
 * are kept for the browser tests (window.__graphDebug.labelBoxes).
 */
"use strict";

window.GraphLabels = (function () {
  const ZOOMED_IN = 0.7;  // view scale from which ordinary (non-hub) labels are drawn
  const MAX_LABELS = 160;
  const PAD = 3;          // px of free space kept around each label
  const CELL = 64;
  const FONT = "Source Sans Pro, -apple-system, Segoe UI, Roboto, Arial, sans-serif";

  function Boxes() { this.cells = new Map(); this.list = []; }
  Boxes.prototype.keys = function (b) {
    const out = [];
    for (let i = Math.floor(b.x / CELL); i <= Math.floor((b.x + b.w) / CELL); i++) {
      for (let j = Math.floor(b.y / CELL); j <= Math.floor((b.y + b.h) / CELL); j++) out.push(i + "," + j);
    }
    return out;
  };
  Boxes.prototype.hits = function (b) {
    for (const key of this.keys(b)) {
      for (const o of this.cells.get(key) || []) {
        if (b.x < o.x + o.w + PAD && o.x < b.x + b.w + PAD && b.y < o.y + o.h + PAD && o.y < b.y + b.h + PAD) {
          return true;
        }
      }
    }
    return false;
  };
  Boxes.prototype.add = function (b) {
    this.list.push(b);
    for (const key of this.keys(b)) {
      if (!this.cells.has(key)) this.cells.set(key, []);
      this.cells.get(key).push(b);
    }
  };

  /* The order labels are tried in: ids sorted by rank (hubs carry +1), furniture last. */
  function order(raws) {
    return raws.filter((r) => !r.ghost && r.label && r.label.trim())
      .sort((a, b) => (b.rank || 0) - (a.rank || 0) || (a.id < b.id ? -1 : 1))
      .map((r) => r.id);
  }

  /* Place and draw. ctx: vis's canvas context (canvas transform on); view: {scale, toDOM(x, y), width, height,
   * ratio}; items: ids in order; info(id) -> {x, y, size, label, hub, color, visible} or null; first: an id
   * tried before all others (the selection). Returns the boxes drawn, in DOM pixels of the canvas. */
  function draw(ctx, view, items, info, first) {
    const boxes = new Boxes();
    const ids = first ? [first].concat(items.filter((id) => id !== first)) : items;
    const zoomedIn = view.scale >= ZOOMED_IN;
    ctx.save();
    ctx.setTransform(view.ratio, 0, 0, view.ratio, 0, 0);
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.lineJoin = "round";
    for (const id of ids) {
      if (boxes.list.length >= MAX_LABELS) break;
      const n = info(id);
      if (!n || !n.visible) continue;
      const chosen = id === first;
      if (!n.hub && !zoomedIn && !chosen) continue;
      const p = view.toDOM(n.x, n.y);
      const px = n.hub || chosen ? 14 : 12;
      ctx.font = (n.hub || chosen ? "600 " : "") + px + "px " + FONT;
      const w = ctx.measureText(n.label).width;
      const box = { id: id, x: p.x - w / 2, y: p.y + n.size * view.scale + 2, w: w, h: px + 2 };
      if (box.x < 0 || box.x + box.w > view.width || box.y < 0 || box.y + box.h > view.height) continue;
      if (boxes.hits(box)) continue;
      boxes.add(box);
      ctx.lineWidth = 4;
      ctx.strokeStyle = "rgba(255,255,255,0.95)";
      ctx.strokeText(n.label, p.x, box.y + 1);
      ctx.fillStyle = n.color || "#1f2933";
      ctx.fillText(n.label, p.x, box.y + 1);
    }
    ctx.restore();
    return boxes.list;
  }

  return { order: order, draw: draw, ZOOMED_IN: ZOOMED_IN };
})();
