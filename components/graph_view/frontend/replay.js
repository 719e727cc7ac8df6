/* Replay: the timeline under the graph plays back how the memory grew, from the run's compact event list.
 *
 * Events are [t, kind, a, b, text]: "n" node a added (text: its label), "e" related edge a–b, "c" conflict a
 * flagged between the nodes in b, "r" conflict a settled, "m" nodes b merged into a. The state at step k is
 * rebuilt from the events (forward steps apply one event each; scrubbing back replays from the start, O(k)), and
 * only the difference from what is on screen is applied. Showing and hiding goes straight to vis-network's own
 * `hidden` flags and visible-index lists (what its `_updateVisibleIndices` computes), not through the DataSets:
 * a DataSet update makes vis re-derive its clustering state for the whole graph, about 50 ms at 2,000 nodes,
 * too slow for one frame. Playback never round-trips through Streamlit. Nodes keep their final places,
 * so a moment looks like the graph did then; a node merged away since (absent from the final graph) is drawn
 * for its lifetime beside the node it went into, and a conflict settled since is drawn as the red dashed link it
 * was while it waited.
 */
"use strict";

window.GraphReplay = (function () {
  const TEMP = "replay:";
  let C = null;  // graph.js context: S, el, make, visItem, applyFocus
  const R = { events: [], key: "", active: false, playing: false, step: 0, speed: 60, state: null, stateStep: 0,
              shownNodes: new Set(), shownEdges: new Set(), styled: new Set(), temp: new Set(), frames: [],
              successor: new Map(), lastFrame: 0, carry: 0, initial: [], edgesAt: new Map(),
              conflictEdge: new Map() };

  function fresh() {
    const visible = new Set(R.initial);
    return { visible: visible, edges: new Map(), conflicts: new Map(), labels: new Map(), born: new Set() };
  }
  const shorten = (t) => (!t ? null : t.length <= 34 ? t : t.slice(0, 33).trimEnd() + "…");
  const edgeKey = (a, b) => (a < b ? a + "|" + b : b + "|" + a);

  function apply(st, ev) {
    const kind = ev[1], a = ev[2], b = ev[3];
    if (kind === "n") { st.visible.add(a); if (ev[4]) st.labels.set(a, ev[4]); }
    else if (kind === "e") { if (a !== b) st.edges.set(edgeKey(a, b), [a, b]); }
    else if (kind === "c") st.conflicts.set(a, [b[0], b[1]]);
    else if (kind === "r") st.conflicts.delete(a);
    else if (kind === "m") {
      const olds = new Set(b);
      olds.forEach((o) => st.visible.delete(o));
      st.visible.add(a);
      st.born.add(a);
      for (const [k, pair] of Array.from(st.edges)) {
        if (!olds.has(pair[0]) && !olds.has(pair[1])) continue;
        st.edges.delete(k);
        const x = olds.has(pair[0]) ? a : pair[0], y = olds.has(pair[1]) ? a : pair[1];
        if (x !== y) st.edges.set(edgeKey(x, y), [x, y]);
      }
      st.conflicts.forEach((pair, cid) => {
        const x = olds.has(pair[0]) ? a : pair[0], y = olds.has(pair[1]) ? a : pair[1];
        if (x === y) st.conflicts.delete(cid); else st.conflicts.set(cid, [x, y]);
      });
    }
  }

  function stateAt(k) {
    if (!R.state || k < R.stateStep) { R.state = fresh(); R.stateStep = 0; }
    while (R.stateStep < k) apply(R.state, R.events[R.stateStep++]);
    return R.state;
  }

  // ---- what the DataSets show -----------------------------------------------------------------------------
  function finalOf(id) {
    let cur = id;
    for (let i = 0; i < 50 && R.successor.has(cur); i++) cur = R.successor.get(cur);
    return cur;
  }
  function dataId(id) { return C.S.raw.has(id) ? id : TEMP + id; }

  function ensureTempNode(id, label) {
    const S = C.S, did = TEMP + id;
    if (R.temp.has(did)) return did;
    const home = S.network.getPositions([finalOf(id)])[finalOf(id)];
    if (!home) return null;
    const raw = S.raw.get(finalOf(id)) || {};
    let h = 0;
    for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) % 6283;
    S.nodes.add({ id: did, x: home.x + 38 * Math.cos(h / 1000), y: home.y + 38 * Math.sin(h / 1000), size: 10,
                  shape: "dot", color: raw.color || "#94a3b8", borderWidth: 1.5, hidden: true,
                  title: label || id });
    R.temp.add(did);
    return did;
  }

  function link(nodeId, edgeId) {
    if (!R.edgesAt.has(nodeId)) R.edgesAt.set(nodeId, []);
    R.edgesAt.get(nodeId).push(edgeId);
  }

  function ensureTempEdge(did, a, b, conflict) {
    if (R.temp.has(did)) return;
    const item = { id: did, from: a, to: b, hidden: true };
    if (conflict) Object.assign(item, { color: { color: "#e03131", highlight: "#e03131", hover: "#e03131" },
                                        dashes: [8, 6], width: 2.4 });
    C.S.edges.add(item);
    R.temp.add(did);
    link(a, did);
    link(b, did);
  }

  /* Bring the DataSets to step k. Forward by a few events (playback) only the nodes and edges those events
   * touch are looked at; a jump (scrubbing) compares everything, which is O(nodes + edges) of Set work. */
  function show(k) {
    const S = C.S;
    const forward = R.state && k >= R.stateStep && k - R.stateStep <= 400;
    const touched = forward ? new Set() : null;
    if (forward) {
      for (let i = R.stateStep; i < k; i++) {
        const ev = R.events[i];
        touched.add(ev[2]);
        if (Array.isArray(ev[3])) ev[3].forEach((id) => touched.add(id)); else if (ev[3]) touched.add(ev[3]);
      }
    }
    const st = stateAt(k);
    const hasEdge = (id) => S.edgeSig.has(id) || R.temp.has(id);
    const wantNodes = new Set(), wantEdges = new Set();
    const considerNode = (id) => {
      if (!st.visible.has(id)) return;
      const did = S.raw.has(id) ? id : ensureTempNode(id, st.labels.get(id));
      if (did) wantNodes.add(did);
    };
    const considerEdge = (pair) => {
      const a = dataId(pair[0]), b = dataId(pair[1]);
      if (!st.visible.has(pair[0]) || !st.visible.has(pair[1])) return;
      if (!(S.raw.has(a) || R.temp.has(a)) || !(S.raw.has(b) || R.temp.has(b))) return;
      let did = "related:" + a + "|" + b;
      if (!hasEdge(did)) did = "related:" + b + "|" + a;
      if (!hasEdge(did)) { did = TEMP + "e:" + edgeKey(a, b); ensureTempEdge(did, a, b, false); }
      wantEdges.add(did);
    };
    const considerConflict = (pair, cid) => {
      if (!st.visible.has(pair[0]) || !st.visible.has(pair[1])) return;
      const a = dataId(pair[0]), b = dataId(pair[1]);
      let did = "conflict:" + cid;
      if (!hasEdge(did)) { did = TEMP + "c:" + cid; ensureTempEdge(did, a, b, true); }
      R.conflictEdge.set(cid, did);
      wantEdges.add(did);
    };
    let staleNodes, staleEdges;
    if (forward) {
      // start from what is shown; re-judge only what the new events touched (and edges at touched nodes)
      R.shownNodes.forEach((id) => wantNodes.add(id));
      R.shownEdges.forEach((id) => wantEdges.add(id));
      staleNodes = new Set();
      staleEdges = new Set();
      touched.forEach((id) => {
        const did = dataId(id);
        if (wantNodes.delete(did)) staleNodes.add(did);
        (R.edgesAt.get(did) || []).forEach((eid) => { if (wantEdges.delete(eid)) staleEdges.add(eid); });
        if (st.conflicts.has(id) || R.conflictEdge.has(id)) {
          const eid = R.conflictEdge.get(id);
          if (eid && wantEdges.delete(eid)) staleEdges.add(eid);
        }
      });
      touched.forEach(considerNode);
      st.edges.forEach((pair) => { if (touched.has(pair[0]) || touched.has(pair[1])) considerEdge(pair); });
      st.conflicts.forEach((pair, cid) => {
        if (touched.has(cid) || touched.has(pair[0]) || touched.has(pair[1])) considerConflict(pair, cid);
      });
    } else {
      st.visible.forEach(considerNode);
      st.edges.forEach(considerEdge);
      st.conflicts.forEach(considerConflict);
    }
    const body = S.network.body, restyle = [];
    wantNodes.forEach((id) => {
      if (R.shownNodes.has(id)) return;
      if (body.nodes[id]) body.nodes[id].options.hidden = false;
      const raw = S.raw.get(id);
      if (raw && raw.ghost && !R.styled.has(id)) {  // not merged yet at this moment: drawn as the node it was
        const into = S.raw.get(raw.target) || {};
        restyle.push({ id: id, size: 10, color: into.color, shapeProperties: { borderDashes: false } });
        R.styled.add(id);
      }
    });
    (forward ? staleNodes : R.shownNodes).forEach((id) => {
      if (!wantNodes.has(id) && body.nodes[id]) body.nodes[id].options.hidden = true;
    });
    wantEdges.forEach((id) => { if (body.edges[id]) body.edges[id].options.hidden = false; });
    (forward ? staleEdges : R.shownEdges).forEach((id) => {
      if (!wantEdges.has(id) && body.edges[id]) body.edges[id].options.hidden = true;
    });
    if (restyle.length) S.nodes.update(restyle);
    reindex();
    R.shownNodes = wantNodes;
    R.shownEdges = wantEdges;
    R.step = k;
    status();
  }

  /* An amber ring around the nodes that arrived (or were merged) in the last few steps: what just happened. */
  function drawRecent(ctx) {
    const body = C.S.network.body, rings = [];
    for (let i = R.step - 1; i >= 0 && rings.length < 6 && i >= R.step - 40; i--) {
      const ev = R.events[i];
      if (ev[1] === "n" || ev[1] === "m") rings.push(body.nodes[dataId(ev[2])]);
    }
    ctx.save();
    ctx.strokeStyle = "rgba(250,176,5,0.9)";
    ctx.lineWidth = 4 / Math.max(0.2, C.S.network.getScale());
    rings.forEach((n, k) => {
      if (!n || n.options.hidden) return;
      ctx.globalAlpha = 1 - k * 0.14;
      ctx.beginPath();
      ctx.arc(n.x, n.y, (n.options.size || 10) + 6 / Math.max(0.2, C.S.network.getScale()), 0, 2 * Math.PI);
      ctx.stroke();
    });
    ctx.restore();
  }

  /* vis-network's visible-index lists, from the hidden flags (as its _updateVisibleIndices does, no clusters). */
  function reindex() {
    const body = C.S.network.body, nodes = body.nodes, edges = body.edges;
    const nodeIndices = [], edgeIndices = [];
    for (const id in nodes) if (!nodes[id].options.hidden) nodeIndices.push(nodes[id].id);
    for (const id in edges) {
      const e = edges[id], a = nodes[e.fromId], b = nodes[e.toId];
      if (!e.options.hidden && a && b && !a.options.hidden && !b.options.hidden) edgeIndices.push(e.id);
    }
    body.nodeIndices = nodeIndices;
    body.edgeIndices = edgeIndices;
    C.S.network.redraw();
  }
  function hideAll(hidden) {
    const body = C.S.network.body;
    for (const id in body.nodes) body.nodes[id].options.hidden = hidden;
    for (const id in body.edges) body.edges[id].options.hidden = hidden;
  }

  // ---- entering and leaving -------------------------------------------------------------------------------
  function enter() {
    if (R.active) return;
    const S = C.S;
    R.active = true;
    S.replay = { label: (id) => shorten(R.state && R.state.labels.get(id.startsWith(TEMP) ? id.slice(TEMP.length) : id)),
                 extraIds: () => Array.from(R.temp).filter((id) => S.nodes.get(id) && !S.edges.get(id)),
                 drawRecent: drawRecent };
    C.applyFocus();  // off while replaying: everything at full opacity
    hideAll(true);
    reindex();
    R.shownNodes = new Set(); R.shownEdges = new Set(); R.state = null;
    C.el("timeline").classList.add("active");
    C.el("rp-exit").hidden = false;
  }

  function exit() {
    if (!R.active) return;
    const S = C.S;
    pause();
    R.active = false;
    S.replay = null;
    const temps = Array.from(R.temp);
    S.edges.remove(temps.filter((id) => S.edges.get(id)));
    S.nodes.remove(temps.filter((id) => S.nodes.get(id)));
    R.temp.clear();
    R.conflictEdge.clear();
    R.edgesAt = new Map();
    S.edgeList.forEach((e) => { link(e.from, e.id); link(e.to, e.id); });
    hideAll(false);
    const restore = Array.from(R.styled).filter((id) => S.raw.has(id)).map((id) => C.visItem(S.raw.get(id)));
    if (restore.length) S.nodes.update(restore);
    R.styled.clear();
    reindex();
    R.step = R.events.length;
    C.applyFocus();
    C.el("timeline").classList.remove("active");
    C.el("rp-exit").hidden = true;
    status();
    S.network.redraw();
  }

  // ---- playback -------------------------------------------------------------------------------------------
  function frame(now) {
    if (!R.playing) return;
    const dt = R.lastFrame ? now - R.lastFrame : 16.7;
    R.lastFrame = now;
    const started = performance.now();
    R.carry += (dt / 1000) * R.speed;
    const next = Math.min(R.events.length, R.step + Math.floor(R.carry));
    R.carry -= Math.floor(R.carry);
    if (next !== R.step) { show(next); C.el("rp-range").value = String(next); }
    R.frames.push({ interval: dt, work: performance.now() - started });
    if (R.frames.length > 5000) R.frames.shift();
    if (R.step >= R.events.length) { pause(); return; }
    requestAnimationFrame(frame);
  }
  function play() {
    enter();
    if (R.step >= R.events.length) show(0);
    R.playing = true;
    R.lastFrame = 0;
    R.carry = 0;
    C.el("rp-play").textContent = "❚❚ Pause";
    requestAnimationFrame(frame);
  }
  function pause() {
    R.playing = false;
    C.el("rp-play").textContent = "▶ Replay";
  }
  function seek(k) {
    enter();
    show(Math.max(0, Math.min(R.events.length, k)));
    C.el("rp-range").value = String(R.step);
    C.S.network.redraw();
  }

  function describe(ev) {
    const kind = ev[1];
    if (kind === "n") return "node added: " + (ev[4] || ev[2]);
    if (kind === "e") return "related edge";
    if (kind === "c") return "conflict flagged" + (ev[4] ? ": " + ev[4] : "");
    if (kind === "r") return "conflict settled" + (ev[4] ? ": " + ev[4] : "");
    if (kind === "m") return ev[3].length + " nodes merged" + (ev[4] ? ": " + ev[4] : "");
    return kind;
  }
  function clock(t) {
    const d = new Date(t * 1000);
    return [d.getHours(), d.getMinutes(), d.getSeconds()].map((v) => String(v).padStart(2, "0")).join(":");
  }
  function status() {
    const n = R.events.length;
    const text = !R.active ? n + " events recorded — replay how the memory grew"
      : "step " + R.step + " / " + n + (R.step ? " · " + clock(R.events[R.step - 1][0]) + " · " +
                                        describe(R.events[R.step - 1]) : " · empty memory");
    C.el("rp-status").textContent = text;
    C.el("rp-status").title = text;
  }

  // ---- wiring ---------------------------------------------------------------------------------------------
  function init(context) {
    C = context;
    C.el("rp-play").addEventListener("click", () => (R.playing ? pause() : play()));
    C.el("rp-range").addEventListener("input", (ev) => { pause(); seek(Number(ev.target.value)); });
    C.el("rp-speed").addEventListener("change", (ev) => { R.speed = Number(ev.target.value) || 60; });
    C.el("rp-exit").addEventListener("click", exit);
    window.__graphReplay = {
      seek: seek, play: play, pause: pause, exit: exit,
      setSpeed: (v) => { R.speed = v; C.el("rp-speed").value = String(v); },
      state: () => ({ active: R.active, playing: R.playing, step: R.step, total: R.events.length }),
      frames: () => R.frames.slice(),
      resetFrames: () => { R.frames = []; },
    };
  }

  /* New data from Python: the event list (or null). Returns true when the drawing changed. */
  function update(replay) {
    const events = (replay && replay.events) || [];
    const key = events.length + ":" + (events.length ? events[events.length - 1][0] + events[0][0] : "");
    if (key === R.key) return false;
    R.key = key;
    R.events = events;
    R.successor = new Map();
    const seen = new Set();
    events.forEach((ev) => {
      if (ev[1] === "n") seen.add(ev[2]);
      if (ev[1] === "m") { seen.add(ev[2]); ev[3].forEach((o) => R.successor.set(o, ev[2])); }
    });
    // nodes the log does not cover (an import without its log, a log cut short) are there from the start
    R.initial = Array.from(C.S.raw.values()).filter((r) => !r.ghost && !seen.has(r.id)).map((r) => r.id);
    R.state = null;
    R.edgesAt = new Map();
    C.S.edgeList.forEach((e) => { link(e.from, e.id); link(e.to, e.id); });
    R.temp.forEach((id) => { const e = C.S.edges.get(id); if (e && e.from) { link(e.from, id); link(e.to, id); } });
    C.el("timeline").hidden = events.length === 0;
    const range = C.el("rp-range");
    range.max = String(events.length);
    if (!R.active) { R.step = events.length; range.value = String(events.length); }
    else show(Math.min(R.step, events.length));
    status();
    return R.active;
  }

  return { init: init, update: update };
})();
