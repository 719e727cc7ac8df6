"""The app's temp folders (a session's uploads, an open task's scratch files), named after their process.

A folder goes when its owner does: the session's when Streamlit drops the session, the task's when the registry
closes the task or the process exits (`weakref.finalize` runs at exit too), a waiting start's when it begins or
is dropped (`pending`). A process that is killed cleans up nothing, so each name carries its process id, and a
new server removes the folders of processes that are gone.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)
_NAME = re.compile(r"amb-(?:session|task|start)-(\d+)-[a-z0-9_]+")


def make(kind: str, parent: str | Path | None = None) -> Path:
    """A new folder `amb-<kind>-<pid>-…` under `parent` (the system temp folder by default)."""
    return Path(tempfile.mkdtemp(prefix=f"amb-{kind}-{os.getpid()}-", dir=parent))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive, and not ours to clean
        return True
    return True


def sweep_orphans(parent: str | Path | None = None) -> list[Path]:
    """Remove the folders left by app processes that no longer run; returns what was removed."""
    root = Path(parent or tempfile.gettempdir())
    removed = []
    for path in root.glob("amb-*-*-*"):
        match = _NAME.fullmatch(path.name)
        if not match or not path.is_dir() or path.is_symlink() or _alive(int(match.group(1))):
            continue
        shutil.rmtree(path, ignore_errors=True)
        if path.exists():
            log.warning("could not remove the orphaned temp folder %s", path)
        else:
            removed.append(path)
    return removed
