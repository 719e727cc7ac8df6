"""The bounds every value from outside is held to, in one place.

Ingestion, import, rename, the API and the CLI shorten or refuse by these numbers, and the export schema reads the
same ones. The task store writes each memory item as its export record, so a value the memory accepted but the
schema refused once killed the store's writer (a 1,001-character source name): with one set of bounds, whatever
entered the memory can be written and read back.

Where a user would expect it, a value that is too long is shortened rather than refused: a file name keeps its
extension (the kind of a file is read from it) and shows an ellipsis where it was cut, so the name still says what
it was. Ids are never shortened: one that does not match its pattern in full is refused.
"""

from __future__ import annotations

import re

# ids: matched in full (`fits`); `$` alone would let "local\n" through
ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_.:\-]{0,63}"  # ids in the memory and its exports (nodes, entries, ...)
TASK_ID_PATTERN = r"[A-Za-z0-9_-]{1,64}"  # a stored task's id: its link and its folder's name
USER_ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}"  # a user (an account, a long-term memory folder's name)
# how long a read-only link to a task lasts when its owner does not choose (and what links from before expiry got),
# and the longest an owner may choose
DEFAULT_SHARE_SECONDS = 7 * 24 * 3600.0
MAX_SHARE_SECONDS = 365 * 24 * 3600.0
LOCAL_USER = "local"  # the user of single-user mode: owner of its tasks, and of every task made before accounts

# strings
MAX_NAME = 1_000  # what an export may hold: a source or file name, an attachment id or path, a MIME type, a model
# A name given at entry (a file, an upload, an API caller's source name) is shortened further: the longest file
# name a file system takes, and short enough, in any script, for the database keys it is part of (PostgreSQL
# refuses an index row over 2,704 bytes; 255 characters are at most 1,020)
MAX_SOURCE_NAME = 255
MAX_URL = 4_096  # a web page's address (the URL policy refuses longer ones before any fetch)
MAX_TASK_NAME = 200  # what the task list shows; rename and import are held to it alike
MAX_LINE = 20_000  # one line of memory: a topic, a keyword, a title, a section heading, a sub-task
MAX_BODY = 2_000_000  # a text body: a summary, an entry's text, an answer, the task goal
MAX_PRINTED = 32  # a page number printed on a page: longer is no page number (a crafted PDF or export)

# counts
MAX_ITEMS = 1_000_000  # nodes, entries, events ... in one task
MAX_KEYWORDS = 1_000  # per node
MAX_SOURCES = 10_000  # per node (a node merged many times gathers its parts' sources)
MAX_SECTION_DEPTH = 32  # section headings from the top down to where a node was read
MAX_PAGE = 1_000_000

# untrusted JSON (entry metadata, the run log, settings)
MAX_JSON_DEPTH = 32
MAX_JSON_ITEMS = 200_000
MAX_JSON_KEY = 200

# files and waits
MAX_IMPORT_BYTES = 512 * 1024 * 1024
MAX_RETRY_WAIT = 300.0  # seconds: the longest backoff a server's Retry-After (or the settings) can ask for

ELLIPSIS = "…"
_SUFFIX = re.compile(r"\.[A-Za-z0-9]{1,10}")


def fits(pattern: str, value: object) -> bool:
    """True when `value` is a string matching `pattern` in full (no trailing newline, no prefix match)."""
    return isinstance(value, str) and re.fullmatch(pattern, value) is not None


def shorten(text: str, limit: int) -> str:
    """`text` if it fits, else its first `limit - 1` characters and an ellipsis: at most `limit` characters."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + ELLIPSIS


def shorten_name(name: str, limit: int = MAX_SOURCE_NAME, mark: str = ELLIPSIS) -> str:
    """A file or source name of at most `limit` characters that keeps its extension ('report….pdf'): the loaders
    tell a file's kind by it, and a reader recognises the file. Shortening twice changes nothing. `mark` shows
    where it was cut (one character)."""
    if len(name) <= limit:
        return name
    dot = name.rfind(".")
    suffix = name[dot:] if dot > 0 and _SUFFIX.fullmatch(name[dot:]) else ""
    if len(suffix) + 2 > limit:
        suffix = ""
    return name[: limit - len(suffix) - len(mark)] + mark + suffix


def shorten_path(path: tuple[str, ...], depth: int = MAX_SECTION_DEPTH, limit: int = MAX_LINE) -> tuple[str, ...]:
    """A section path of at most `depth` headings, each at most `limit` characters; a deeper one keeps its top
    and its own heading (the last), which is what a citation names."""
    if len(path) > depth:
        path = (*path[: depth - 1], path[-1])
    return tuple(shorten(title, limit) for title in path)
