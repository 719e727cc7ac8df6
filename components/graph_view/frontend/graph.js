/* Query Graph component: one long-lived vis-network fed incrementally by Streamlit.
 *
 * Streamlit re-sends the whole graph on every rerun; rebuilding the network each time would reset positions and
 * stall at 2,000 nodes. So the DataSets live as long as this iframe and each render applies only the difference
 * (added / changed / removed, keyed by id). vis physics stays off: placement.js puts new nodes beside their
 * neighbours and settles them with every old node fixed, so nothing already on screen moves; a full layout runs
 * for a first batch with no stored positions, and on demand (Re-layout).
 *
 * Document text never becomes HTML: tooltips, the legend and search hits are built with textContent, and labels
 * are drawn on the canvas.
 */
"use strict";

(function () {
  const FLASH_MS = 4500;
  const CUSTOM = new Set(["tip", "find", "target", "doc", "ghost"]);
  const POS_PREFIX = "amb-graph-pos:";

  const OPTIONS = {
    autoResize: true,
    layout: { improvedLayout: false, randomSeed: 7 },
    physics: { enabled: false },
    interaction: { hover: true, tooltipDelay: 150, multiselect: false, keyboard: false, zoomSpeed: 0.8 },
    nodes: {
      shape: "dot", size: 13, borderWidth: 1.5, borderWidthSelected: 3,
      font: { size: 13, color: "#1f2933", strokeWidth: 4, strokeColor: "rgba(255,255,255,0.92)",
              face: "Source Sans Pro, -apple-system, Segoe UI, Roboto, Arial, sans-serif" },
      scaling: { label: { drawThreshold: 10, maxVisible: 22 } },
    },
    edges: {
      smooth: false, width: 1.2, selectionWidth: 1.6, hoverWidth: 0.8,
      color: { color: "#cfd6e0", highlight: "#3b5bdb", hover: "#3b5bdb", inherit: false },
    },
  };

  const el = (id) => document.getElementById(id);
  const S = {
    network: null, nodes: null, edges: null,
    sig: new Map(), edgeSig: new Map(), raw: new Map(),
    graphId: "", height: 0, renders: 0, clickSeq: 0,
    lastSelected: null, lastClicked: null, lastHighlight: "", renderStart: null, edgeList: [], legendKey: "",
    bigGraph: false, userMoved: false,
    hits: [], hitIndex: -1, flashTimers: new Map(), saveTimer: null,
  };
  window.__graphStats = { renders: 0, nodes: 0, edges: 0, lastRenderMs: null, lastLayoutMs: null,
                          lastDrawnAt: null, layoutRuns: 0, lastClick: null };

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
    const value = { node_id: target, nonce: Date.now() + "-" + S.clickSeq };
    window.__graphStats.lastClick = { node_id: target, at: performance.timeOrigin + performance.now() };
    post("streamlit:setComponentValue", { value: value, dataType: "json" });
  }

  // ---- text-only DOM builders ---------------------------------------------------------------------------
  function node(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function tipElement(tip) {
    const box = node("div", "tip");
    if (tip.title) box.appendChild(node("div", "tip-title", tip.title));
    (tip.badges || []).forEach((b) => box.appendChild(node("span", "tip-badge " + (b.kind || ""), b.text)));
    (tip.lines || []).forEach((line) => box.appendChild(node("div", "tip-line", line)));
    if (tip.body) box.appendChild(node("div", "tip-body", tip.body));
    return box;
  }
  function visItem(raw) {
    const item = {};
    Object.keys(raw).forEach((k) => { if (!CUSTOM.has(k)) item[k] = raw[k]; });
    if (raw.tip) item.title = tipElement(raw.tip);
    return item;
  }

  // ---- positions ----------------------------------------------------------------------------------------
  function loadPositions() {
    try {
      return JSON.parse(window.sessionStorage.getItem(POS_PREFIX + S.graphId) || "{}");
    } catch (err) {
      console.warn("graph positions could not be read; the layout starts fresh", err);
      return {};
    }
  }
  function savePositions() {
    if (!S.network) return;
    try {
      window.sessionStorage.setItem(POS_PREFIX + S.graphId, JSON.stringify(S.network.getPositions()));
    } catch (err) {
      console.warn("graph positions could not be stored; they will not survive a page switch", err);
    }
  }
  function saveSoon() {
    clearTimeout(S.saveTimer);
    S.saveTimer = setTimeout(savePositions, 800);
  }
  /* Settle the nodes in `movable` among everything on screen plus `pending` (items about to be added, with
   * x/y): pending items get their new x/y, nodes already drawn are moved through the DataSet. */
  function settle(pending, movable, iterations, temperature) {
    const pos = S.network.getPositions();
    pending.forEach((item) => { pos[item.id] = { x: item.x, y: item.y }; });
    const places = GraphPlacement.settle(pos, movable, S.edgeList, iterations, temperature);
    const moved = [];
    pending.forEach((item) => {
      const xy = places.get(item.id);
      if (xy) { item.x = xy[0]; item.y = xy[1]; places.delete(item.id); }
    });
    places.forEach((xy, id) => moved.push({ id: id, x: xy[0], y: xy[1] }));
    if (moved.length) S.nodes.update(moved);
  }

  function relayout() {
    const started = performance.now();
    window.__graphStats.layoutRuns += 1;
    settle([], new Set(S.nodes.getIds()), S.nodes.length > 1000 ? 120 : 200, 105);
    window.__graphStats.lastLayoutMs = performance.now() - started;
    declutterHubs();
    S.network.fit({ animation: { duration: 400 } });
    savePositions();
  }

  function declutterHubs() {
    const hubs = Array.from(S.raw.values()).filter((r) => r.font && r.font.size > 13 && S.nodes.get(r.id));
    if (!hubs.length) return;
    const pos = S.network.getPositions(hubs.map((r) => r.id));
    const sizes = GraphPlacement.declutter(hubs.map((r) => ({ id: r.id, label: r.label, size: r.size,
                                                              font: r.font.size, x: pos[r.id].x, y: pos[r.id].y })));
    S.nodes.update(Array.from(sizes, ([id, size]) => ({ id: id, font: { size: size } })));
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
    const removed = S.nodes.getIds().filter((id) => !incoming.has(id));
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
    if (!added.length) {
      if (changed.length) declutterHubs();
      return removed.length + changed.length > 0;
    }
    const stored = loadPositions();
    const firstBatch = S.nodes.length === 0;
    const unplaced = added.filter((raw) => !stored[raw.id]).length;
    const started = performance.now();
    let items;
    if (firstBatch && unplaced > 1) {
      items = withPlaces(added, GraphPlacement.seedClusters(added));
      settle(items, new Set(items.map((item) => item.id)), added.length > 1000 ? 120 : 200, 210);
    } else {
      const docOf = (id) => (S.raw.get(id) || {}).doc || "";
      items = withPlaces(added, GraphPlacement.placeNear(S.network.getPositions(), docOf, added,
                                                         adjacencyOf(edges), stored));
      const movable = new Set(added.filter((raw) => !stored[raw.id]).map((raw) => raw.id));
      if (movable.size) settle(items, movable, 60, 70);
    }
    window.__graphStats.lastLayoutMs = performance.now() - started;
    S.nodes.add(items);
    saveSoon();
    declutterHubs();
    // while the user has not moved the view, a growing graph stays framed (never zoomed into a wall of labels)
    if (firstBatch) S.network.fit({ animation: false, maxZoomLevel: 0.9 });
    else if (!S.userMoved) S.network.fit({ animation: { duration: 300 }, maxZoomLevel: 0.9 });
    if (!firstBatch) flash(added.filter((raw) => !raw.ghost).map((raw) => raw.id));
    return true;
  }

  function applyEdges(list) {
    const incoming = new Set(list.map((e) => e.id));
    const removed = S.edges.getIds().filter((id) => !incoming.has(id));
    if (removed.length) {
      S.edges.remove(removed);
      removed.forEach((id) => S.edgeSig.delete(id));
    }
    const upsert = [];
    for (const raw of list) {
      const sig = JSON.stringify(raw);
      if (S.edgeSig.get(raw.id) === sig) continue;
      S.edgeSig.set(raw.id, sig);
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

  // ---- toolbar, legend, search --------------------------------------------------------------------------
  function updateCounts() {
    const related = S.edges.get({ filter: (e) => e.id.indexOf("related:") === 0 }).length;
    const conflicts = S.edges.length - related - S.edges.get({ filter: (e) => e.id.indexOf("lineage:") === 0 }).length;
    const ghosts = Array.from(S.raw.values()).filter((r) => r.ghost).length;
    window.__graphStats.ghosts = ghosts;
    el("counts").textContent = (S.nodes.length - ghosts) + " nodes · " + related + " related · " +
      conflicts + " conflicts";
    el("empty").hidden = S.nodes.length > 0;
  }

  function renderLegend(legend) {
    const box = el("legend");
    box.replaceChildren();
    const sources = legend.sources || [];
    const shown = sources.slice(0, 12);
    shown.forEach((s) => {
      const chip = node("span", "chip");
      const sw = node("span", "swatch");
      sw.style.background = s.color;
      chip.appendChild(sw);
      const name = node("span", "name", s.name);
      name.title = s.name;
      chip.appendChild(name);
      box.appendChild(chip);
    });
    if (sources.length > shown.length) {
      box.appendChild(node("span", "chip", "+" + (sources.length - shown.length) + " more"));
    }
    if (shown.length) box.appendChild(node("span", "sep"));
    [["line", "related"], ["line conflict", "pending conflict"], ["swatch merged", "merged node"],
     ["swatch ghost", "merged away"], ["line lineage", "lineage"], ["swatch new", "new"]].forEach((pair) => {
      const chip = node("span", "chip");
      chip.appendChild(node("span", pair[0]));
      chip.appendChild(node("span", "name", pair[1]));
      box.appendChild(chip);
    });
    const furniture = legend.furniture || [];
    if (furniture.length) {  // small faded dots: contents, notices, acronym lists ... ranked below body text
      const chip = node("span", "chip");
      chip.appendChild(node("span", "swatch furniture"));
      chip.appendChild(node("span", "name", "furniture: " + furniture.join(", ")));
      chip.title = "document furniture: kept and searchable, ranked below body text as evidence";
      box.appendChild(chip);
    }
  }

  function search(query) {
    const q = query.trim().toLowerCase();
    const list = el("hits");
    list.replaceChildren();
    S.hits = [];
    S.hitIndex = -1;
    if (!q) { list.hidden = true; el("hit-count").textContent = ""; S.network.unselectAll(); return; }
    for (const raw of S.raw.values()) {
      if (!raw.ghost && (raw.find || raw.label || "").toLowerCase().indexOf(q) >= 0) S.hits.push(raw.id);
    }
    el("hit-count").textContent = S.hits.length + (S.hits.length === 1 ? " match" : " matches");
    S.network.selectNodes(S.hits.slice(0, 500));
    S.hits.slice(0, 30).forEach((id, i) => {
      const raw = S.raw.get(id);
      const li = node("li");
      const dot = node("span", "dot");
      dot.style.background = (raw.color || {}).background || "#94a3b8";
      li.appendChild(dot);
      li.appendChild(node("span", "", (raw.tip && raw.tip.title) || raw.label || id));
      li.addEventListener("mousedown", (ev) => { ev.preventDefault(); goTo(i, true); });
      list.appendChild(li);
    });
    list.hidden = S.hits.length === 0;
  }

  function goTo(i, open) {
    if (!S.hits.length) return;
    S.hitIndex = ((i % S.hits.length) + S.hits.length) % S.hits.length;
    const id = S.hits[S.hitIndex];
    Array.from(el("hits").children).forEach((li, k) => li.classList.toggle("active", k === S.hitIndex));
    S.network.selectNodes([id]);
    S.network.focus(id, { scale: Math.max(S.network.getScale(), 1.1), animation: { duration: 450 } });
    if (open) { el("hits").hidden = true; sendClick(id); }
  }

  function wireToolbar() {
    const input = el("search");
    input.addEventListener("input", () => search(input.value));
    input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") { ev.preventDefault(); goTo(S.hitIndex + (ev.shiftKey ? -1 : 1), false); }
      if (ev.key === "Escape") { input.value = ""; search(""); }
    });
    input.addEventListener("blur", () => { el("hits").hidden = true; });
    input.addEventListener("focus", () => { if (S.hits.length) el("hits").hidden = false; });
    el("btn-fit").addEventListener("click", () => {
      S.userMoved = false;  // framing follows the growing graph again
      S.network.fit({ animation: { duration: 400 } });
    });
    el("btn-relayout").addEventListener("click", relayout);
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
    S.network.on("dragEnd", (p) => { if (p.nodes && p.nodes.length) { saveSoon(); declutterHubs(); } });
    // Until the user moves the view, keep it framed: the iframe can still change size after the first render.
    S.network.on("dragStart", () => { S.userMoved = true; });
    S.network.on("zoom", () => { S.userMoved = true; });
    S.network.on("resize", () => {
      if (S.userMoved || !S.nodes.length) return;
      S.network.fit({ animation: false, maxZoomLevel: 0.9 });
    });
    S.network.on("afterDrawing", () => {
      if (S.renderStart === null) return;
      window.__graphStats.lastRenderMs = performance.now() - S.renderStart;
      window.__graphStats.lastDrawnAt = performance.timeOrigin + performance.now();
      S.renderStart = null;
    });
    wireToolbar();
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
      doc: (id) => (S.raw.get(id) || {}).doc || null,
      selected: () => S.network.getSelectedNodes(),
      scale: () => S.network.getScale(),
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
      if (selected && selected !== S.lastClicked && S.nodes.get(selected)) {
        S.network.selectNodes([selected]);
        if (S.renders > 0) {
          // a new selection while the graph is on screen (a neighbour, a citation): centre it without zooming
          // into a wall of labels; a graph that just opened keeps its whole-graph view
          const scale = S.network.getScale();
          S.network.focus(selected, { scale: scale >= 0.35 && scale <= 0.75 ? scale : 0.55,
                                      animation: { duration: 400 } });
        }
      }
    }
  }

  function render(args) {
    S.renderStart = performance.now();
    const height = Math.max(240, Number(args.height) || 600);
    if (height !== S.height) { S.height = height; el("graph").style.height = height + "px"; }
    if (!S.network) createNetwork(args);
    const nodes = args.nodes || [], edges = args.edges || [];
    S.edgeList = edges;
    // Streamlit re-sends everything about once a second during a run; when nothing changed, nothing is redrawn
    const changed = applyNodes(nodes, edges) | applyEdges(edges) | S.renders === 0;
    if (S.nodes.length > 800 && !S.bigGraph) {
      S.bigGraph = true;
      S.network.setOptions({ interaction: { hideEdgesOnDrag: true, hideEdgesOnZoom: true } });
    }
    const legendKey = JSON.stringify(args.legend || {});
    if (legendKey !== S.legendKey) { S.legendKey = legendKey; renderLegend(args.legend || {}); }
    if (changed) updateCounts();
    applySelection(args);
    S.renders += 1;
    Object.assign(window.__graphStats, { renders: S.renders, nodes: S.nodes.length, edges: S.edges.length });
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
