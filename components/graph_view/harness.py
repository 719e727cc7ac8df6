"""A stand-in for Streamlit around the graph component, for its browser test and render benchmark.

It serves the component's frontend on 127.0.0.1 next to a host page that speaks the parent side of the component
protocol (answers `componentReady`, posts `render`, records `setComponentValue` with a timestamp), so the
component can be measured alone, without a Streamlit server's own start-up and websocket in the numbers. Not
imported by the app.
"""

from __future__ import annotations

import contextlib
import functools
import os
import random
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from . import build_dir

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

HOST_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>graph harness</title></head>
<body style="margin:0;padding:16px;background:#f6f7fb">
<iframe id="frame" src="index.html" style="width:1180px;height:700px;border:0"></iframe>
<script>
window.__ready = false; window.__values = []; window.__height = null; window.__pointerAt = null;
const frame = document.getElementById("frame");
const now = () => performance.timeOrigin + performance.now();
window.addEventListener("message", (e) => {
  const d = e.data;
  if (!d || !d.isStreamlitMessage) return;
  if (d.type === "streamlit:componentReady") window.__ready = true;
  if (d.type === "streamlit:setComponentValue") window.__values.push({value: d.value, at: now()});
  if (d.type === "streamlit:setFrameHeight") { window.__height = d.height; frame.style.height = d.height + "px"; }
});
frame.addEventListener("load", () => {
  frame.contentWindow.addEventListener("pointerdown", () => { window.__pointerAt = now(); }, true);
});
window.renderGraph = (args) => {
  window.__renderPostedAt = now();
  frame.contentWindow.postMessage({isStreamlitMessage: true, type: "streamlit:render", args: args}, "*");
};
</script>
</body></html>
"""


def chromium_path() -> str | None:
    """Debian's Chromium (what CI installs), or another chromium on PATH; None when there is none."""
    for candidate in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def launch_chromium(playwright):  # noqa: ANN001, ANN201 - playwright types are optional at import time
    path = chromium_path()
    if path is None:
        raise FileNotFoundError("no Chromium found (install Debian's `chromium` or set CHROMIUM_PATH)")
    return playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)


class _Handler(SimpleHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server API
        if self.path.split("?")[0] in ("/", "/harness.html"):
            body = HOST_PAGE.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - http.server API
        """Quiet: the test and the benchmark print what matters."""


@contextlib.contextmanager
def serve_frontend() -> Iterator[str]:
    """Serve the frontend and the host page on a free 127.0.0.1 port; yields the host page's URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(build_dir())))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/harness.html"
    finally:
        server.shutdown()
        server.server_close()


def synthetic_memory(n_nodes: int, n_edges: int, *, seed: int = 7, sources: int = 8, conflicts: int = 12,
                     merges: int = 10, hostile_text: str = ""):  # noqa: ANN201
    """Nodes, edges, pending conflicts and merge events shaped like a bank snapshot (clustered by document)."""
    from memory_bank import ConflictView, MergeEventView, NodeView

    rng = random.Random(seed)
    docs = [f"report-{i:02d}.pdf" for i in range(sources)]
    nodes = []
    for i in range(n_nodes):
        doc, page = docs[i % sources], rng.randint(1, 60)
        merged = (f"old{i}a", f"old{i}b") if i % 7 == 0 and i // 7 < merges else ()
        nodes.append(NodeView(id=f"n{i:05d}", context=f"Topic {i} {hostile_text}".strip(),
                              summary=f"Summary of topic {i}. {hostile_text}",
                              keywords=(f"kw{i % 50}", f"term{i % 13}"),
                              kind="text", timestamp=1_700_000_000.0 + i, source_names=(doc,),
                              source_labels=(f"{doc}, pp. {page}-{page + 1}",), pages=(page, page + 1),
                              merged_from=merged))
    edges: set[tuple[str, str]] = set()
    while len(edges) < n_edges:
        a = rng.randrange(n_nodes)
        b = (a + sources * rng.randint(1, 40)) % n_nodes if rng.random() < 0.85 else rng.randrange(n_nodes)
        if a != b:
            edges.add((nodes[min(a, b)].id, nodes[max(a, b)].id))
    pending = []
    for i in range(conflicts):
        x, y = rng.sample(nodes, 2)
        pending.append(ConflictView(id=f"c{i}", node_a=x.id, node_b=y.id, status="pending", created=0.0,
                                    description=f"Figures disagree {hostile_text}".strip()))
    merged = f"Duplicate passages merged {hostile_text}".strip()
    merge_events = [MergeEventView(event_id=f"m{i}", merged_node_ids=n.merged_from, new_node_id=n.id,
                                   timestamp=n.timestamp, description=merged, kind="merge")
                    for i, n in enumerate(nodes) if n.merged_from]
    return nodes, sorted(edges), pending, merge_events


def synthetic_replay(nodes, edges, conflicts=(), merges=()) -> list[list]:  # noqa: ANN001
    """A run log for `synthetic_memory`'s graph in the timeline's compact form: each node arrives, then its edges
    to nodes already there; merged-away nodes arrive before the node they become; each conflict is flagged once
    both sides exist and settled a little later."""
    t = 1_700_000_000.0
    out: list[list] = []
    present: set[str] = set()
    by_node: dict[str, list[tuple[str, str]]] = {}
    for a, b in edges:
        by_node.setdefault(max(a, b), []).append((a, b))
    merged_into = {m.new_node_id: m for m in merges}
    flagged = {c.id: c for c in conflicts}
    for node in sorted(nodes, key=lambda n: n.timestamp):
        t += 0.05
        merge = merged_into.get(node.id)
        if merge:
            for old in merge.merged_node_ids:
                out.append([t, "n", old, "", f"early {old}"])
            out.append([t, "m", node.id, list(merge.merged_node_ids), "duplicates merged"])
        else:
            out.append([t, "n", node.id, "", node.context])
        present.add(node.id)
        for a, b in by_node.get(node.id, []):
            if a in present and b in present:
                out.append([t, "e", a, b])
        for cid, c in list(flagged.items()):
            if c.node_a in present and c.node_b in present:
                out.append([t, "c", cid, [c.node_a, c.node_b], c.description])
                del flagged[cid]
    return out
