"""Start → first node on screen → answer, for the NIST PDF on the offline engine, in the real app and browser.

    python bench/ui_first_node.py [--runs 2] [--core]

Starts `streamlit run app.py` on 127.0.0.1 (offline engine), drives headless Chromium: upload
samples/NIST.SP.800-207.pdf, type the question, click Start. The clock starts at the click; "first node" is the
first poll (every 100 ms) where the graph component has drawn a node; "answer" is when the Run page shows Done.
The clock starts once the sidebar says the embedding model (loaded in the background from the first page view)
is ready, as it is by the time a user has picked a file and typed a question.
Each cold run gets a fresh server (empty embedding cache, as for a new document); one warm run follows in a new
browser session on the last server (same PDF again: its embeddings are cached).
`--core` also times `MemoryBank.run` alone in this process (first NodeAdded event, result), to show how much of
the wait is the engine and how much the UI. Results also go to bench/results/ui_first_node.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from components.graph_view.harness import launch_chromium  # noqa: E402
from tests.ui.app_server import running_app  # noqa: E402

PDF = ROOT / "samples" / "NIST.SP.800-207.pdf"
QUESTION = "How does the policy engine decide whether to grant access to a resource?"
NODES_DRAWN = """() => { const f = document.querySelector('iframe[src*="graph_view"]');
  const s = f && f.contentWindow && f.contentWindow.__graphStats; return s ? s.nodes : 0; }"""


def one_run(browser, url: str) -> dict[str, float]:
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    page.goto(url)
    page.get_by_role("button", name="Run the sample").wait_for(timeout=120_000)
    for _ in range(240):  # the app loads the embedding model in the background from the first page view
        if page.get_by_text("Embedding model: ready").count():
            break
        page.wait_for_timeout(500)
        page.reload()
        page.get_by_role("button", name="Run the sample").wait_for(timeout=120_000)
    page.locator('input[type="file"]').first.set_input_files(str(PDF))
    page.get_by_text(PDF.name).first.wait_for(timeout=30_000)
    page.get_by_label("Question or task").fill(QUESTION)
    start = time.monotonic()
    page.get_by_role("button", name="Start").click()
    first = None
    while first is None and time.monotonic() - start < 600:
        if page.evaluate(NODES_DRAWN) > 0:
            first = time.monotonic() - start
        else:
            page.wait_for_timeout(100)
    page.get_by_text("Done", exact=True).wait_for(timeout=600_000)
    answer = time.monotonic() - start
    nodes = page.evaluate(NODES_DRAWN)
    page.close()
    return {"first_node_s": round(first, 2), "answer_s": round(answer, 2), "nodes": nodes}


def core_only() -> dict[str, float]:
    from memory_bank import MemoryBank, Settings
    from memory_bank.events import NodeAdded

    bank = MemoryBank(Settings(engine="offline"))
    seen: list[float] = []
    bank.subscribe(lambda e: isinstance(e, NodeAdded) and not seen and seen.append(time.monotonic()))
    start = time.monotonic()
    bank.run(QUESTION, files=[PDF])
    return {"first_node_s": round(seen[0] - start, 2), "answer_s": round(time.monotonic() - start, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--core", action="store_true", help="also time MemoryBank.run without the UI")
    opts = parser.parse_args()
    from playwright.sync_api import sync_playwright

    runs, warm = [], None
    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        for i in range(opts.runs):
            with running_app(ROOT / "artifacts" / "bench_ui_first_node.log") as url:
                runs.append(one_run(browser, url))
                if i == opts.runs - 1:
                    warm = one_run(browser, url)
        browser.close()
    result = {
        "pdf": PDF.name, "engine": "offline", "cold_runs": runs, "warm_run": warm,
        "cold_first_node_s_median": statistics.median(r["first_node_s"] for r in runs),
        "cold_answer_s_median": statistics.median(r["answer_s"] for r in runs),
    }
    if opts.core:
        result["core_only"] = core_only()
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "ui_first_node.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
