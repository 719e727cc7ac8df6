"""The Query Graph component: vis-network in an iframe, fed with pyvis network data, answering with clicks.

Why not pyvis's own HTML: it links CDNs (the app must work offline) and a fresh document per rerun would rebuild
the network every second, resetting positions. This component keeps one vis DataSet alive in its iframe and
applies only what changed.

`frontend/` is shipped as is and never written to. vis-network itself comes from the copy inside the pyvis wheel
(the single source of that file); Streamlit serves a component from one folder and refuses symlinks leading out
of it, so once per process the frontend and that copy are assembled in a private temp folder (removed at exit)
and the component is served from there. A changed `frontend/` file therefore shows after a server restart.
"""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import streamlit.components.v1 as components

FRONTEND = Path(__file__).resolve().parent / "frontend"
VENDOR_FILES = ("vis-network.min.js", "vis-network.css")
_BUILD_LOCK = threading.Lock()  # several browser sessions can reach their first render at the same moment


def pyvis_vis_dir() -> Path:
    """Where the pyvis wheel keeps its vis-network build."""
    import pyvis

    folder = Path(pyvis.__file__).resolve().parent / "lib" / "vis-9.1.2"
    missing = [name for name in VENDOR_FILES if not (folder / name).is_file()]
    if missing:
        raise FileNotFoundError(f"the pyvis wheel has no {', '.join(missing)} in {folder}; reinstall pyvis==0.3.2")
    return folder


def build_dir() -> Path:
    """The folder the component is served from: `frontend/` plus `vendor/` from pyvis, built once per process."""
    with _BUILD_LOCK:
        return _assemble()


@functools.cache
def _assemble() -> Path:
    source = pyvis_vis_dir()
    root = Path(tempfile.mkdtemp(prefix="memory-bank-graph-view-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    build = root / "frontend"
    shutil.copytree(FRONTEND, build, ignore=shutil.ignore_patterns(".*", "vendor"))
    (build / "vendor").mkdir()
    for name in VENDOR_FILES:
        shutil.copyfile(source / name, build / "vendor" / name)
    return build


@functools.cache
def _component() -> Any:
    """Declared once per process, on first use (the fragment redraws about once a second: no re-registering)."""
    return components.declare_component("graph_view", path=str(build_dir()))


@dataclass(frozen=True)
class GraphData:
    """What the frontend draws: pyvis node and edge dicts plus the legend.

    Node dicts may carry `tip` (tooltip parts, shown as text), `find` (search text), `doc` (source document),
    `group_key` (the topic group or document it is laid out with), `rank` and `hub` (label priority; hubs are
    labelled at every zoom), `where` (file and pages, for search results), `ghost` (a merged-away node) and
    `target` (the node a click opens); the frontend strips them, and the label it draws itself, before vis sees
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
               highlight: Sequence[str] = (), focus: Sequence[str] = (), replay: Sequence[list[Any]] = (),
               settled: bool = False) -> dict[str, str] | None:
    """Draw the graph; returns the last click as `{"node_id", "nonce"}` (a new nonce per click) or None.

    `graph_id` names the memory the graph belongs to: positions are kept per graph id in the browser tab, so the
    Run and Graph pages show the same layout and a new task starts a new one. `selected` and `highlight` move
    the selection from Python (deep-retrieval neighbours, timeline); they act only when they change. `focus`:
    the nodes the current question retrieved and their neighbours (focus mode fades the rest). `replay`: the
    compact event list the timeline plays back (`ui/replay.py`). `settled`: no run is changing the memory, so
    the component may lay a grown graph out again into topic islands.
    """
    return _component()(nodes=data.nodes, edges=data.edges, legend=data.legend, graph_id=graph_id, height=height,
                        selected=selected, highlight=list(highlight), focus=list(focus),
                        replay={"events": list(replay)} if replay else None, settled=settled, key=key,
                        default=None)
