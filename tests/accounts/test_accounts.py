"""Multi-user mode's accounts: the `users` command, the file it writes, the sign-in throttle and session expiry.

The command runs as a real process on a real file; the throttle and the session policy are driven by a clock the
test moves (no sleeping, no timing assertions).
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from memory_bank import ConfigError, InputError, Settings
from memory_bank.accounts import Accounts, SessionPolicy, SignedIn, Throttle, sign_in
from memory_bank.limits import LOCAL_USER
from memory_bank.store import SqlTaskStore

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "correct horse battery"
FAST = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)  # the file's format is the same; tests are quick


def _users(tmp_path: Path, *args: str, password: str = PASSWORD, env: dict | None = None):  # noqa: ANN202
    return subprocess.run([sys.executable, "-m", "memory_bank", "users", *args], cwd=ROOT, input=password + "\n",
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "MEMORY_BANK_USERS_FILE": str(tmp_path / "users.json"),
                               "MEMORY_BANK_DATA_DIR": str(tmp_path / "data"), **(env or {})})


def test_users_add_list_remove_write_a_private_file_of_hashes(tmp_path: Path) -> None:
    assert _users(tmp_path, "add", "alice").returncode == 0
    assert _users(tmp_path, "add", "bob", password="another secret").returncode == 0
    path = tmp_path / "users.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    raw = path.read_text()
    assert PASSWORD not in raw and "another secret" not in raw
    assert json.loads(raw)["users"]["alice"]["hash"].startswith("$argon2id$")
    listed = _users(tmp_path, "list")
    assert listed.stdout.split() == ["alice", "bob"]
    accounts = Accounts(path)
    assert accounts.verify("alice", PASSWORD) and not accounts.verify("alice", "another secret")
    assert not accounts.verify("carol", PASSWORD)
    assert _users(tmp_path, "remove", "bob").returncode == 0
    assert _users(tmp_path, "list").stdout.split() == ["alice"]
    assert not accounts.verify("bob", "another secret"), "a running app sees the removal on its next check"


@pytest.mark.parametrize("name", ["../etc", "a/b", "x" * 10_000, "bad\nname", "tab\tname", "", "_leading"])
def test_a_bad_user_name_is_refused_before_any_password(tmp_path: Path, name: str) -> None:
    done = _users(tmp_path, "add", name)
    assert done.returncode == 2 and "a user name is 1-64 letters" in done.stderr
    assert not (tmp_path / "users.json").exists()


def test_a_short_password_is_refused(tmp_path: Path) -> None:
    done = _users(tmp_path, "add", "alice", password="short")
    assert done.returncode == 2 and "a password is 8 to 1024 characters" in done.stderr


@pytest.mark.parametrize(("content", "mode", "words"), [
    (None, 0o600, "cannot be read"),
    ("{not json", 0o600, "not valid JSON"),
    ('{"format": "something else", "users": {}}', 0o600, "not a memory bank users file"),
    ('{"format": "memory-bank-users", "version": 1, "users": {"../x": {"hash": "h"}}}', 0o600, "malformed entry"),
    ('{"format": "memory-bank-users", "version": 1, "users": {}}', 0o666, "writable by other users"),
    ('{"format": "memory-bank-users", "version": 1, "users": {}}', 0o620, "writable by other users"),
])
def test_a_bad_users_file_is_a_clear_refusal(tmp_path: Path, content: str | None, mode: int, words: str) -> None:
    path = tmp_path / "users.json"
    if content is not None:
        path.write_text(content)
        path.chmod(mode)
    with pytest.raises(ConfigError, match=words):
        Accounts(path).users()
    done = _users(tmp_path, "list")
    assert done.returncode == 2 and words in done.stderr


def test_no_users_file_setting_means_no_accounts(tmp_path: Path) -> None:
    assert Settings.from_env({}, env_file=None).users_file is None
    done = subprocess.run([sys.executable, "-m", "memory_bank", "users", "list"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={k: v for k, v in os.environ.items()
                                                       if k != "MEMORY_BANK_USERS_FILE"})
    assert done.returncode == 2 and "MEMORY_BANK_USERS_FILE" in done.stderr


def test_assign_gives_the_single_users_tasks_to_an_account(tmp_path: Path) -> None:
    store = SqlTaskStore(tmp_path / "data")
    old = [store.create_task(f"old {i}", "", "model") for i in range(2)]
    assert _users(tmp_path, "assign", "alice").returncode == 2, "no such user yet"
    assert _users(tmp_path, "add", "alice").returncode == 0
    done = _users(tmp_path, "assign", "alice")
    assert done.returncode == 0 and "2 tasks now belong to alice" in done.stderr
    assert sorted(store.owners.owned("alice")) == sorted(old) and store.owners.owned(LOCAL_USER) == []
    store.close()


def _accounts(tmp_path: Path) -> Accounts:
    accounts = Accounts(tmp_path / "users.json", hasher=FAST)
    accounts.add("alice", PASSWORD)
    return accounts


def test_sign_in_locks_out_after_five_failures_alike_for_known_and_unknown_names(tmp_path: Path) -> None:
    accounts, now = _accounts(tmp_path), [0.0]
    throttle = Throttle(clock=lambda: now[0])
    outcomes = {}
    for name in ("alice", "nobody"):
        seen = []
        for _ in range(7):
            result = sign_in(accounts, throttle, name, "wrong password", client=None)
            seen.append((result.outcome, result.message))
        outcomes[name] = seen
    assert outcomes["alice"] == outcomes["nobody"], "the answers do not tell whether a name exists"
    assert [o for o, _ in outcomes["alice"]] == ["refused"] * 6 + ["locked"]
    assert sign_in(accounts, throttle, "alice", PASSWORD, client=None).outcome == "locked", \
        "while locked, even the right password is not checked"
    now[0] += 3  # the first lockout (2 s) has passed
    ok = sign_in(accounts, throttle, "alice", PASSWORD, client=None)
    assert ok.outcome == "ok" and ok.session.user == "alice"


def test_one_client_guessing_many_names_is_locked_out(tmp_path: Path) -> None:
    accounts, now = _accounts(tmp_path), [0.0]
    throttle = Throttle(clock=lambda: now[0])
    results = [sign_in(accounts, throttle, f"user{i}", "wrong password", client="10.0.0.9").outcome
               for i in range(8)]
    assert results == ["refused"] * 6 + ["locked"] * 2
    assert sign_in(accounts, throttle, "alice", PASSWORD, client="10.0.0.9").outcome == "locked"
    assert sign_in(accounts, throttle, "alice", PASSWORD, client="10.0.0.10").outcome == "ok"


def test_the_throttle_keeps_a_bounded_number_of_keys() -> None:
    throttle = Throttle(max_keys=100, clock=lambda: 0.0)
    for i in range(1000):
        throttle.failed([f"name:{i}"])
    assert len(throttle._keys) == 100


def test_a_session_expires_when_idle_and_when_old() -> None:
    policy = SessionPolicy.from_settings(Settings(session_idle_minutes=30, session_max_hours=2))
    session = SignedIn("alice", since=0.0, seen=0.0)
    for t in range(0, 7200, 1500):  # seen every 25 minutes: stays signed in up to the absolute limit
        session = policy.touch(session, float(t))
        assert session is not None and session.user == "alice"
    assert policy.touch(session, 7201.0) is None, "two hours after sign-in, whatever the activity"
    assert policy.touch(SignedIn("alice", 0.0, 0.0), 30 * 60 + 1) is None, "half an hour without a page view"


def test_user_add_never_takes_a_name_that_is_not_one(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path / "users.json", hasher=FAST)
    with pytest.raises(InputError):
        accounts.add("a/../b", PASSWORD)
    assert not (tmp_path / "users.json").exists()


def test_a_wrong_variable_falls_back_to_defaults_but_keeps_the_accounts_file_and_data(tmp_path: Path) -> None:
    env = {"MEMORY_BANK_USERS_FILE": str(tmp_path / "users.json"), "MEMORY_BANK_DATA_DIR": str(tmp_path / "d"),
           "LLM_TIMEOUT": "not a number", "MAX_ROUNDS": "3"}
    settings, problem = Settings.from_env_or_defaults(env, env_file=None)
    assert problem and "LLM_TIMEOUT" in problem
    assert settings.users_file == tmp_path / "users.json" and settings.data_dir == tmp_path / "d"
    assert settings.max_rounds == Settings().max_rounds, "everything else is the defaults"
    fine, none = Settings.from_env_or_defaults({"MAX_ROUNDS": "3"}, env_file=None)
    assert none is None and fine.max_rounds == 3 and fine.users_file is None
