"""The SQLAlchemy engine: SQLite by default (WAL), PostgreSQL via psycopg when configured."""

from __future__ import annotations

import fcntl
import logging
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

if TYPE_CHECKING:
    from alembic.config import Config

ROOT = Path(__file__).resolve().parents[2]
CHECKPOINT_SECONDS = 1.0
# JSON columns (every stored action) through orjson: the stdlib encoder showed in the
# profile of bench/load.py.
JSON_CODEC: dict[str, Any] = {
    "json_serializer": lambda value: orjson.dumps(value).decode(),
    "json_deserializer": orjson.loads,
}
MIGRATION_LOCK = 0x4B617274  # "Kart": the PostgreSQL advisory lock held while migrating
# The newest migration's revision (a test holds it to Alembic's head): a database already
# there needs no migrating process when the server starts.
SCHEMA_REVISION = "0014"

logger = logging.getLogger(__name__)


def normalise_url(url: str) -> str:
    """Accept the usual postgres:// spellings and route them through psycopg 3."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def create_db_engine(url: str) -> Engine:
    url = normalise_url(url)
    if make_url(url).get_backend_name() == "sqlite":
        return _sqlite_engine(url)
    return create_engine(url, pool_pre_ping=True, **JSON_CODEC)


def _sqlite_engine(url: str) -> Engine:
    database = make_url(url).database
    if database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False}, **JSON_CODEC)

    @event.listens_for(engine, "connect")
    def set_pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        # With WAL, NORMAL loses at most the last commits on power loss, never consistency.
        cursor.execute("PRAGMA synchronous=NORMAL")
        # No automatic checkpoints: their fsync would stall the event loop in the middle of
        # a move (the p99 of bench/load.py); `start_checkpoints` runs them in a thread.
        cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()

    return engine


def start_checkpoints(engine: Engine, every: float = CHECKPOINT_SECONDS) -> Callable[[], None]:
    """Checkpoint SQLite's write-ahead log from a background thread; return its stopper.

    A passive checkpoint never blocks the writer; sqlite3 releases the GIL while it works.
    Does nothing (and stops nothing) on other databases.
    """
    if engine.dialect.name != "sqlite":
        return lambda: None
    stop = threading.Event()

    def checkpoint_until_stopped() -> None:
        while not stop.wait(every):
            try:
                with engine.connect() as connection:
                    connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # the next round tries again
                logger.exception("checkpointing the SQLite log failed")

    thread = threading.Thread(target=checkpoint_until_stopped, name="wal-checkpoint", daemon=True)
    thread.start()

    def halt() -> None:
        stop.set()
        thread.join()

    return halt


def alembic_config(url: str) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", normalise_url(url).replace("%", "%%"))
    return config


# Databases known to be at the newest schema, which `ensure_migrated` leaves alone: a child
# process migrated them for this one (or the tests' fixtures did, once for many tests).
AT_HEAD: set[str] = set()


def migrate(url: str) -> None:
    """Bring the database to the newest schema (idempotent, and safe to run at once from
    several server processes: they take turns)."""
    from alembic import command

    with migration_lock(url):
        command.upgrade(alembic_config(url), "head")


def migrate_in_child(url: str) -> None:
    """`migrate` in a process of its own (what `python -m app` does before it serves):
    Alembic and the migration's own peak would add some 15 MB to the server for good.
    A database at the newest schema is left alone: starting that process, which imports
    Alembic, cost 0.4 s of CPU for nothing."""
    if schema_revision(url) != SCHEMA_REVISION:
        script = "import sys; from app.storage.db import migrate; migrate(sys.argv[1])"
        subprocess.run([sys.executable, "-c", script, url], cwd=ROOT, check=True)
    AT_HEAD.add(url)


def schema_revision(url: str) -> str | None:
    """The revision the database's schema is at (None: not migrated, or unreachable)."""
    engine = create_db_engine(url)
    try:
        with engine.connect() as connection:
            revision = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
            return None if revision is None else str(revision)
    except SQLAlchemyError:
        return None
    finally:
        engine.dispose()


def ensure_migrated(url: str) -> None:
    if url not in AT_HEAD:
        migrate(url)


@contextmanager
def migration_lock(url: str) -> Iterator[None]:
    """A lock across processes: an advisory lock on PostgreSQL, a lock file beside SQLite's."""
    engine = create_db_engine(url)
    database = make_url(normalise_url(url)).database
    try:
        if engine.dialect.name == "postgresql":
            with engine.connect() as connection:
                connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
                try:
                    yield
                finally:
                    unlock = text("SELECT pg_advisory_unlock(:key)")
                    connection.execute(unlock, {"key": MIGRATION_LOCK})
        elif engine.dialect.name == "sqlite" and database and database != ":memory:":
            with open(f"{database}.migrate-lock", "w") as lock_file:
                fcntl.flock(lock_file, fcntl.LOCK_EX)
                yield
        else:
            yield
    finally:
        engine.dispose()
