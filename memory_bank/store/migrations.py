"""Schema versions: a `schema_version` row and ordered migrations, run at open in one transaction each.

A fresh database gets the current tables at once. An older one is migrated step by step; a newer one (written by
a later release) or something that is not our database is refused with a `StoreError` instead of being touched.
To change the schema: edit `schema.py`, bump `CURRENT` and append the step that takes version CURRENT-1 there.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, Engine, inspect, select, text
from sqlalchemy.exc import SQLAlchemyError

from ..errors import StoreError
from ..limits import DEFAULT_SHARE_SECONDS, LOCAL_USER
from .schema import Base, IngestRow, LeaseRow, SchemaVersion, ShareRow, TaskRow, table


def _v2_resume(conn: Connection) -> None:
    """v1 -> v2: runs get a heartbeat (a crashed run is told from a live one) and inputs their progress."""
    conn.execute(text("ALTER TABLE runs ADD COLUMN heartbeat FLOAT"))
    table(IngestRow).create(conn)


def _v3_owners(conn: Connection) -> None:
    """v2 -> v3: tasks get an owner (every existing one the single-user owner, so nothing of it is lost or shown
    to anyone else), a write lease and read-only share links."""
    conn.execute(text(f"ALTER TABLE tasks ADD COLUMN owner VARCHAR(64) NOT NULL DEFAULT '{LOCAL_USER}'"))
    for index in table(TaskRow).indexes:
        index.create(conn)
    table(LeaseRow).create(conn)
    table(ShareRow).create(conn)


def _v4_share_expiry(conn: Connection) -> None:
    """v3 -> v4: share links expire; a link made before gets the default lifetime from when it was made. (A v2
    database reaches v4 through `_v3_owners`, which already creates the table with the column.)"""
    if "expires" not in {c["name"] for c in inspect(conn).get_columns(ShareRow.__tablename__)}:
        conn.execute(text("ALTER TABLE task_shares ADD COLUMN expires FLOAT NOT NULL DEFAULT 0"))
    conn.execute(text("UPDATE task_shares SET expires = created + :lifetime WHERE expires = 0"),
                 {"lifetime": DEFAULT_SHARE_SECONDS})


# version reached -> the step that reaches it from the version before
MIGRATIONS: dict[int, Callable[[Connection], None]] = {2: _v2_resume, 3: _v3_owners, 4: _v4_share_expiry}
CURRENT = 4


def ensure_schema(engine: Engine, where: str) -> int:
    """Create or migrate the schema to `CURRENT`; returns the version found before. `where` names the database
    in errors (never with a password)."""
    try:
        with engine.begin() as conn:
            tables = set(inspect(conn).get_table_names())
            if not tables:
                Base.metadata.create_all(conn)
                conn.execute(table(SchemaVersion).insert().values(version=CURRENT))
                return 0
            if SchemaVersion.__tablename__ not in tables:
                raise StoreError(f"{where} is not a memory bank task store (it has other tables and no "
                                 "schema_version); point MEMORY_BANK_DATA_DIR or DATABASE_URL elsewhere")
            found = conn.execute(select(SchemaVersion.version)).scalar()
        if found is None:
            raise StoreError(f"{where}: the schema_version table is empty; the database is damaged")
        if found > CURRENT:
            raise StoreError(f"{where} was written by a newer version of the app (schema {found}; this one reads "
                             f"up to {CURRENT}): upgrade the app, or point it at another database")
        for version in range(found + 1, CURRENT + 1):
            with engine.begin() as conn:
                MIGRATIONS[version](conn)
                conn.execute(table(SchemaVersion).update().values(version=version))
        return found
    except SQLAlchemyError as exc:
        raise StoreError(f"{where} cannot be opened as a task store: {_reason(exc)}") from exc


def _reason(exc: SQLAlchemyError) -> str:
    """The driver's own message (e.g. 'file is not a database'), without SQLAlchemy's SQL and link."""
    original = getattr(exc, "orig", None)
    return str(original if original is not None else exc).splitlines()[0]
