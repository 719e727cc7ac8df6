"""The app in a real browser: Debian's Chromium through Playwright, against `streamlit run app.py` on 127.0.0.1.

A user's path through the demo: upload the NIST PDF, ask a question, watch the graph fill, click a node on the
canvas, read its raw text in deep retrieval (checked against the PDF's own pages, read here with pypdfium2),
download the export and check it. Every request the browser makes is recorded and routed: anything not for
127.0.0.1 is aborted and fails the test. Screenshots go to artifacts/.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from .app_server import ROOT, app_process, dump_threads, running_app

QUESTION = "How does the policy engine decide whether to grant access to a resource?"
# A note that tries everything a document can try on a page: a script, an image that reports home, a Markdown
# image and a javascript: link. None of it may run or fetch anything.
HOSTILE = ("Hostile vendor note\n\nThe vendor appliance ships a policy engine plug-in. "
           "<script>window.parent.__pwned = 1</script> <img src=\"http://evil.example/p.png\" "
           "onerror=\"window.parent.__pwned = 2\"> ![pixel](http://evil.example/md.png) [docs](javascript:alert(1))\n")


def _alnum(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _pdf_pages(path: Path, first: int, last: int) -> str:
    import pypdfium2

    pdf = pypdfium2.PdfDocument(str(path))
    try:
        return " ".join(pdf[i - 1].get_textpage().get_text_range() for i in range(first, last + 1))
    finally:
        pdf.close()


def _in_graph(page, script: str, arg=None):  # noqa: ANN001, ANN202 - playwright Page
    """Evaluate `script` (a function of the graph iframe's window and `arg`) from the parent page.

    The component's iframe is same-origin, so the page can reach into it; this does not depend on Playwright
    attaching to the frame, which newer Chromium builds do not always report in time.
    """
    return page.evaluate(
        "([body, arg]) => { const f = document.querySelector('iframe[src*=\"graph_view\"]');"
        " if (!f || !f.contentWindow || !f.contentWindow.__graphStats) return null;"
        " return (new Function('w', 'arg', body))(f.contentWindow, arg); }", [script, arg])


def _wait(predicate, timeout: float, what: str):  # noqa: ANN001, ANN202
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.25)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


class Watch:
    """Waits on the page like `_wait`, but a timeout or an error on the page fails at once with what a person
    at the screen would see (the page's text), a screenshot, and where every server thread is (its stacks): a
    hang on a CI machine must say where it hangs."""

    def __init__(self, page, proc, log_path: Path, artifacts: Path) -> None:  # noqa: ANN001
        self.page, self.proc, self.log_path, self.artifacts = page, proc, log_path, artifacts
        # what the page's own scripts reported: a frontend that crashed draws a blank page with no server error
        self.console: list[str] = []
        page.on("console", lambda m: self.console.append(f"console.{m.type}: {m.text}"[:500])
                if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: self.console.append(f"page error: {e}"[:1000]))

    def until(self, predicate, timeout: float, what: str):  # noqa: ANN001, ANN202
        deadline = time.monotonic() + timeout
        alerts = self.page.locator('[data-testid="stAlertContentError"], [data-testid="stException"]')
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            if alerts.count():
                self.fail(f"an error on the page while waiting for {what}")
            time.sleep(0.25)
        self.fail(f"timed out after {timeout:.0f} s waiting for {what}")

    def fail(self, why: str) -> None:
        shot = self.artifacts / f"e2e_failure_{int(time.time())}.png"
        try:
            self.page.screenshot(path=str(shot), full_page=True)
            text = self.page.locator("section.main, [data-testid='stMain']").first.inner_text(timeout=5_000)
        except Exception as exc:  # noqa: BLE001 - the diagnosis must not hide the failure it diagnoses
            text = f"(the page could not be read: {exc})"
        raise AssertionError(f"{why}\n--- the page at {self.page.url} says ---\n{text[-4000:]}\n"
                             f"--- the page's script errors ---\n" + "\n".join(self.console[-20:]) +
                             f"\n--- screenshot: {shot}\n"
                             f"--- the server's log and thread stacks ---\n"
                             f"{dump_threads(self.proc, self.log_path)}")


def _stats(page) -> dict | None:  # noqa: ANN001
    return _in_graph(page, "return JSON.parse(JSON.stringify(w.__graphStats));")


def _click_a_node(page, doc: str) -> str:  # noqa: ANN001
    """Click, with the mouse, the node from `doc` drawn nearest the canvas centre; return the id vis finds there."""
    iframe = page.locator('iframe[src*="graph_view"]').first
    iframe.scroll_into_view_if_needed()
    _in_graph(page, "w.document.getElementById('btn-fit').click(); return true;")
    box = iframe.bounding_box()
    # the fit is animated (400 ms), longer on a loaded machine: the node is taken once the view stands still, its
    # place read twice 300 ms apart (a node read mid-animation had moved from under the mouse: "no node under it")
    pos = hit = None
    for _ in range(30):
        page.wait_for_timeout(300)
        here = _in_graph(page, """
            const ids = w.__graphDebug.nodeIds(), cx = arg.w / 2, cy = arg.h / 2;
            let best = null;
            for (const id of ids) {
              const p = w.__graphDebug.position(id);
              if (!p || w.__graphDebug.doc(id) !== arg.doc) continue;
              const d = (p.x - cx) ** 2 + (p.y - cy) ** 2;
              if (!best || d < best.d) best = { id: id, x: p.x, y: p.y, d: d };
            }
            return best;""", {"w": box["width"], "h": box["height"], "doc": doc})
        still = pos is not None and here is not None and here["id"] == pos["id"] \
            and abs(here["x"] - pos["x"]) < 1 and abs(here["y"] - pos["y"]) < 1
        pos = here
        if still:
            hit = _in_graph(page, "return w.__graphDebug.nodeAt(arg.x, arg.y);", pos)
            if hit:
                break
    assert pos is not None, f"no node of {doc} on the graph"
    page.mouse.click(box["x"] + pos["x"], box["y"] + pos["y"])
    return hit


def test_upload_ask_click_read_and_export(browser, artifacts, nist_pdf, tmp_path) -> None:  # noqa: ANN001
    outside: list[str] = []
    log_path = artifacts / "e2e_streamlit.log"
    # a data folder of its own: the suite's shared one holds every other test's tasks and long-term memory
    with app_process(log_path, {"MEMORY_BANK_DATA_DIR": str(tmp_path / "data")}) as (url, proc):
        context = browser.new_context(viewport={"width": 1500, "height": 1100}, accept_downloads=True)

        def guard(route) -> None:  # noqa: ANN001
            host = re.match(r"^[a-z]+://([^/:]+)", route.request.url)
            if route.request.url.startswith(("data:", "blob:")) or (host and host.group(1) == "127.0.0.1"):
                route.continue_()
            else:
                outside.append(route.request.url)
                route.abort()

        context.route("**/*", guard)
        page = context.new_page()
        watch = Watch(page, proc, log_path, artifacts)
        page.goto(url)
        page.get_by_role("button", name="Run the sample").wait_for(timeout=60_000)
        hostile = tmp_path / "vendor-note.txt"
        hostile.write_text(HOSTILE)
        page.locator('input[type="file"]').first.set_input_files([str(nist_pdf), str(hostile)])
        page.get_by_text("NIST.SP.800-207.pdf").first.wait_for(timeout=30_000)
        page.get_by_label("Question or task").fill(QUESTION)
        page.screenshot(path=str(artifacts / "e2e_1_new_task.png"))
        start = page.get_by_role("button", name="Start")
        watch.until(start.is_enabled, 60, "the files to upload (Start is disabled meanwhile)")
        start.click()  # once: a user's first click must start the run (or the page says why not)
        run_page = page.get_by_role("heading", name="Run", exact=True)
        refused = page.locator('[data-testid="stAlert"]')  # what the New task page says when it will not start
        watch.until(lambda: run_page.count() or refused.count(), 60, "the Run page after one click on Start")
        assert run_page.count(), refused.all_inner_texts()

        stats = watch.until(lambda: (s := _stats(page)) and s["nodes"] > 0 and s, 180, "the first node on the graph")
        page.screenshot(path=str(artifacts / "e2e_2_run_growing.png"))
        done = page.get_by_text("Done", exact=True)
        watch.until(done.count, 240, "the run to finish (Done)")
        page.get_by_role("button", name="Cancel").wait_for(state="detached", timeout=30_000)  # the final rerun
        stats = watch.until(lambda: (s := _stats(page)) and s["nodes"] >= stats["nodes"] and s, 30, "the final graph")
        assert stats["nodes"] > 50 and stats["edges"] > 0
        # the finished graph is laid out into topics once, when its run is settled: a node found before that
        # moves from under the mouse (the click then hit nothing, or another node, twice at ~6 s runs)
        # (laidOut: laid out once settled, or already by its first batch when the run ended before the first draw,
        # as a fast run on a warm machine does: layoutRuns then stays 0 and waiting for it timed out)
        watch.until(lambda: (s := _stats(page)) and s.get("settled") and s.get("laidOut"), 30,
                    "the finished graph's layout")
        page.screenshot(path=str(artifacts / "e2e_3_run_done.png"))

        node_id = _click_a_node(page, "NIST.SP.800-207.pdf")
        assert node_id, "no node under the mouse"
        title = page.locator('[data-testid="stExpander"] summary').filter(has_text="NIST.SP.800-207.pdf").first
        title.wait_for(timeout=30_000)
        heading = title.inner_text().replace("\\", "")  # "p. 5 (PDF p. 14)": the PDF pages are the ones to read
        pages = re.search(r"PDF pp?\.\s*(\d+)(?:\D(\d+))?", heading) or re.search(r"pp?\.\s*(\d+)(?:\D(\d+))?", heading)
        assert pages, f"deep retrieval shows no page numbers: {title.inner_text()!r}"
        first, last = int(pages.group(1)), int(pages.group(2) or pages.group(1))
        shown = page.locator('[data-testid="stExpanderDetails"] [data-testid="stText"]').first.inner_text()
        pdf_text = _alnum(_pdf_pages(nist_pdf, first, last))
        # windows within one paragraph each: the node joins paragraphs whose order in the PDF's text may differ (a
        # figure's caption between two of them), so a window across a join is on the pages but not in one piece
        paragraphs = [_alnum(p) for p in re.split(r"\n\s*\n|\n", shown) if len(_alnum(p)) >= 40]
        windows = [p[i:i + 40] for p in paragraphs for i in range(0, max(1, len(p) - 40), 97)][:12]
        found = sum(w in pdf_text for w in windows)
        assert windows and found >= len(windows) * 0.75, f"only {found}/{len(windows)} passages are on pp. " \
                                                          f"{first}-{last} of the PDF"
        page.screenshot(path=str(artifacts / "e2e_4_deep_retrieval.png"))

        hostile_id = _click_a_node(page, "vendor-note.txt")
        assert hostile_id, "the hostile note is not on the graph"
        page.get_by_text("<script>window.parent.__pwned = 1</script>", exact=False).first.wait_for(timeout=30_000)
        page.wait_for_timeout(1000)
        assert page.evaluate("() => window.__pwned === undefined"), "document text ran as code"
        assert _in_graph(page, "return w.__pwned === undefined;"), "document text ran as code in the graph"
        page.screenshot(path=str(artifacts / "e2e_4b_hostile_text.png"))

        page.get_by_role("link", name="Export / import").click()
        button = page.get_by_role("button", name="Download memory.json")
        button.wait_for(timeout=30_000)
        with page.expect_download() as download:
            button.click()
        data = json.loads(Path(download.value.path()).read_text())
        assert data["format"] == "agentic-memory-bank"
        assert len(data["query_graph"]["nodes"]) == stats["nodes"] - stats.get("ghosts", 0)
        assert node_id in {n["id"] for n in data["query_graph"]["nodes"]}
        assert data["settings"]["secrets_configured"] == []
        page.screenshot(path=str(artifacts / "e2e_5_export.png"))

        page.get_by_role("link", name="Query Graph").click()
        _wait(lambda: (s := _stats(page)) and s["nodes"] == stats["nodes"] and s, 30, "the Graph page")
        page.wait_for_timeout(800)
        page.screenshot(path=str(artifacts / "e2e_6_graph_page.png"))
        page.get_by_role("link", name="Merges & conflicts").click()
        page.get_by_role("heading", name="Merges & conflicts").wait_for(timeout=30_000)
        page.wait_for_timeout(1500)
        page.screenshot(path=str(artifacts / "e2e_7_timeline.png"))
        page.get_by_role("link", name="Settings").click()
        page.get_by_role("button", name="Test connection").wait_for(timeout=30_000)
        page.screenshot(path=str(artifacts / "e2e_8_settings.png"))
        context.close()
    assert outside == [], f"the browser tried to leave 127.0.0.1: {outside}"


def test_notes_sample_in_the_browser_merges_settles_and_answers(browser, artifacts) -> None:  # noqa: ANN001
    with running_app(artifacts / "e2e_notes_streamlit.log") as url:
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        page.goto(url)
        page.get_by_role("button", name="Run the notes sample").click(timeout=60_000)
        page.get_by_text("Done", exact=True).wait_for(timeout=120_000)
        stats = _wait(lambda: (s := _stats(page)) and s["nodes"] >= 5 and s, 30, "the notes graph")
        assert stats.get("ghosts", 0) >= 3, stats  # the merged-away nodes, drawn as lineage
        # the conflicts metric's own delta: the event log may say "1 settled" too, and a bare text match then
        # finds two elements (seen failing on a fresh clone)
        page.get_by_test_id("stMetricDelta").get_by_text("1 settled", exact=True).wait_for(timeout=10_000)
        sidebar = page.locator('[data-testid="stSidebar"]')  # not left saying "in progress" after a fast run
        sidebar.get_by_text("pending conflicts — from").wait_for(timeout=10_000)
        answer = page.locator('[data-testid="stMarkdownContainer"]').filter(has_text="budget of 5 million").first
        answer.wait_for(timeout=10_000)
        assert "9 million" not in answer.inner_text()  # the rejected figure may show in the log, not the answer
        page.screenshot(path=str(artifacts / "e2e_notes_run.png"))
        page.close()


@pytest.fixture(scope="module")
def nist_pdf() -> Path:
    path = ROOT / "samples" / "NIST.SP.800-207.pdf"
    assert path.is_file(), f"the sample PDF is missing: {path}"
    return path
