"""Sign-in through `AppTest` (no browser): single-user mode has none; multi-user mode shows the sign-in page and
nothing else until a user signs in, then only that user's tasks and long-term memory, and signs out."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from streamlit.testing.v1 import AppTest

from memory_bank import MemoryBank, Settings, SignedIn, SqlTaskStore
from memory_bank.accounts import Accounts
from ui.links import SHARE_GONE

from .test_app_pages import new_app, task_of

PASSWORDS = {"alice": "alice's long secret", "bob": "bob's other secret"}


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("MEMORY_BANK_ENGINE", "offline")
    monkeypatch.setenv("MEMORY_BANK_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("MEMORY_BANK_USERS_FILE", raising=False)
    return tmp_path / "data"


@pytest.fixture
def users_file(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    accounts = Accounts(tmp_path / "users.json", hasher=PasswordHasher(time_cost=1, memory_cost=1024))
    for name, password in PASSWORDS.items():
        accounts.add(name, password)
    monkeypatch.setenv("MEMORY_BANK_USERS_FILE", str(accounts.path))
    return accounts.path


def _sign_in(at: AppTest, name: str, password: str) -> AppTest:
    at.text_input(key="signin-name").input(name)
    at.text_input(key="signin-password").input(password)
    at.button(key="signin-submit").click().run()
    assert not at.exception, at.exception
    return at


def _signed_in(name: str) -> AppTest:
    at = new_app()
    at.run()
    return _sign_in(at, name, PASSWORDS[name])


def _as(user: str | None, task_id: str | None = None, share: str | None = None) -> AppTest:
    """A session of `user` (signed in; None in single-user mode) opening `?task=` or `?share=` (a new session:
    a link opened in a new tab)."""
    at = new_app()
    if user is not None:
        at.session_state["signed_in"] = SignedIn(user, since=time.time(), seen=time.time())
    if task_id is not None:
        at.query_params["task"] = task_id
    if share is not None:
        at.query_params["share"] = share
    at.run()
    assert not at.exception, at.exception
    return at


def _on_sign_in_page_only(at: AppTest) -> bool:
    return [t.value for t in at.title] == ["Sign in"] and "run-sample" not in {b.key for b in at.button}


def test_single_user_mode_opens_the_app_with_no_sign_in(data_dir: Path) -> None:
    at = new_app()
    at.run()
    assert not at.exception
    assert "Sign in" not in [t.value for t in at.title]
    assert "run-sample" in {b.key for b in at.button} and "sign-out" not in {b.key for b in at.button}
    assert task_of(at).user == "local"


def test_a_visitor_gets_only_the_sign_in_page_even_with_a_task_link(users_file: Path, data_dir: Path,
                                                                     embedder) -> None:  # noqa: ANN001
    store = SqlTaskStore(data_dir)
    task_id = store.create_task("alice's notes", "", embedder.name, owner="alice")
    store.close()
    at = new_app()
    at.query_params["task"] = task_id
    at.run()
    assert _on_sign_in_page_only(at)
    assert "task_session" not in at.session_state, "nothing is made for a visitor: no task, no folder"
    at.switch_page("pages/tasks.py").run()
    assert _on_sign_in_page_only(at), "every page is behind the sign-in"


def test_wrong_passwords_are_refused_alike_and_then_locked_out(users_file: Path) -> None:
    at = new_app()
    at.run()
    seen = []
    for name in ("alice", "nobody"):
        _sign_in(at, name, "not the password")
        seen.append([e.value for e in at.error])
    assert seen[0] == seen[1] == ["Wrong user name or password."], "an unknown name reads like a known one"
    for _ in range(6):  # five failures are free; the sixth locks the name for a while, the seventh is refused
        _sign_in(at, "alice", "still not it")
    assert any("Too many failed sign-ins" in e.value for e in at.error)
    _sign_in(at, "alice", PASSWORDS["alice"])
    assert _on_sign_in_page_only(at), "locked: even the right password waits"


def test_each_user_sees_only_their_own_tasks_and_long_term_memory(users_file: Path, data_dir: Path,
                                                                  embedder) -> None:  # noqa: ANN001
    store = SqlTaskStore(data_dir)
    alices = store.create_task("Alice's budget notes", "", embedder.name, owner="alice")
    bobs = store.create_task("Bob's private figures", "", embedder.name, owner="bob")
    store.close()

    at = _signed_in("alice")
    assert not _on_sign_in_page_only(at) and task_of(at).user == "alice"
    at.switch_page("pages/tasks.py").run()
    shown = "\n".join(m.value for m in at.markdown)
    assert "Alice" in shown and "Bob" not in shown

    warnings = {}
    for label, task_id in (("bob's", bobs), ("unknown", "AAAAAAAAAAAAAAAAAAAAAA"), ("traversal", "../../etc"),
                           ("sql", "x' OR '1'='1")):
        link = _as("alice", task_id)  # a signed-in session opening the link
        assert task_of(link).task_id is None
        warnings[label] = [w.value for w in link.warning if "task link" in w.value]
    assert warnings["bob's"] == warnings["unknown"] == warnings["traversal"] == warnings["sql"]
    assert warnings["bob's"] and "not valid" in warnings["bob's"][0]

    at = _as("alice", alices)
    assert task_of(at).task_id == alices and task_of(at).bank.long_term.user_id == "alice"
    assert _as("bob", alices).warning, "the owner's own link, opened by another user, is not found"
    at.switch_page("pages/long_term.py").run()
    assert any("User `alice`" in c.value for c in at.caption)


def _through_app(at: AppTest) -> AppTest:
    """The next run goes through app.py. AppTest reruns the last page's script alone (its legacy `pages/`
    router); a server runs app.py, and with it the sidebar's sign-out, on every view."""
    at._finished_page_script_hash = ""
    return at


