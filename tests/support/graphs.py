"""A Query Graph with planted topic groups, for the community and drawing tests."""

from __future__ import annotations

import random

from memory_bank import NodeView

TOPICS = ("policy engine", "device agent", "threat model", "identity governance", "network segment")


def planted(per_group: int = 24, *, seed: int = 3, sources: int = 1) -> tuple[list[NodeView], list[tuple[str, str]]]:
    """Five dense groups joined by a few stray edges; each group's nodes share their topic keyword."""
    rng = random.Random(seed)
    nodes, edges = [], set()
    for g, topic in enumerate(TOPICS):
        for i in range(per_group):
            doc = f"doc{(g * per_group + i) % sources}.pdf"
            nodes.append(NodeView(id=f"g{g}n{i:02d}", context=f"{topic} detail {i}", summary=f"About {topic}.",
                                  keywords=(topic, f"detail {i}", "zero trust"), kind="text",
                                  timestamp=float(g * per_group + i), source_names=(doc,),
                                  source_labels=(f"{doc}, p. {i + 1}",), pages=(i + 1,), merged_from=()))
        for _ in range(per_group * 3):
            a, b = rng.sample(range(per_group), 2)
            edges.add((f"g{g}n{min(a, b):02d}", f"g{g}n{max(a, b):02d}"))
    for _ in range(6):
        g1, g2 = rng.sample(range(len(TOPICS)), 2)
        edges.add((f"g{g1}n{rng.randrange(per_group):02d}", f"g{g2}n{rng.randrange(per_group):02d}"))
    return nodes, sorted(edges)
