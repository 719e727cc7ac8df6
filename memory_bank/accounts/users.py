"""The accounts file of multi-user mode: user names and argon2id hashes of their passwords, never a password.

    {"format": "memory-bank-users", "version": 1, "users": {"alice": {"hash": "$argon2id$...", "created": 1.7e9}}}

Written whole under an exclusive `fcntl.flock` (two `users add` at once never lose one) and atomically (a temp
file in the same folder, fsync, rename): the temp file is made with mode 0600, so the file is readable by its owner
only. Read, it is refused with a `ConfigError` (the app does not start in multi-user mode, and never falls back
to single-user) when it is missing, unreadable, too large, not of that shape, or writable by group or others: a
file anyone may edit is a file that lets anyone in.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..errors import ConfigError, InputError
from ..limits import USER_ID_PATTERN, fits
from ..long_term.store import atomic_write

FORMAT = "memory-bank-users"
MAX_FILE_BYTES = 1024 * 1024
MIN_PASSWORD = 8
MAX_PASSWORD = 1024  # argon2 takes any length; a megabyte typed into the form is refused before it is hashed
MAX_USERS = 1000


def check_user_name(name: object) -> str:
    """A user name is also the long-term memory's folder: 1-64 letters, digits, '_' or '-', never a path."""
    if not fits(USER_ID_PATTERN, name):
        raise InputError("a user name is 1-64 letters, digits, '_' or '-', starting with a letter or digit")
    return str(name)


def check_password(password: str) -> str:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise InputError(f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return password


class Accounts:
    """One accounts file. Every read re-reads it when it changed on disk, so `users remove` takes effect on the
    next page view of a running app."""

    def __init__(self, path: Path, hasher: PasswordHasher | None = None) -> None:
        self.path = Path(path)
        self.hasher = hasher or PasswordHasher()
        self._cache: tuple[tuple[int, int], dict[str, dict[str, Any]]] | None = None
        self._dummy: str | None = None

    # -- reading ------------------------------------------------------------------------------------------

    def users(self) -> dict[str, dict[str, Any]]:
        """Name -> record; `ConfigError` naming the file and what is wrong with it."""
        try:
            info = self.path.stat()
        except OSError as exc:
            raise ConfigError(f"the users file {self.path} cannot be read ({exc.strerror or exc}): create it with "
                              "`python -m memory_bank users add NAME`, or unset MEMORY_BANK_USERS_FILE") from exc
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(f"the users file {self.path} is not a regular file")
        if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            raise ConfigError(f"the users file {self.path} is writable by other users: anyone could add an "
                              f"account. Make it private: chmod 600 {self.path}")
        if info.st_size > MAX_FILE_BYTES:
            raise ConfigError(f"the users file {self.path} is larger than {MAX_FILE_BYTES} bytes")
        key = (info.st_mtime_ns, info.st_size)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        try:
            data = json.loads(self.path.read_bytes())
        except OSError as exc:
            raise ConfigError(f"the users file {self.path} cannot be read ({exc.strerror or exc})") from exc
        except ValueError as exc:
            raise ConfigError(f"the users file {self.path} is not valid JSON ({exc})") from exc
        users = _parse(data, self.path)
        self._cache = (key, users)
        return users

    def names(self) -> list[str]:
        return sorted(self.users())

    def exists(self, name: str) -> bool:
        return name in self.users()

    def verify(self, name: str, password: str) -> bool:
        """Whether `password` is `name`'s. An unknown name costs the same hash as a known one, so the time taken
        does not tell which names exist; a password out of bounds is wrong without being hashed."""
        record = self.users().get(name) if fits(USER_ID_PATTERN, name) else None
        if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            return False
        try:
            matched = self.hasher.verify(record["hash"] if record else self._dummy_hash(), password)
        except (VerificationError, InvalidHashError):
            return False
        return bool(matched and record)

    def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = self.hasher.hash(os.urandom(16).hex())
        return self._dummy

    # -- writing (the `users` command) --------------------------------------------------------------------

    def add(self, name: str, password: str) -> bool:
        """Add `name`, or set a new password when it exists; returns True when it was new."""
        check_user_name(name)
        hashed = self.hasher.hash(check_password(password))
        with self._locked() as users:
            new = name not in users
            if new and len(users) >= MAX_USERS:
                raise InputError(f"the users file holds at most {MAX_USERS} users")
            users[name] = {"hash": hashed, "created": users.get(name, {}).get("created", time.time())}
        return new

    def remove(self, name: str) -> None:
        with self._locked() as users:
            if users.pop(name, None) is None:
                raise InputError(f"no user {name!r} in {self.path}")

    @contextlib.contextmanager
    def _locked(self) -> Iterator[dict[str, dict[str, Any]]]:
        """The users as on disk (none for a new file), written back when the block ends without an error."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = self.path.with_name(f".{self.path.name}.lock")
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            users = dict(self.users()) if self.path.exists() else {}
            yield users
            atomic_write(self.path, json.dumps({"format": FORMAT, "version": 1, "users": users}, indent=1))
            os.chmod(self.path, 0o600)  # mkstemp's mode already; said again for a file an editor rewrote
        finally:
            os.close(fd)
        self._cache = None


def _parse(data: Any, path: Path) -> dict[str, dict[str, Any]]:
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("users"), dict):
        raise ConfigError(f"the users file {path} is not a memory bank users file (format {FORMAT!r} expected)")
    if data.get("version") != 1:
        raise ConfigError(f"the users file {path} has version {data.get('version')!r}; this app reads version 1")
    users = {}
    for name, record in data["users"].items():
        if not fits(USER_ID_PATTERN, name) or not isinstance(record, dict) or not isinstance(record.get("hash"),
                                                                                               str):
            raise ConfigError(f"the users file {path} has a malformed entry {str(name)[:64]!r}")
        users[name] = record
    return users
