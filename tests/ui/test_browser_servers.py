"""Two app servers (`streamlit run` on two ports) on one PostgreSQL, in a real browser: a task started on one is
listed on the other and watched there live, read-only ("open for writing in another app process"); once the first
server is killed (SIGKILL, a crash), the second opens the task for writing, shows its run 'Interrupted', and its
Resume carries the run on there.

Both servers share one data folder, as two processes on one host (or on a shared volume) do: a task's files are
kept there by content, and the server that resumes a task reads the rest of its PDF from it.
"""

from __future__ import annotations

import re

from memory_bank import Settings, SqlTaskStore

from ..support.postgres import create_database
from .app_server import app_process, throttled
from .test_browser_e2e import _wait
from .test_browser_tasks import _main, _nodes, _task_id

LEASE_GRACE = 45  # the lease runs out within 30 s of the holder's death (at once on one host); the page looks every 5 s


def test_a_task_started_on_one_server_is_watched_on_the_other_and_resumed_there_after_a_crash(
        browser, artifacts, tmp_path, postgres_url) -> None:  # noqa: ANN001
    url = create_database(postgres_url, "two_servers")
    env = {"MEMORY_BANK_DATA_DIR": str(tmp_path / "data"), "DATABASE_URL": url}
    first = browser.new_page(viewport={"width": 1500, "height": 1100})
    second = browser.new_page(viewport={"width": 1500, "height": 1100})  # another browser context: another user
    with app_process(artifacts / "servers_first.log", env) as (url_a, proc_a), \
            app_process(artifacts / "servers_second.log", env) as (url_b, proc_b):
        second.goto(url_b)  # its first page view loads its embedding model, meanwhile the first server runs
        first.goto(url_a)
        first.get_by_role("button", name="Run the sample").click(timeout=60_000)
        with throttled(proc_a):  # the first server's run must still be going when it is killed
            first.wait_for_url(re.compile(r"/run\?task="), timeout=60_000)
            task_id = _task_id(first)
            _wait(lambda: _nodes(first) >= 3, 120, "the first nodes on the first server")

            second.goto(f"{url_b}/tasks")
            _main(second).get_by_text("What are the core components of a zero trust").first.wait_for(timeout=30_000)
            second.goto(f"{url_b}/run?task={task_id}")
            _main(second).get_by_text("open for writing in another app process").wait_for(timeout=30_000)
            seen = _wait(lambda: _nodes(second), 30, "the stored graph on the second server")
            _wait(lambda: _nodes(second) > seen, 60, "the graph to grow on the second server while the first runs")
            assert second.get_by_role("button", name="Resume").count() == 0, "read-only while the first server runs"

        proc_a.kill()  # a crash: no shutdown, no flush, the lease left behind
        proc_a.wait(timeout=30)
        at_kill = _nodes(second)
        _main(second).get_by_text("Interrupted", exact=True).wait_for(timeout=LEASE_GRACE * 1000)
        assert _main(second).get_by_text("open for writing in another app process").count() == 0
        second.get_by_role("button", name="Resume").click()
        _wait(lambda: _nodes(second) > at_kill, 90, "the resumed run to add nodes on the second server")
        second.screenshot(path=str(artifacts / "servers_resumed.png"))
        store = SqlTaskStore.from_settings(Settings(data_dir=tmp_path / "data", database_url=url))
        try:
            holder = store.leases.holder_of(task_id)
            assert holder is not None and f":{proc_b.pid}:" in holder, "the second server writes the task now"
            assert [r.status for r in store.load(task_id).runs] == ["running"]
        finally:
            store.close()
    first.close()
    second.close()
