/* Focus mode: the nodes the current question retrieved and their neighbourhood stay, the rest fades.
 *
 * A new focus list from Python (a question answered) turns the mode on and frames those nodes; the toolbar's
 * Focus button toggles it. Fading is opacity on nodes and edges, so positions and clicks are unchanged.
 */
"use strict";

window.GraphFocus = (function () {
  const FADED = 0.13;  // opacity of what focus mode sets aside
  let C = null;  // graph.js context: S, el, edgeColor

  function apply() {
    const S = C.S;
    const on = S.focusOn && S.focus.size > 0 && !S.replay;
    C.el("btn-focus").setAttribute("aria-pressed", on ? "true" : "false");
    C.el("btn-focus").disabled = S.focus.size === 0;
    const nodeUpdates = [], edgeUpdates = [];
    S.nodes.getIds().forEach((id) => {
      const want = on && !S.focus.has(id) ? FADED : 1;
      const cur = S.nodes.get(id).opacity;
      if ((cur === undefined ? 1 : cur) !== want) nodeUpdates.push({ id: id, opacity: want });
    });
    S.edges.forEach((e) => {
      const raw = S.edgeRaw.get(e.id);
      if (!raw) return;
      const inside = S.focus.has(e.from) && S.focus.has(e.to);
      const want = on && !inside ? FADED : 1;
      const cur = e.color && e.color.opacity !== undefined ? e.color.opacity : 1;
      if (cur !== want) edgeUpdates.push({ id: e.id, color: Object.assign({}, C.edgeColor, raw.color || {},
                                                                         { opacity: want }) });
    });
    if (nodeUpdates.length) S.nodes.update(nodeUpdates);
    if (edgeUpdates.length) S.edges.update(edgeUpdates);
    return on;
  }
  function set(args) {
    const S = C.S;
    const ids = (args.focus || []).filter((id) => S.raw.has(id));
    const key = JSON.stringify(ids);
    if (key === S.focusKey) return;
    S.focusKey = key;
    S.focus = new Set(ids);
    S.focusOn = ids.length > 0;  // a new question's nodes: shown in focus at once, framed
    if (apply()) {
      S.network.fit({ nodes: ids, animation: S.renders > 0 ? { duration: 450 } : false, maxZoomLevel: 1.1 });
      S.userMoved = true;
    }
  }
  function toggle() {
    const S = C.S;
    S.focusOn = !S.focusOn;
    if (apply()) {
      S.network.fit({ nodes: Array.from(S.focus), animation: { duration: 400 }, maxZoomLevel: 1.2 });
    } else {
      S.network.fit({ animation: { duration: 400 } });  // focus off: the whole graph again
    }
    S.userMoved = true;
    S.network.redraw();
  }

  return { init: (context) => { C = context; }, apply: apply, set: set, toggle: toggle, FADED: FADED };
})();
