/* Query Graph component: one long-lived vis-network fed incrementally by Streamlit.
 *
 * Streamlit re-sends the whole graph on every rerun; rebuilding the network each time would reset positions and
 * stall at 2,000 nodes. So the DataSets live as long as this iframe and each render applies only the difference
 * (added / changed / removed, keyed by id). vis physics stays off: placement.js puts new nodes beside their
 * neighbours and settles them with every old node fixed, so nothing already on screen moves; a full layout (one
 * island per topic group) runs for a first batch with no stored positions, once when a finished graph has grown
 * well past its last full layout, and on demand (Re-layout). Labels are drawn by labels.js (never overlapping),
 * search by search.js, the timeline by replay.js.
 *
 * Document text never becomes HTML: tooltips, the legend and search hits are built with textContent, and labels
 * are drawn on the canvas.
 */
"use strict";

(function () {
  const FLASH_MS = 4500;
  const CUSTOM = new Set(["tip", "find", "target", "doc", "ghost", "group_key", "rank", "hub", "where", "label",
                          "font"]);
  const POS_PREFIX = "amb-graph-pos:";
  const LAID_PREFIX = "amb-graph-laid:";

  const OPTIONS = {
    autoResize: true,
    layout: { improvedLayout: false, randomSeed: 7 },
    physics: { enabled: false },
    interaction: { hover: true, tooltipDelay: 150, multiselect: false, keyboard: false, zoomSpeed: 0.8 },
    nodes: { shape: "dot", size: 13, borderWidth: 1.5, borderWidthSelected: 3 },
    edges: {
      smooth: false, width: 1.2, selectionWidth: 1.6, hoverWidth: 0.8,
      color: { color: "#cfd6e0", highlight: "#3b5bdb", hover: "#3b5bdb", inherit: false },
    },
  };

  const el = (id) => document.getElementById(id);
  const S = {
    network: null, nodes: null, edges: null,
    sig: new Map(), edgeSig: new Map(), raw: new Map(), edgeRaw: new Map(),
    graphId: "", height: 0, renders: 0, clickSeq: 0,
    lastSelected: null, lastClicked: null, lastHighlight: "", renderStart: null, edgeList: [], legendKey: "",
    bigGraph: false, userMoved: false, labelOrder: [], hubOrder: [], labelBoxes: [],
    focus: new Set(), focusKey: "", focusOn: false, settled: false,
    hits: [], hitIndex: -1, flashTimers: new Map(), saveTimer: null, replay: null,
  };
  window.__graphStats = { renders: 0, nodes: 0, edges: 0, lastRenderMs: null, lastLayoutMs: null,
                          lastDrawnAt: null, layoutRuns: 0, lastClick: null, labels: 0 };

  // ---- Streamlit protocol -------------------------------------------------------------------------------
  function post(type, data) {
    window.parent.postMessage(Object.assign({ isStreamlitMessage: true, type: type }, data || {}), "*");
  }
  function setHeight() {
    post("streamlit:setFrameHeight", { height: Math.ceil(el("root").getBoundingClientRect().height) + 2 });
  }
  function sendClick(id) {
    const raw = S.raw.get(id);
    const target = raw && raw.target ? raw.target : id;
    S.clickSeq += 1;
    S.lastClicked = target;
    S.userMoved = true;  // the user is working with the view: a growing graph no longer re-frames under them
    const value = { node_id: target, nonce: Date.now() + "-" + S.clickSeq };
    window.__graphStats.lastClick = { node_id: target, at: performance.timeOrigin + performance.now() };
    post("streamlit:setComponentValue", { value: value, dataType: "json" });
  }

  // ---- text-only DOM builders ---------------------------------------------------------------------------
  function make(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function tipElement(tip) {
    const box = make("div", "tip");
    if (tip.title) box.appendChild(make("div", "tip-title", tip.title));
    (tip.badges || []).forEach((b) => box.appendChild(make("span", "tip-badge " + (b.kind || ""), b.text)));
    (tip.lines || []).forEach((line) => box.appendChild(make("div", "tip-line", line)));
    if (tip.body) box.appendChild(make("div", "tip-body", tip.body));
    return box;
  }
  function visItem(raw) {
    const item = {};
    Object.keys(raw).forEach((k) => { if (!CUSTOM.has(k)) item[k] = raw[k]; });
    if (raw.tip) item.title = tipElement(raw.tip);
    return item;
  }

  // ---- positions ----------------------------------------------------------------------------------------
  function stored(prefix, fallback) {
    try {
      return JSON.parse(window.sessionStorage.getItem(prefix + S.graphId) || fallback);
    } catch (err) {
      console.warn("stored graph state could not be read; starting fresh", err);
      return JSON.parse(fallback);
    }
  }
  function store(prefix, value) {
    try {
      window.sessionStorage.setItem(prefix + S.graphId, JSON.stringify(value));
    } catch (err) {
      console.warn("graph state could not be stored; it will not survive a page switch", err);
    }
  }
  function savePositions() { if (S.network) store(POS_PREFIX, S.network.getPositions()); }
  function saveSoon() {
    clearTimeout(S.saveTimer);
    S.saveTimer = setTimeout(savePositions, 800);
  }
  /* Settle the nodes in `movable` among everything on screen plus `pending` (items about to be added, with
   * x/y): pending items get their new x/y, nodes already drawn are moved through the DataSet. */
  function settle(pending, movable, iterations, temperature, anchors) {
    const pos = S.network.getPositions();
    pending.forEach((item) => { pos[item.id] = { x: item.x, y: item.y }; });
    const places = GraphPlacement.settle(pos, movable, S.edgeList, iterations, temperature, anchors);
    const moved = [];
    pending.forEach((item) => {
      const xy = places.get(item.id);
      if (xy) { item.x = xy[0]; item.y = xy[1]; places.delete(item.id); }
    });
    places.forEach((xy, id) => moved.push({ id: id, x: xy[0], y: xy[1] }));
    if (moved.length) S.nodes.update(moved);
  }

  function aspect() {
    const box = el("graph").getBoundingClientRect();
    return box.height > 0 ? box.width / box.height : 1;
  }

  /* The whole graph laid out again, one island per topic group. */
  function relayout(animate) {
    const started = performance.now();
    window.__graphStats.layoutRuns += 1;
    const raws = S.nodes.getIds().map((id) => S.raw.get(id)).filter(Boolean);
    const seeded = GraphPlacement.seedClusters(raws, aspect());
    S.nodes.update(raws.map((r) => { const xy = seeded.places.get(r.id); return { id: r.id, x: xy[0], y: xy[1] }; }));
    settle([], new Set(S.nodes.getIds()), S.nodes.length > 1000 ? 120 : 200, 105, seeded.anchors);
    window.__graphStats.lastLayoutMs = performance.now() - started;
    S.network.fit({ animation: animate ? { duration: 400 } : false });
    savePositions();
    store(LAID_PREFIX, S.nodes.length);
  }

  function withPlaces(added, places) {
    return added.map((raw) => {
      const item = visItem(raw), xy = places.get(raw.id);
      item.x = xy[0]; item.y = xy[1];
      return item;
    });
  }

  // ---- diffing ------------------------------------------------------------------------------------------
  function adjacencyOf(edges) {
    const adj = new Map();
    const link = (a, b) => { if (!adj.has(a)) adj.set(a, []); adj.get(a).push(b); };
    edges.forEach((e) => { link(e.from, e.to); link(e.to, e.from); });
    return adj;
  }

  function applyNodes(list, edges) {
    const incoming = new Set(list.map((n) => n.id));
    const removed = S.nodes.getIds().filter((id) => !incoming.has(id) && !String(id).startsWith("replay:"));
    if (removed.length) {
      S.nodes.remove(removed);
      removed.forEach((id) => { S.sig.delete(id); S.raw.delete(id); });
    }
    const added = [], changed = [];
    for (const raw of list) {
      const sig = JSON.stringify(raw);
      const old = S.sig.get(raw.id);
      if (old === sig) continue;
      S.sig.set(raw.id, sig);
      S.raw.set(raw.id, raw);
      (old === undefined ? added : changed).push(raw);
    }
    if (changed.length) S.nodes.update(changed.map(visItem));
    if (removed.length || added.length || changed.length) {
      S.labelOrder = GraphLabels.order(Array.from(S.raw.values()));
      S.hubOrder = S.labelOrder.filter((id) => S.raw.get(id).hub);  // all that is tried when zoomed out
    }
    if (!added.length) return removed.length + changed.length > 0;
    const positions = stored(POS_PREFIX, "{}");
    const firstBatch = S.nodes.length === 0;
    const unplaced = added.filter((raw) => !positions[raw.id]).length;
    const started = performance.now();
    let items;
    if (firstBatch && unplaced > 1) {
      const seeded = GraphPlacement.seedClusters(added, aspect());
      items = withPlaces(added, seeded.places);
      settle(items, new Set(items.map((item) => item.id)), added.length > 1000 ? 120 : 200, 210, seeded.anchors);
      store(LAID_PREFIX, added.length);
    } else {
      const groupOf = (id) => { const r = S.raw.get(id) || {}; return r.group_key || r.doc || ""; };
      items = withPlaces(added, GraphPlacement.placeNear(S.network.getPositions(), groupOf, added,
                                                         adjacencyOf(edges), positions));
      const movable = new Set(added.filter((raw) => !positions[raw.id]).map((raw) => raw.id));
      if (movable.size) settle(items, movable, 60, 70);
    }
    window.__graphStats.lastLayoutMs = performance.now() - started;
    if (S.replay) items.forEach((item) => { item.hidden = true; });  // they arrive later on the timeline
    S.nodes.add(items);
    saveSoon();
    // while the user has not moved the view, a growing graph stays framed
    if (firstBatch) S.network.fit({ animation: false, maxZoomLevel: 0.9 });
    else if (!S.userMoved) S.network.fit({ animation: { duration: 300 }, maxZoomLevel: 0.9 });
    if (!firstBatch) flash(added.filter((raw) => !raw.ghost).map((raw) => raw.id));
    return true;
  }

  function applyEdges(list) {
    const incoming = new Set(list.map((e) => e.id));
    const removed = S.edges.getIds().filter((id) => !incoming.has(id) && !String(id).startsWith("replay:"));
    if (removed.length) {
      S.edges.remove(removed);
      removed.forEach((id) => { S.edgeSig.delete(id); S.edgeRaw.delete(id); });
    }
    const upsert = [];
    for (const raw of list) {
      const sig = JSON.stringify(raw);
      if (S.edgeSig.get(raw.id) === sig) continue;
      S.edgeSig.set(raw.id, sig);
      S.edgeRaw.set(raw.id, raw);
      upsert.push(visItem(raw));
    }
    if (upsert.length) S.edges.update(upsert);
    return removed.length + upsert.length > 0;
  }

  function flash(ids) {
    ids.forEach((id) => {
      const raw = S.raw.get(id);
      if (!raw) return;
      clearTimeout(S.flashTimers.get(id));
      S.nodes.update({ id: id, borderWidth: 4, size: (raw.size || 13) + 5,
                       color: { background: (raw.color || {}).background, border: "#fab005" },
                       shadow: { enabled: true, color: "rgba(250,176,5,0.85)", size: 24, x: 0, y: 0 } });
      S.flashTimers.set(id, setTimeout(() => {
        S.flashTimers.delete(id);
        const now = S.raw.get(id);
        if (!now || !S.nodes.get(id)) return;
        S.nodes.update({ id: id, borderWidth: now.borderWidth || 1.5, size: now.size || 13, color: now.color,
                         shadow: { enabled: false } });
      }, FLASH_MS));
    });
  }

  // ---- labels -------------------------------------------------------------------------------------------
  function drawLabels(ctx) {
    const body = S.network.body.nodes, scale = S.network.getScale();
    const box = el("graph").getBoundingClientRect();
    const focusing = S.focusOn && S.focus.size > 0 && !S.replay;
    const selected = S.network.getSelectedNodes()[0] || null;
    const view = { scale: scale, width: box.width, height: box.height,
                   ratio: (S.network.canvas && S.network.canvas.pixelRatio) || window.devicePixelRatio || 1,
                   toDOM: (x, y) => S.network.canvasToDOM({ x: x, y: y }) };
    const replayLabel = S.replay ? S.replay.label : null;
    const order = scale >= GraphLabels.ZOOMED_IN || focusing ? S.labelOrder : S.hubOrder;
    S.labelBoxes = GraphLabels.draw(ctx, view, S.replay ? order.concat(S.replay.extraIds()) : order, (id) => {
      const n = body[id], raw = S.raw.get(id);
      if (!n || n.options.hidden) return null;
      const label = (raw && raw.label) || (replayLabel && replayLabel(id));
      if (!label) return null;
      const visible = !focusing || S.focus.has(id);
      return { x: n.x, y: n.y, size: n.options.size || 10, label: label, hub: !!(raw && raw.hub) || focusing,
               color: raw && raw.font && raw.font.color, visible: visible };
    }, selected);
    window.__graphStats.labels = S.labelBoxes.length;
  }

  // ---- toolbar, legend, search --------------------------------------------------------------------------
  function updateCounts() {
    const related = S.edges.get({ filter: (e) => e.id.indexOf("related:") === 0 }).length;
    const conflicts = S.edges.get({ filter: (e) => e.id.indexOf("conflict:") === 0 }).length;
    const ghosts = Array.from(S.raw.values()).filter((r) => r.ghost).length;
    window.__graphStats.ghosts = ghosts;
    el("counts").textContent = (S.raw.size - ghosts) + " nodes · " + related + " related · " +
      conflicts + " conflicts";
    el("empty").hidden = S.nodes.length > 0;
  }

  function search(query) {
    const list = el("hits");
    list.replaceChildren();
    S.hitIndex = -1;
    S.hits = GraphSearch.find(S.raw.values(), query);
    if (!query.trim()) { list.hidden = true; el("hit-count").textContent = ""; S.network.unselectAll(); return; }
    el("hit-count").textContent = S.hits.length + (S.hits.length === 1 ? " match" : " matches");
    S.network.selectNodes(S.hits.slice(0, 500).filter((id) => S.nodes.get(id)));
    S.hits.slice(0, GraphSearch.MAX_SHOWN).forEach((id, i) => {
      const li = GraphSearch.item(S.raw.get(id), query, make);
      li.addEventListener("mousedown", (ev) => { ev.preventDefault(); goTo(i, true); });
      list.appendChild(li);
    });
    list.hidden = S.hits.length === 0;
  }

  /* Select a search hit and bring it into view at a zoom where its label and its neighbours' are readable. */
  function goTo(i, open) {
    if (!S.hits.length) return;
    S.hitIndex = ((i % S.hits.length) + S.hits.length) % S.hits.length;
    const id = S.hits[S.hitIndex];
    Array.from(el("hits").children).forEach((li, k) => li.classList.toggle("active", k === S.hitIndex));
    S.userMoved = true;
    S.network.selectNodes([id]);
    S.network.focus(id, { scale: Math.min(1.3, Math.max(S.network.getScale(), 1.0)), animation: { duration: 450 } });
    if (open) { el("hits").hidden = true; sendClick(id); }
  }

  function wireToolbar() {
    const input = el("search");
    input.addEventListener("input", () => search(input.value));
    input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") { ev.preventDefault(); goTo(S.hitIndex + (ev.shiftKey ? -1 : 1), ev.ctrlKey); }
      if (ev.key === "Escape") { input.value = ""; search(""); }
    });
    input.addEventListener("blur", () => { el("hits").hidden = true; });
    input.addEventListener("focus", () => { if (S.hits.length) el("hits").hidden = false; });
    el("btn-fit").addEventListener("click", () => {
      S.userMoved = false;  // framing follows the growing graph again
      S.network.fit({ animation: { duration: 400 } });
    });
    el("btn-relayout").addEventListener("click", () => relayout(true));
    el("btn-focus").addEventListener("click", GraphFocus.toggle);
  }

  // ---- network lifecycle --------------------------------------------------------------------------------
  function createNetwork(args) {
    if (typeof vis === "undefined" || !vis.Network) {
      throw new Error("vis-network did not load from vendor/vis-network.min.js (the app copies it from the " +
                      "pyvis wheel into the folder it serves, at first render).");
    }
    S.graphId = String(args.graph_id || "graph");
    S.nodes = new vis.DataSet();
    S.edges = new vis.DataSet();
    S.network = new vis.Network(el("graph"), { nodes: S.nodes, edges: S.edges }, OPTIONS);
    S.network.on("click", (p) => { if (p.nodes && p.nodes.length) sendClick(p.nodes[0]); });
    S.network.on("dragEnd", (p) => { if (p.nodes && p.nodes.length) saveSoon(); });
    // Until the user moves the view, keep it framed: the iframe can still change size after the first render.
    S.network.on("dragStart", () => { S.userMoved = true; });
    S.network.on("zoom", () => { S.userMoved = true; });
    S.network.on("resize", () => {
      if (S.userMoved || !S.nodes.length) return;
      S.network.fit({ animation: false, maxZoomLevel: 0.9 });
    });
    S.network.on("afterDrawing", (ctx) => {
      if (S.replay) S.replay.drawRecent(ctx);
      drawLabels(ctx);
      if (S.renderStart === null) return;
      window.__graphStats.lastRenderMs = performance.now() - S.renderStart;
      window.__graphStats.lastDrawnAt = performance.timeOrigin + performance.now();
      S.renderStart = null;
    });
    wireToolbar();
    GraphFocus.init({ S: S, el: el, edgeColor: OPTIONS.edges.color });
    GraphLegend.init({ S: S, el: el, make: make });
    S.replay = null;
    GraphReplay.init({ S: S, el: el, make: make, visItem: visItem, applyFocus: () => GraphFocus.apply() });
    // Read-only hooks for the browser tests: where a node is drawn (iframe viewport pixels), which ids exist.
    window.__graphDebug = {
      position: (id) => {
        const p = S.network.getPositions([id])[id];
        if (!p) return null;
        const dom = S.network.canvasToDOM(p), box = el("graph").getBoundingClientRect();
        return { x: box.left + dom.x, y: box.top + dom.y };
      },
      canvasPosition: (id) => S.network.getPositions([id])[id] || null,
      nodeAt: (x, y) => {
        const box = el("graph").getBoundingClientRect();
        return S.network.getNodeAt({ x: x - box.left, y: y - box.top }) || null;
      },
      nodeIds: () => S.nodes.getIds(),
      node: (id) => S.nodes.get(id),
      label: (id) => (S.raw.get(id) || {}).label || null,
      edge: (id) => S.edges.get(id),
      edgeIds: () => S.edges.getIds(),
      redrawMs: (n) => {  // the cost of one full draw (vis and labels), for the benchmark
        const t = performance.now();
        for (let i = 0; i < n; i++) S.network.redraw();
        return (performance.now() - t) / n;
      },
      labelMs: (n) => {
        const ctx = el("graph").querySelector("canvas").getContext("2d"), t = performance.now();
        for (let i = 0; i < n; i++) drawLabels(ctx);
        return (performance.now() - t) / n;
      },
      drawnNodes: () => S.network.body.nodeIndices.slice(),  // what vis draws now (the replay hides the rest)
      drawnEdges: () => S.network.body.edgeIndices.slice(),
      doc: (id) => (S.raw.get(id) || {}).doc || null,
      group: (id) => (S.raw.get(id) || {}).group_key || null,
      selected: () => S.network.getSelectedNodes(),
      scale: () => S.network.getScale(),
      labelBoxes: () => S.labelBoxes.map((b) => ({ id: b.id, x: b.x, y: b.y, w: b.w, h: b.h })),
      focus: () => ({ on: S.focusOn && S.focus.size > 0, ids: Array.from(S.focus) }),
      zoom: (scale) => { S.network.moveTo({ scale: scale }); S.userMoved = true; },
    };
  }

  function applySelection(args) {
    const highlight = (args.highlight || []).filter((id) => S.nodes.get(id));
    const hKey = JSON.stringify(highlight);
    if (hKey !== S.lastHighlight) {
      S.lastHighlight = hKey;
      if (highlight.length) {
        S.network.selectNodes(highlight);
        S.network.fit({ nodes: highlight, animation: { duration: 500 }, maxZoomLevel: 1.4 });
        return;
      }
    }
    const selected = args.selected || null;
    if (selected !== S.lastSelected) {
      S.lastSelected = selected;
      // a click in the graph selected it already, where it is: the view does not move under the pointer
      if (selected && selected !== S.lastClicked && S.nodes.get(selected)) {
        S.network.selectNodes([selected]);
        if (S.renders > 0) {
          // a new selection from outside (a neighbour, a citation): centre it at a readable zoom
          const scale = S.network.getScale();
          S.network.focus(selected, { scale: scale >= 0.8 && scale <= 1.6 ? scale : 1.0,
                                      animation: { duration: 400 } });
          S.userMoved = true;
        }
      }
    }
  }

  /* A finished graph that has grown well past its last full layout is laid out again, once, into islands. */
  function layoutWhenSettled() {
    if (!S.settled || S.userMoved || S.nodes.length < 30) return;
    if (!laidOut()) relayout(false);
  }

  /* Whether the drawn graph is as laid out as it will be: its last full layout (or the first batch's, when the
     run ended before the graph was first drawn) covered all but a quarter of its nodes. */
  function laidOut() {
    const laid = Number(stored(LAID_PREFIX, "0")) || 0;
    return S.nodes.length <= laid * 1.25;
  }

  function render(args) {
    S.renderStart = performance.now();
    const height = Math.max(240, Number(args.height) || 600);
    if (height !== S.height) { S.height = height; el("graph").style.height = height + "px"; }
    if (!S.network) createNetwork(args);
    const nodes = args.nodes || [], edges = args.edges || [];
    S.edgeList = edges;
    const justSettled = !!args.settled && !S.settled;
    S.settled = !!args.settled;
    // Streamlit re-sends everything about once a second during a run; when nothing changed, nothing is redrawn
    let changed = applyNodes(nodes, edges) | applyEdges(edges) | S.renders === 0;
    if (S.nodes.length > 800 && !S.bigGraph) {
      S.bigGraph = true;
      // no hover highlighting on a big graph: each hover change redrew all of it (60-120 ms on a busy 2-core
      // machine) just as the click that followed was to be answered; tooltips still show
      S.network.setOptions({ interaction: { hideEdgesOnDrag: true, hideEdgesOnZoom: true, hover: false } });
    }
    const legendKey = JSON.stringify(args.legend || {});
    if (legendKey !== S.legendKey) { S.legendKey = legendKey; GraphLegend.render(args.legend || {}); }
    if (changed) updateCounts();
    if (changed || justSettled) layoutWhenSettled();
    applySelection(args);
    const focusKey = S.focusKey;
    GraphFocus.set(args);
    if (changed && focusKey === S.focusKey) GraphFocus.apply();
    changed = GraphReplay.update(args.replay || null) || changed || focusKey !== S.focusKey;
    S.renders += 1;
    Object.assign(window.__graphStats, { renders: S.renders, nodes: S.nodes.length, edges: S.edges.length,
                                         settled: S.settled, laidOut: S.settled && laidOut() });
    if (changed) S.network.redraw();
    else S.renderStart = null;
    setHeight();
  }

  function showError(err) {
    const box = el("error");
    box.hidden = false;
    box.textContent = "The graph could not be drawn: " + (err && err.message ? err.message : String(err));
    console.error(err);
    setHeight();
  }

  window.addEventListener("message", (event) => {
    const data = event.data;
    if (!data || data.type !== "streamlit:render") return;
    try { render(data.args || {}); } catch (err) { showError(err); }
  });
  post("streamlit:componentReady", { apiVersion: 1 });
})();
