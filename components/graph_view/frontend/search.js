/* Search over the nodes' context, keywords and summaries, with a readable list of results.
 *
 * Every word of the query must start a word (case-insensitive) in a node's searchable text ("42" does not find
 * "142", "enforce" finds "enforcement"), or a query of several words may stand as its acronym ("Policy
 * Enforcement Point" also finds nodes that say "PEP", as documents do after the first mention); a node whose label holds
 * the whole phrase ranks first, then the phrase in its keywords or summary, then the words scattered. A result
 * shows the label, a snippet around the match, and the file with its printed pages. Text is only ever set with
 * textContent.
 */
"use strict";

window.GraphSearch = (function () {
  const MAX_SHOWN = 40;
  const SNIPPET = 70;  // characters either side of the match

  const norm = (t) => " " + String(t || "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ");
  function words(q) { return norm(q).split(" ").filter(Boolean); }
  const cache = new WeakMap();  // raw node -> [label, text] normalised once

  /* Score one node for the query: 0 when a word is missing. */
  function score(raw, phrase, terms, acronym) {
    let texts = cache.get(raw);
    if (!texts) { texts = [norm(raw.label) + " ", norm(raw.find) + " "]; cache.set(raw, texts); }
    const label = texts[0], text = texts[1];
    const has = (t) => label.indexOf(" " + t + " ") >= 0 || text.indexOf(" " + t + " ") >= 0;
    const missing = terms.some((t) => label.indexOf(" " + t) < 0 && text.indexOf(" " + t) < 0);
    if (missing) return acronym && has(acronym) ? 1 + Math.max(0, raw.rank || 0) : 0;
    let s = 2;
    if (label.indexOf(" " + phrase) >= 0) s += 6;
    else if (text.indexOf(" " + phrase) >= 0) s += 3;
    return s + Math.max(0, raw.rank || 0);
  }

  /* Up to `limit` ids of matching nodes, best first. raws: iterable of raw nodes. */
  function find(raws, query, limit) {
    const terms = words(query), phrase = terms.join(" ");
    if (!terms.length) return [];
    const acronym = terms.length >= 2 && terms.length <= 6 ? terms.map((t) => t[0]).join("") : "";
    const hits = [];
    for (const raw of raws) {
      if (raw.ghost) continue;
      const s = score(raw, phrase, terms, acronym);
      if (s > 0) hits.push([s, raw.id]);
    }
    hits.sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : 1));
    return hits.slice(0, limit || hits.length).map((h) => h[1]);
  }

  /* The part of a node's text around the first match of the phrase (else of its first word). */
  function snippet(raw, query) {
    const text = (raw.find || "").replace(/\s+/g, " ");
    const lower = text.toLowerCase(), terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    let at = lower.indexOf(terms.join(" "));
    if (at < 0) at = terms.length ? lower.indexOf(terms[0]) : -1;
    if (at < 0 && terms.length >= 2) {  // matched by its acronym
      const m = new RegExp("\\b" + terms.map((t) => t[0]).join("") + "\\b", "i").exec(text);
      if (m) at = m.index;
    }
    if (at < 0) return text.slice(0, 2 * SNIPPET);
    const start = Math.max(0, at - SNIPPET), end = Math.min(text.length, at + terms.join(" ").length + SNIPPET);
    return (start > 0 ? "…" : "") + text.slice(start, end) + (end < text.length ? "…" : "");
  }

  /* One list item: colour dot, label, snippet, file and pages. */
  function item(raw, query, make) {
    const li = make("li", "hit");
    const dot = make("span", "dot");
    dot.style.background = (raw.color || {}).background || "#94a3b8";
    li.appendChild(dot);
    const body = make("div", "hit-body");
    body.appendChild(make("div", "hit-label", (raw.tip && raw.tip.title) || raw.label || raw.id));
    body.appendChild(make("div", "hit-snippet", snippet(raw, query)));
    if (raw.where) body.appendChild(make("div", "hit-where", raw.where));
    li.appendChild(body);
    return li;
  }

  return { find: find, snippet: snippet, item: item, MAX_SHOWN: MAX_SHOWN };
})();
