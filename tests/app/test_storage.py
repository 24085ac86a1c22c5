"""Storage: the schema that migrations build, and the keys the action path relies on."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from app.settings import Settings
from app.storage.db import create_db_engine, migrate, normalise_url, start_checkpoints
from app.storage.models import Base, Match, Room
from app.storage.repositories import PlyTaken, Store


def test_migrations_agree_with_the_models(settings: Settings) -> None:
    migrate(settings.database_url)
    engine = create_db_engine(settings.database_url)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
    engine.dispose()


def test_migrating_twice_changes_nothing(settings: Settings) -> None:
    migrate(settings.database_url)
    migrate(settings.database_url)
    engine = create_db_engine(settings.database_url)
    with engine.connect() as connection:
        assert connection.scalar(text("SELECT count(*) FROM alembic_version")) == 1
    engine.dispose()


def test_the_launcher_migrates_in_a_child_and_never_loads_alembic(settings: Settings) -> None:
    script = (
        "import sys; from app.storage.db import MIGRATED_BY_CHILD, migrate_in_child; "
        "migrate_in_child(sys.argv[1]); "
        "assert sys.argv[1] in MIGRATED_BY_CHILD and 'alembic' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", script, settings.database_url], check=True, timeout=120)
    engine = create_db_engine(settings.database_url)
    with engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() is not None
    engine.dispose()


def test_the_database_admits_one_action_per_version(settings: Settings) -> None:
    """What makes two server processes unable to both accept a move for the same version."""
    migrate(settings.database_url)
    engine = create_db_engine(settings.database_url)
    store = Store(engine)
    now = datetime.now(UTC)
    room = Room(id="r1", game="scoundrel", options={}, created_at=now, last_active_at=now)
    match = Match(
        room_id="r1",
        number=1,
        game="scoundrel",
        seed=2**62,
        options={},
        first_seat=0,
        status="playing",
    )
    store.create_room(room, match)
    store.record_action(match.id, 1, 0, {"type": "avoid"}, now)
    with pytest.raises(PlyTaken):
        store.record_action(match.id, 1, 0, {"type": "take", "card": "7C"}, now)
    store.record_action(match.id, 2, 0, {"type": "take", "card": "7C"}, now)
    engine.dispose()


def test_server_processes_starting_together_migrate_one_after_another(settings: Settings) -> None:
    # Each process imports first and says so, then all migrate at the same moment: the go.
    script = (
        "import sys; from app.storage.db import migrate; "
        "print('imported', flush=True); sys.stdin.readline(); migrate(sys.argv[1])"
    )
    starts = [
        subprocess.Popen(
            [sys.executable, "-c", script, settings.database_url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    for start in starts:
        assert start.stdout is not None and start.stdout.readline() == "imported\n"
    for start in starts:
        assert start.stdin is not None
        start.stdin.write("go\n")
        start.stdin.close()
    assert [start.wait(timeout=120) for start in starts] == [0, 0, 0, 0]
    engine = create_db_engine(settings.database_url)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert context.get_current_revision() is not None
        assert compare_metadata(context, Base.metadata) == []
    engine.dispose()


def test_sqlite_runs_in_wal_mode_with_synchronous_normal(tmp_path: Path) -> None:
    engine = create_db_engine(f"sqlite:///{tmp_path}/new/dir/k.db")
    with engine.connect() as connection:
        assert connection.scalar(text("PRAGMA journal_mode")) == "wal"
        assert connection.scalar(text("PRAGMA synchronous")) == 1  # NORMAL
        assert connection.scalar(text("PRAGMA foreign_keys")) == 1
    engine.dispose()


def test_sqlite_checkpoints_in_a_background_thread_not_on_the_move(tmp_path: Path) -> None:
    """No automatic checkpoint stalls a commit; the checkpoint thread moves the log into
    the database file (which only grows when a checkpoint runs)."""
    database = tmp_path / "k.db"
    engine = create_db_engine(f"sqlite:///{database}")
    with engine.begin() as connection:
        assert connection.scalar(text("PRAGMA wal_autocheckpoint")) == 0
        connection.execute(text("CREATE TABLE t (x TEXT)"))
    for _ in range(200):
        with engine.begin() as connection:
            connection.execute(text("INSERT INTO t VALUES (:x)"), {"x": "card" * 100})
    size_before = database.stat().st_size
    stop = start_checkpoints(engine, every=0.01)
    try:
        deadline = time.monotonic() + 10
        while database.stat().st_size == size_before and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        stop()
    assert database.stat().st_size > size_before
    engine.dispose()


def test_postgres_urls_go_through_psycopg() -> None:
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"
