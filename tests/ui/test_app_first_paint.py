"""The real app in Chromium, as a new user meets it: the first paint shows the app's own menu (never the
`pages/` file names Streamlit lists before `st.navigation` runs), the embedding-model status turns ready by
itself, and a bad upload ends as a failed run, not "Done"."""

from __future__ import annotations

from tests.ui.app_server import running_app

WATCH = """
window.__seen = {nav: [], model: []};
new MutationObserver(() => {
  document.querySelectorAll('[data-testid="stSidebarNav"] a, [data-testid="stSidebarNavLink"]').forEach(a => {
    const t = a.innerText.trim(); if (t && !window.__seen.nav.includes(t)) window.__seen.nav.push(t);
  });
  document.querySelectorAll('[data-testid="stSidebar"] [data-testid="stCaptionContainer"]').forEach(c => {
    const t = c.innerText.trim();
    if (t.startsWith('Embedding model') && !window.__seen.model.includes(t)) window.__seen.model.push(t);
  });
}).observe(document, {subtree: true, childList: true, characterData: true});
"""
DEFAULT_NAMES = {"app", "new task", "run", "graph", "timeline", "export import", "settings"}


def test_first_paint_model_status_and_a_failed_upload(browser, artifacts, tmp_path) -> None:  # noqa: ANN001
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.4 this is not a PDF at all")
    with running_app(artifacts / "first_paint_streamlit.log") as url:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.add_init_script(WATCH)
        page.goto(url)  # the server's first session: where Streamlit used to list the pages/ folder
        sidebar = page.locator('[data-testid="stSidebar"]')
        sidebar.get_by_text("Embedding model: ready").wait_for(timeout=90_000)  # no reload, no click
        seen = page.evaluate("() => window.__seen")
        assert not DEFAULT_NAMES & {n.lower() for n in seen["nav"]}, seen["nav"]
        sidebar.get_by_role("link", name="Query Graph").wait_for()
        assert seen["model"][-1] == "Embedding model: ready"

        page.locator('input[type="file"]').set_input_files(str(bad))
        page.get_by_label("Question or task").fill("What is the budget?")
        page.get_by_role("button", name="Start").click()
        page.locator(".amb-pill").filter(has_text="Failed").wait_for(timeout=90_000)
        assert page.locator(".amb-pill").filter(has_text="Done").count() == 0
        page.get_by_text("not read").first.wait_for(timeout=10_000)
        page.screenshot(path=str(artifacts / "app_failed_upload.png"), full_page=True)
        page.close()
