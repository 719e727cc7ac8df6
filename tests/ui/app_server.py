"""Start the real app (`streamlit run app.py`) on a free 127.0.0.1 port, for browser tests and UI benchmarks."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_app(log_path: Path, env: dict[str, str] | None = None, timeout: float = 90.0) -> Iterator[str]:
    """Yield the app's URL once its health endpoint answers; stop the server (only it) afterwards."""
    with app_process(log_path, env, timeout) as (url, _proc):
        yield url


@contextlib.contextmanager
def app_process(log_path: Path, env: dict[str, str] | None = None,
                timeout: float = 90.0) -> Iterator[tuple[str, subprocess.Popen]]:
    """`running_app`, also handing out the server process (a test may kill it hard, as a crash would)."""
    port = free_port()
    environment = {**os.environ, "MEMORY_BANK_ENGINE": "offline", **(env or {})}
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-c", _LAUNCH, "run", str(ROOT / "app.py"), "--server.address", "127.0.0.1",
             "--server.port", str(port), "--server.headless", "true", "--browser.gatherUsageStats", "false"],
            cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_healthy(url, proc, timeout, log_path)
            yield url, proc
        finally:
            if proc.poll() is None:
                proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)


# `streamlit run`, with every thread's stack written to the log on SIGUSR1: a test that times out waiting for the
# app asks for it (`dump_threads`), so a hang on a CI machine says where it hangs
_LAUNCH = ("import faulthandler, signal, sys; faulthandler.register(signal.SIGUSR1, all_threads=True); "
           "from streamlit.web.cli import main; sys.argv[0] = 'streamlit'; sys.exit(main())")


def dump_threads(proc: subprocess.Popen, log_path: Path, settle: float = 1.0) -> str:
    """The server's thread stacks (written by faulthandler into its log) and the log's tail, for a failure
    message: the threads in the app's own code or running a page script first, the idle ones counted, since a CI
    report shows only the head and tail of a long message (the one stack that mattered was cut from the middle)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGUSR1)
        time.sleep(settle)
    text = log_path.read_text(errors="replace") if log_path.is_file() else ""
    return busy_threads_first(text)[-40_000:]


_THREAD_HEAD = re.compile(r"^(?:Current thread|Thread) 0x[0-9a-f]+ \(most recent call first\):$", re.M)


def busy_threads_first(log: str) -> str:
    """`log` with its faulthandler dump reordered: stacks that pass through the repository's code or a Streamlit
    script run first, then a count of the rest (threads waiting on a queue or a selector)."""
    heads = list(_THREAD_HEAD.finditer(log))
    if not heads:
        return log
    before = log[:heads[0].start()]
    blocks = [log[h.start():(heads[i + 1].start() if i + 1 < len(heads) else len(log))].rstrip()
              for i, h in enumerate(heads)]
    root = str(ROOT)

    def busy(block: str) -> bool:
        files = re.findall(r'File "([^"]+)"', block)
        return any(f.startswith(root) or "script_runner" in f or "exec_code" in f for f in files)

    shown = [b for b in blocks if busy(b)]
    idle = len(blocks) - len(shown)
    return (f"{before.rstrip()}\n--- threads in the app's code or a page script ({len(shown)}) ---\n"
            + "\n\n".join(shown) + f"\n--- and {idle} idle threads (queue, selector and timer waits) ---\n")


def _wait_healthy(url: str, proc: subprocess.Popen, timeout: float, log_path: Path) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the app exited with {proc.returncode}: {log_path.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"the app did not answer on {url} within {timeout:.0f} s")


@contextlib.contextmanager
def throttled(proc: subprocess.Popen, share: float = 0.2, period: float = 1.0) -> Iterator[None]:
    """Let `proc` run only `share` of each `period` (SIGSTOP / SIGCONT), so a run that now ends in seconds is
    still going when a test wants to crash it mid-run: the NIST sample reads in ~4 s on a quiet machine, faster
    than a second server can be shown watching it. The process is continued when the block ends (a dead one is
    left alone)."""
    import threading

    done = threading.Event()

    def cycle() -> None:
        while not done.is_set():
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGSTOP)
            done.wait(period * (1.0 - share))
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGCONT)
            done.wait(period * share)

    thread = threading.Thread(target=cycle, name="throttle", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(timeout=5)
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGCONT)
