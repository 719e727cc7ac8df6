/* The legend: the topic groups (or source documents) with their colours, names and sizes, then the marks.
 *
 * A group's chip selects and frames its nodes. Names are document keywords: set with textContent only.
 */
"use strict";

window.GraphLegend = (function () {
  let C = null;  // graph.js context: S, el, make

  function chip(swatchClass, name, title) {
    const c = C.make("span", "chip");
    c.appendChild(C.make("span", swatchClass));
    c.appendChild(C.make("span", "name", name));
    if (title) c.title = title;
    return c;
  }

  function render(legend) {
    const S = C.S;
    const box = C.el("legend");
    box.replaceChildren();
    const groups = legend.groups || [];
    if (groups.length) box.appendChild(C.make("span", "legend-head", legend.by === "community" ? "Topics" : "Sources"));
    groups.slice(0, 12).forEach((g) => {
      const c = C.make("button", "chip group");
      c.type = "button";
      const sw = C.make("span", "swatch");
      sw.style.background = g.color;
      c.appendChild(sw);
      c.appendChild(C.make("span", "name", g.name));
      if (g.count) c.appendChild(C.make("span", "count", g.count));
      c.title = g.name + (g.count ? " — " + g.count + " nodes; click to show them" : "");
      c.addEventListener("click", () => {
        const ids = (g.members || Array.from(S.raw.values()).filter((r) => r.doc === g.name).map((r) => r.id))
          .filter((id) => S.nodes.get(id));
        if (!ids.length) return;
        S.userMoved = true;
        S.network.selectNodes(ids);
        S.network.fit({ nodes: ids, animation: { duration: 450 }, maxZoomLevel: 1.2 });
      });
      box.appendChild(c);
    });
    if (groups.length > 12) box.appendChild(C.make("span", "chip", "+" + (groups.length - 12) + " more"));
    if (groups.length) box.appendChild(C.make("span", "sep"));
    [["line", "related"], ["line conflict", "pending conflict"], ["swatch merged", "merged node"],
     ["swatch ghost", "merged away"], ["line lineage", "lineage"], ["swatch new", "new"]].forEach((pair) => {
      box.appendChild(chip(pair[0], pair[1]));
    });
    const furniture = legend.furniture || [];
    if (furniture.length) {  // small faded dots: contents, notices, acronym lists ... ranked below body text
      box.appendChild(chip("swatch furniture", "furniture: " + furniture.join(", "),
                           "document furniture: kept and searchable, ranked below body text as evidence"));
    }
  }

  return { init: (context) => { C = context; }, render: render };
})();
