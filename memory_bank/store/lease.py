"""One writer per task across processes: a lease row per task, taken by the process that opens it for writing.

Two app servers on one database each kept their own row counters, so both writing one task collided on a key
("UNIQUE constraint failed: events.task_id, events.seq") and one side's changes were lost for good. Now a process
takes the task's lease (`task_leases`) before it loads the task, renews it while the task is open (`LeaseKeeper`,
every few seconds) and drops it when it closes the task. Every write of the task's memory renews the lease *in
the same transaction* and is refused (`TaskBusy`, nothing written) when the row no longer names this holder: a
process that lost its lease cannot overwrite the one that took it.

The holder is one store object: `host@boot:pid:process-start:nonce`. A lease whose time ran out (its process stopped
renewing: killed, frozen, cut off) may be taken over; so may one whose holder is a process on this machine that
no longer runs, at once (SQLite is always on one machine, so a crashed app's task is free on restart).
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable

import psutil
from sqlalchemy import Engine, delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..errors import StoreError, TaskBusy
from .guard import guard
from .schema import LeaseRow, changed

log = logging.getLogger(__name__)
LEASE_SECONDS = 30.0  # a holder that stopped renewing frees its tasks within this
RENEW_SECONDS = 5.0


def _machine() -> str:
    """This host as a holder names it: its name and when it booted, so that two containers given one host name
    on two machines are still told apart (a pid is only meaningful on its own machine)."""
    return f"{socket.gethostname()[:100]}@{int(psutil.boot_time())}"


def process_holder() -> str:
    started = int(psutil.Process().create_time() * 1000)
    return f"{_machine()}:{os.getpid()}:{started}:{secrets.token_hex(4)}"


def dead_here(holder: str) -> bool:
    """Whether `holder` names a process on this machine that has ended (its pid gone, a zombie, or reused by a
    process started later). A holder on another machine is never judged here: its lease runs out instead."""
    try:
        host, pid, started, _ = holder.rsplit(":", 3)
        if host != _machine():
            return False
        process = psutil.Process(int(pid))
        return (int(process.create_time() * 1000) != int(started)
                or process.status() == psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return True
    except (ValueError, psutil.Error):
        return False


def busy(task_id: str, holder: str) -> TaskBusy:
    host, pid = (holder.rsplit(":", 3) + ["", ""])[:2]
    host = host.split("@")[0]
    return TaskBusy(f"task {task_id} is open for writing in another app process (process {pid} on {host}): it "
                    f"can be read here, and written once that process closes it or stops (within "
                    f"{int(LEASE_SECONDS)} s)", holder=holder)


class TaskLeases:
    def __init__(self, engine: Engine, where: str, holder: str | None = None, seconds: float = LEASE_SECONDS,
                 clock: Callable[[], float] = time.time) -> None:
        self.engine, self.where, self.seconds, self.clock = engine, where, seconds, clock
        self.holder = holder or process_holder()
        self._held: set[str] = set()
        self._lock = threading.Lock()
        self._closed = threading.Event()

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    def close(self) -> None:
        """The store is closed: its keepers stop renewing, without a word (their database may be gone next)."""
        self._closed.set()

    def acquire(self, task_id: str) -> None:
        """Take the task's lease for this store, or `TaskBusy` naming who has it (this store too: a task is
        opened for writing once)."""
        with self._lock:
            if task_id in self._held:
                raise TaskBusy(f"task {task_id} is already open for writing in this process", holder=self.holder)
            for attempt in range(2):
                try:
                    with guard(self.where, "taking a task's lease"), Session(self.engine) as s, s.begin():
                        self._take(s, task_id)
                    break
                except StoreError as exc:  # a racing insert (IntegrityError): the second pass reads its row
                    if attempt or isinstance(exc, TaskBusy) or not isinstance(exc.__cause__, IntegrityError):
                        raise
            self._held.add(task_id)

    def _take(self, s: Session, task_id: str) -> None:
        now = self.clock()
        mine = update(LeaseRow).where(LeaseRow.task_id == task_id).values(holder=self.holder,
                                                                          expires=now + self.seconds)
        if changed(s, mine.where(or_(LeaseRow.holder == self.holder, LeaseRow.expires < now))):
            return
        other = s.scalar(select(LeaseRow.holder).where(LeaseRow.task_id == task_id))
        if other is None:
            s.add(LeaseRow(task_id=task_id, holder=self.holder, expires=now + self.seconds))
            s.flush()  # a racing insert fails here, and the retry finds its row
        elif not (dead_here(other) and changed(s, mine.where(LeaseRow.holder == other))):
            raise busy(task_id, other)

    def fence(self, s: Session, task_id: str) -> None:
        """Inside a write's transaction: renew the lease, or `TaskBusy` when it is not this store's any more."""
        renewed = changed(s, update(LeaseRow).where(LeaseRow.task_id == task_id, LeaseRow.holder == self.holder)
                          .values(expires=self.clock() + self.seconds))
        if not renewed:
            other = s.scalar(select(LeaseRow.holder).where(LeaseRow.task_id == task_id))
            raise busy(task_id, other or "nobody:-")

    def renew(self, task_id: str) -> None:
        with guard(self.where, "renewing a task's lease"), Session(self.engine) as s, s.begin():
            self.fence(s, task_id)

    def release(self, task_id: str) -> None:
        with self._lock:
            self._held.discard(task_id)
        with guard(self.where, "releasing a task's lease"), Session(self.engine) as s, s.begin():
            s.execute(delete(LeaseRow).where(LeaseRow.task_id == task_id, LeaseRow.holder == self.holder))

    def live(self) -> set[str]:
        """The tasks some process may write now (retention leaves them alone)."""
        with guard(self.where, "reading the leases"), Session(self.engine) as s:
            return set(s.scalars(select(LeaseRow.task_id).where(LeaseRow.expires >= self.clock())))

    def holder_of(self, task_id: str) -> str | None:
        """Who may write the task now (None: nobody, or a holder whose lease ran out)."""
        with guard(self.where, "reading a task's lease"), Session(self.engine) as s:
            return s.scalar(select(LeaseRow.holder).where(LeaseRow.task_id == task_id,
                                                          LeaseRow.expires >= self.clock()))


class LeaseKeeper:
    """Renews one task's lease every `RENEW_SECONDS` while the task is open; says so (`on_lost`, and the log)
    when it was taken, or cannot be renewed. Once its task or its store is closed it stops without a word: a
    renewal that fails then is no failure of an open task (tests that left banks open printed "renewing a
    task's lease failed: connection is bad" every few seconds after their PostgreSQL server had gone)."""

    def __init__(self, leases: TaskLeases, task_id: str, on_lost: Callable[[StoreError], None],
                 every: float = RENEW_SECONDS) -> None:
        self.leases, self.task_id, self.on_lost, self.every = leases, task_id, on_lost, every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name=f"task-lease-{task_id[:6]}", daemon=True)
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def _loop(self) -> None:
        said = ""
        while not self._stop.wait(self.every) and not self.leases.closed:
            try:
                self.leases.renew(self.task_id)
                said = ""
            except StoreError as exc:  # taken (TaskBusy) or the database away: the writes are refused too
                error = exc
            except Exception as exc:  # noqa: BLE001 - a bug here must not end the renewing without a word
                log.exception("task %s: the lease keeper failed", self.task_id)
                error = StoreError(f"task {self.task_id}: the lease could not be renewed: {exc}")
            else:
                continue
            if self._stop.is_set() or self.leases.closed:
                return  # closed while the renewal failed: the task is no longer open here
            if str(error) != said:  # once per distinct failure, not every few seconds while it lasts
                said = str(error)
                log.error("task %s: %s", self.task_id, error)
                self.on_lost(error)
            if isinstance(error, TaskBusy):
                return  # another process has the task: it will not come back to this one

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
