"""The Query Graph component: vis-network in an iframe, fed with pyvis network data, answering with clicks.

Why not pyvis's own HTML: it links CDNs (the app must work offline) and a fresh document per rerun would rebuild
the network every second, resetting positions. This component keeps one vis DataSet alive in its iframe and
applies only what changed. vis-network itself comes from the copy inside the pyvis wheel, copied next to the
frontend at first render (the `vendor/` folder is gitignored: the wheel is the single source of that file).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit.components.v1 as components

FRONTEND = Path(__file__).resolve().parent / "frontend"
VENDOR = FRONTEND / "vendor"
VENDOR_FILES = ("vis-network.min.js", "vis-network.css")


def pyvis_vis_dir() -> Path:
    """Where the pyvis wheel keeps its vis-network build."""
    import pyvis

    folder = Path(pyvis.__file__).resolve().parent / "lib" / "vis-9.1.2"
    missing = [name for name in VENDOR_FILES if not (folder / name).is_file()]
    if missing:
        raise FileNotFoundError(f"the pyvis wheel has no {', '.join(missing)} in {folder}; reinstall pyvis==0.3.2")
    return folder


def ensure_vendor() -> Path:
    """Copy vis-network from the pyvis wheel into `frontend/vendor/` unless an identical copy is there.

    Written through a temp file and an atomic rename, because several browser sessions can reach their first
    render at the same moment.
    """
    source = pyvis_vis_dir()
    VENDOR.mkdir(parents=True, exist_ok=True)
    for name in VENDOR_FILES:
        src, dst = source / name, VENDOR / name
        if dst.is_file() and dst.stat().st_size == src.stat().st_size:
            continue
        fd, tmp = tempfile.mkstemp(dir=VENDOR, prefix=f".{name}.")
        os.close(fd)
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
    return VENDOR


_component = components.declare_component("graph_view", path=str(FRONTEND))


@dataclass(frozen=True)
class GraphData:
    """What the frontend draws: pyvis node and edge dicts plus the legend.

    Node dicts may carry `tip` (tooltip parts, shown as text), `find` (search text), `doc` (source document),
    `ghost` (a merged-away node) and `target` (the node a click opens); the frontend strips them before vis sees
    the node.
    """

    nodes: list[dict[str, Any]]
    edges: list[dict[str, Any]]
    legend: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_network(cls, network: Any, legend: dict[str, Any] | None = None) -> GraphData:
        """Take a pyvis `Network`'s data (`get_network_data()`); its HTML options are not used."""
        nodes, edges, *_ = network.get_network_data()
        return cls(nodes=list(nodes), edges=list(edges), legend=dict(legend or {}))


def graph_view(data: GraphData, *, graph_id: str, key: str, height: int = 600, selected: str | None = None,
               highlight: Sequence[str] = ()) -> dict[str, str] | None:
    """Draw the graph; returns the last click as `{"node_id", "nonce"}` (a new nonce per click) or None.

    `graph_id` names the memory the graph belongs to: positions are kept per graph id in the browser tab, so the
    Run and Graph pages show the same layout and a new task starts a new one. `selected` and `highlight` move
    the selection from Python (deep-retrieval neighbours, timeline); they act only when they change.
    """
    ensure_vendor()
    return _component(nodes=data.nodes, edges=data.edges, legend=data.legend, graph_id=graph_id, height=height,
                      selected=selected, highlight=list(highlight), key=key, default=None)
