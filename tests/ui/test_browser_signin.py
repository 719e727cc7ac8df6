"""Multi-user mode in a real browser (Chromium via Playwright) against `streamlit run app.py` on 127.0.0.1.

A visitor gets the sign-in page and nothing else, even with a task's link; a wrong password is refused; two
signed-in users in two browser contexts each see only their own tasks, and one user's task link is, to the other,
a link that is not valid any more.
"""

from __future__ import annotations

from argon2 import PasswordHasher

from memory_bank import MemoryBank, Settings, SqlTaskStore
from memory_bank.accounts import Accounts

from .app_server import running_app
from .test_browser_tasks import _main, _nav

PASSWORDS = {"alice": "alice's long secret", "bob": "bob's other secret"}


def _sign_in(page, name: str, password: str) -> None:  # noqa: ANN001 - playwright Page
    page.get_by_role("textbox", name="User name").fill(name)
    page.get_by_role("textbox", name="Password").fill(password)
    page.get_by_role("button", name="Sign in").click()


def test_visitors_see_only_sign_in_and_users_only_their_own_tasks(browser, artifacts, tmp_path,
                                                                  embedder) -> None:  # noqa: ANN001
    accounts = Accounts(tmp_path / "users.json", hasher=PasswordHasher(time_cost=1, memory_cost=1024))
    for name, password in PASSWORDS.items():
        accounts.add(name, password)
    data = tmp_path / "data"
    store = SqlTaskStore(data)
    bank = MemoryBank(Settings(data_dir=data), store=store, embedder=embedder, task_name="Alice's budget notes",
                      owner="alice")
    bank.ingest_text("The Northwind budget is 4.2 million euros, approved by the board in March.", source="notes")
    bank.close()
    store.close()
    link = f"/run?task={bank.task_id}"

    env = {"MEMORY_BANK_DATA_DIR": str(data), "MEMORY_BANK_USERS_FILE": str(accounts.path)}
    with running_app(artifacts / "signin.log", env) as url:
        alice_ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
        page = alice_ctx.new_page()
        page.goto(url + link)
        page.get_by_role("heading", name="Sign in").wait_for(timeout=60_000)
        assert page.get_by_text("Alice's budget notes").count() == 0
        assert page.get_by_text("New task").count() == 0, "no page, no navigation before sign-in"
        _sign_in(page, "alice", "not her password")
        page.get_by_text("Wrong user name or password.").wait_for(timeout=60_000)
        _sign_in(page, "alice", PASSWORDS["alice"])
        page.get_by_text("Signed in as").wait_for(timeout=60_000)
        _nav(page, "Tasks").click()
        _main(page).get_by_text("Alice's budget notes").wait_for(timeout=60_000)

        bob_ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
        other = bob_ctx.new_page()
        other.goto(url + link)
        other.get_by_role("heading", name="Sign in").wait_for(timeout=60_000)
        _sign_in(other, "bob", PASSWORDS["bob"])
        other.get_by_text("not valid any more").wait_for(timeout=60_000)  # alice's link: as an unknown one
        _nav(other, "Tasks").click()
        _main(other).get_by_text("No task yet").wait_for(timeout=60_000)
        assert _main(other).get_by_text("Alice's budget notes").count() == 0
        other.get_by_role("button", name="Sign out").click()
        other.get_by_role("heading", name="Sign in").wait_for(timeout=60_000)
        alice_ctx.close()
        bob_ctx.close()