def test_sign_out_and_an_ended_session_go_back_to_the_sign_in_page(users_file: Path) -> None:
    at = _signed_in("bob")
    assert "sign-out" in {b.key for b in at.button}
    at.button(key="sign-out").click()
    _through_app(at).run()
    assert _on_sign_in_page_only(at) and "signed_in" not in at.session_state

    at = _signed_in("bob")
    long_ago = time.time() - 13 * 3600  # past the 12 h a session lasts, whatever the activity
    at.session_state["signed_in"] = SignedIn("bob", since=long_ago, seen=time.time())
    at.run()
    assert _on_sign_in_page_only(at)
    assert any("Your session has ended" in i.value for i in at.info)


def test_a_removed_user_is_signed_out_on_the_next_page_view(users_file: Path) -> None:
    at = _signed_in("bob")
    Accounts(users_file).remove("bob")
    at.run()
    assert _on_sign_in_page_only(at)


def test_a_bad_unrelated_variable_never_opens_a_multi_user_app(users_file: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LLM_TIMEOUT", "not a number")
    at = new_app()
    at.run()
    assert _on_sign_in_page_only(at), "the defaults it falls back to keep the accounts file"
    at = _sign_in(at, "alice", PASSWORDS["alice"])
    assert any("LLM_TIMEOUT" in w.value for w in at.warning) and task_of(at).user == "alice"


def test_a_users_file_others_can_write_refuses_to_start(users_file: Path) -> None:
    users_file.chmod(0o666)
    at = new_app()
    at.run()
    assert any("Multi-user mode cannot start" in e.value and "writable by other users" in e.value
               for e in at.error)
    assert "signin-name" not in {t.key for t in at.text_input}, "never a sign-in against an unsafe file"
    assert "run-sample" not in {b.key for b in at.button}, "and never a fallback to single-user mode"


def _stored_task(data_dir: Path, embedder, owner: str | None = None) -> tuple[SqlTaskStore, MemoryBank]:  # noqa: ANN001
    store = SqlTaskStore(data_dir)
    bank = MemoryBank(Settings(data_dir=data_dir), store=store, embedder=embedder, owner=owner)
    bank.ingest_text("The Northwind budget is 4.2 million euros, approved by the board in March.", source="notes")
    bank.flush()
    return store, bank


def test_a_shared_link_shows_a_read_only_copy_until_its_owner_revokes_it(users_file: Path, data_dir: Path,
                                                                          embedder) -> None:  # noqa: ANN001
    store, bank = _stored_task(data_dir, embedder, owner="alice")
    nodes = bank.snapshot().counts["nodes"]
    bank.close()
    owner = _signed_in("alice")
    owner.switch_page("pages/tasks.py").run()
    owner.button(key=f"share-{bank.task_id}").click().run()
    ((token, created, expires),) = store.shares.of_task(bank.task_id, "alice")
    assert any(token in c.value for c in owner.code), "the owner sees the link to hand out"
    assert expires - created == pytest.approx(7 * 86400), "a week unless the owner chose otherwise"
    owner.selectbox(key=f"share-days-{bank.task_id}").set_value(1).run()
    owner.button(key=f"share-{bank.task_id}").click().run()
    day = store.shares.of_task(bank.task_id, "alice")[1]
    assert day.expires - day.created == pytest.approx(86400)
    owner.button(key=f"revoke-{day.token}").click().run()

    viewer = task_of(_as("bob", share=token))
    assert viewer.read_only and viewer.task_id is None and viewer.bank.snapshot().counts["nodes"] == nodes
    assert store.leases.holder_of(bank.task_id) is None, "reading took no lease: the owner can still write"
    assert store.owners.owned("bob") == [], "bob got no task of alice's"

    owner.button(key=f"revoke-{token}").click().run()
    assert store.shares.of_task(bank.task_id, "alice") == []
    gone = _as("bob", share=token)
    assert [w.value for w in gone.warning] == [SHARE_GONE] and task_of(gone).bank is None
    store.close()


def test_a_task_open_on_another_server_shows_read_only_and_opens_once_closed(data_dir: Path,
                                                                             embedder) -> None:  # noqa: ANN001
    store, bank = _stored_task(data_dir, embedder)  # another app process's store: it holds the lease
    at = _as(None, bank.task_id)
    task = task_of(at)
    assert "open for writing in another app process" in task.read_only
    assert task.task_id is None and task.bank.snapshot().counts["nodes"] == bank.snapshot().counts["nodes"]
    at.switch_page("pages/tasks.py").run()
    at.toggle(key=f"confirm-{bank.task_id}").set_value(True).run()
    at.button(key=f"delete-{bank.task_id}").click().run()
    assert any("Not deleted" in e.value for e in at.error) and store.exists(bank.task_id)
    at.switch_page("pages/run.py").run()
    first = task_of(at).bank
    store.start_run(bank.task_id, "What is the budget?", {"files": [], "text": "notes"})
    bank.ingest_text("Later the board raised it to 5 million euros after the audit.", source="more notes")
    bank.flush()  # the other server goes on writing: the Run page's copy follows the store
    at.run()
    assert task_of(at).read_only and task_of(at).bank is not first
    run = task_of(at).current_run.monitor.view()
    assert run.status == "running on another server" and not run.running, "its run goes on there, not dead"
    assert not [b for b in at.button if b.label in ("Resume", "Cancel")], "nothing to resume or cancel here"
    assert task_of(at).bank.snapshot().counts["nodes"] == bank.snapshot().counts["nodes"]
    bank.close()  # that server closes it: on the next look, it opens here for writing
    at.run()
    assert task_of(at).task_id == bank.task_id and not task_of(at).read_only
    task = task_of(_as(None, bank.task_id))
    assert task.task_id == bank.task_id, "and a new session opens it for writing at once"
    store.close()
