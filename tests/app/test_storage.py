"""Storage: the schema that migrations build, and the keys the action path relies on."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from app.messaging import LocalBroadcaster
from app.people.push import subscription_row
from app.settings import Settings
from app.storage import db
from app.storage.batching import BatchWriter
from app.storage.db import create_db_engine, migrate, normalise_url, start_checkpoints
from app.storage.models import METADATA, Match, Room
from app.storage.players import PlayerStore
from app.storage.push import PushStore
from app.storage.repositories import ActionWrite, PlyTaken, Store
from app.table.cache import RoomCache
from app.table.events import RoomEvents
from app.table.live import LiveRoom

# Storage itself: each database's schema, constraints, locks and transactions.
pytestmark = pytest.mark.both_databases


def test_migrations_agree_with_the_models(database_url: str) -> None:
    migrate(database_url)
    engine = create_db_engine(database_url)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, METADATA) == []
    engine.dispose()


def test_migrating_twice_changes_nothing(database_url: str) -> None:
    migrate(database_url)
    migrate(database_url)
    engine = create_db_engine(database_url)
    with engine.connect() as connection:
        assert connection.scalar(text("SELECT count(*) FROM alembic_version")) == 1
    engine.dispose()


def test_a_seat_stored_before_the_rename_keeps_its_player(database_url: str) -> None:
    from alembic import command

    from app.storage.db import alembic_config

    command.upgrade(alembic_config(database_url), "0006")  # seats.token_hash
    engine = create_db_engine(database_url)
    now = datetime.now(UTC)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO rooms (id, game, options, created_at, last_active_at)"
                " VALUES ('r', 'scoundrel', '{}', :now, :now)"
            ),
            {"now": now},
        )
        connection.execute(
            text(
                "INSERT INTO seats (room_id, seat, name, name_folded, token_hash)"
                " VALUES ('r', 0, 'Ada', 'ada', 'ada-player')"
            )
        )
    migrate(database_url)
    with engine.connect() as connection:
        assert connection.scalar(text("SELECT player_id FROM seats")) == "ada-player"
    engine.dispose()


def test_push_subscriptions_stored_before_they_named_their_device_keep_working(
    database_url: str,
) -> None:
    from alembic import command

    from app.storage.db import alembic_config

    command.upgrade(alembic_config(database_url), "0010")  # subscriptions without a device
    engine = create_db_engine(database_url)
    now = datetime.now(UTC)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO push_subscriptions (endpoint, player_id, p256dh, auth, lang,"
                " created_at) VALUES ('https://push.example/old', 'ada', 'k', 'a', 'de', :now)"
            ),
            {"now": now},
        )
    migrate(database_url)
    pushes, players = PushStore(engine), PlayerStore(engine)
    players.add_player("ada", "ada-phone", "Phone", now)
    phone = players.device("ada-phone")
    assert phone is not None
    pushes.subscribe(subscription_row("ada", phone.id, "https://push.example/new", "k", "a", "en"))
    assert {(row.endpoint, row.device_id) for row in pushes.subscriptions("ada")} == {
        ("https://push.example/old", None),
        ("https://push.example/new", phone.id),
    }
    assert players.remove_device("ada", phone.id)
    (old,) = pushes.subscriptions("ada")  # the phone's went with it
    assert (old.endpoint, old.lang, old.device_id) == ("https://push.example/old", "de", None)
    engine.dispose()


def test_the_launcher_migrates_in_a_child_and_never_loads_alembic(database_url: str) -> None:
    script = (
        "import sys; from app.storage.db import AT_HEAD, migrate_in_child; "
        "migrate_in_child(sys.argv[1]); "
        "assert sys.argv[1] in AT_HEAD and 'alembic' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", script, database_url], check=True, timeout=120)
    engine = create_db_engine(database_url)
    with engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() is not None
    engine.dispose()


def test_the_schema_revision_the_launcher_knows_is_alembics_head(database_url: str) -> None:
    head = ScriptDirectory.from_config(db.alembic_config(database_url)).get_current_head()
    assert db.SCHEMA_REVISION == head


def test_the_launcher_starts_no_migrating_process_for_a_database_at_the_newest_schema(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    children: list[list[str]] = []
    monkeypatch.setattr(db.subprocess, "run", lambda command, **_: children.append(command))
    migrate(database_url)
    db.migrate_in_child(database_url)
    assert children == []
    engine = create_db_engine(database_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '0009'"))
    engine.dispose()
    db.migrate_in_child(database_url)  # one revision behind: migrated
    assert len(children) == 1


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    """A migrated database with one room and its match (``stored_match``)."""
    engine = create_db_engine(settings.database_url)
    store = Store(engine)
    yield store
    store.close()
    engine.dispose()


def stored_match(store: Store) -> Match:
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
    return match


def test_the_database_admits_one_action_per_version(store: Store) -> None:
    """What makes two server processes unable to both accept a move for the same version."""
    match, now = stored_match(store), datetime.now(UTC)
    store.record_action(ActionWrite(match.id, 1, 0, {"type": "avoid"}, now))
    with pytest.raises(PlyTaken):
        store.record_action(ActionWrite(match.id, 1, 0, {"type": "take", "card": "7C"}, now))
    store.record_action(ActionWrite(match.id, 2, 0, {"type": "take", "card": "7C"}, now))


def test_a_taken_ply_in_a_shared_commit_refuses_only_that_action(store: Store) -> None:
    match, now = stored_match(store), datetime.now(UTC)
    store.record_action(ActionWrite(match.id, 1, 0, {"type": "avoid"}, now))
    writes = [ActionWrite(match.id, ply, 0, {"type": "avoid"}, now) for ply in (2, 1, 3)]
    outcomes = store.record_actions(writes)
    assert [type(outcome) for outcome in outcomes] == [type(None), PlyTaken, type(None)]
    assert [stored.ply for stored in store.match_actions(match.id)] == [1, 2, 3]


@pytest.mark.parametrize("active_room", [None, "r1"], ids=["move only", "with the room's activity"])
def test_a_failed_move_commit_is_sqlalchemys_error_stores_nothing_and_the_next_one_works(
    store: Store, active_room: str | None
) -> None:
    """The action path answers SQLAlchemy's errors with `unavailable`: a move written on the
    driver's own connection must fail as one too, and leave the store usable."""
    match, now = stored_match(store), datetime.now(UTC)
    with store.engine.begin() as connection:
        connection.exec_driver_sql("ALTER TABLE actions RENAME TO actions_away")
    move = ActionWrite(match.id, 1, 0, {"type": "avoid"}, now, active_room=active_room)
    with pytest.raises(SQLAlchemyError):
        store.record_action(move)
    with store.engine.begin() as connection:
        connection.exec_driver_sql("ALTER TABLE actions_away RENAME TO actions")
    assert store.match_actions(match.id) == []
    store.record_action(move)
    assert [stored.ply for stored in store.match_actions(match.id)] == [1]


def test_a_move_with_extras_after_a_lone_move_is_still_all_or_nothing(store: Store) -> None:
    """Over the network a lone move is one statement committing by itself; the next write
    that also notes the room's activity must still store everything or nothing."""
    match, now = stored_match(store), datetime.now(UTC)
    store.record_action(ActionWrite(match.id, 1, 0, {"type": "avoid"}, now))
    with store.engine.begin() as connection:
        connection.exec_driver_sql("ALTER TABLE rooms RENAME TO rooms_away")
    move = ActionWrite(match.id, 2, 0, {"type": "take", "card": "7C"}, now, active_room="r1")
    with pytest.raises(SQLAlchemyError):
        store.record_action(move)
    with store.engine.begin() as connection:
        connection.exec_driver_sql("ALTER TABLE rooms_away RENAME TO rooms")
    assert [stored.ply for stored in store.match_actions(match.id)] == [1]


def test_writes_that_wait_for_a_commit_share_the_next_one() -> None:
    batches: list[list[int]] = []
    first_started, release = threading.Event(), threading.Event()

    def write_batch(items: Sequence[int]) -> list[Exception | None]:
        batches.append(list(items))
        first_started.set()
        release.wait(5)
        return [None if item % 2 else ValueError(item) for item in items]

    async def main() -> list[BaseException | None]:
        writer = BatchWriter(write_batch)
        first = asyncio.ensure_future(writer.write(1))
        await asyncio.to_thread(first_started.wait, 5)
        rest = [asyncio.ensure_future(writer.write(item)) for item in (2, 3, 4)]
        await asyncio.sleep(0.05)
        release.set()
        done = await asyncio.gather(first, *rest, return_exceptions=True)
        writer.close()
        return done

    outcomes = asyncio.run(main())
    assert batches == [[1], [2, 3, 4]]
    assert [repr(outcome) for outcome in outcomes] == [
        "None",
        repr(ValueError(2)),
        "None",
        repr(ValueError(4)),
    ]


def test_server_processes_starting_together_migrate_one_after_another(database_url: str) -> None:
    # Each process imports first and says so, then all migrate at the same moment: the go.
    script = (
        "import sys; from app.storage.db import migrate; "
        "print('imported', flush=True); sys.stdin.readline(); migrate(sys.argv[1])"
    )
    starts = [
        subprocess.Popen(
            [sys.executable, "-c", script, database_url],
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
    engine = create_db_engine(database_url)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert context.get_current_revision() is not None
        assert compare_metadata(context, METADATA) == []
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


def test_a_room_asked_for_by_many_at_once_is_read_from_the_database_once(store: Store) -> None:
    stored_match(store)
    reads = []
    load_room = store.load_room
    store.load_room = lambda room_id: reads.append(room_id) or load_room(room_id)  # type: ignore[method-assign]

    async def main() -> list[LiveRoom]:
        cache = RoomCache(store, LocalBroadcaster(), RoomEvents(), idle_minutes=60)
        return await asyncio.gather(*(cache.load("r1") for _ in range(5)))

    rooms = asyncio.run(main())
    assert reads == ["r1"] and all(room is rooms[0] for room in rooms)


def test_two_seats_asking_for_a_rematch_at_once_start_it_exactly_once(store: Store) -> None:
    """The later of two requests at the same moment sees the other's and stores the next
    match (without the row lock on PostgreSQL each could see only its own: none started)."""
    match = stored_match(store)
    for number in range(2, 22):
        (match,) = started_by_both_at_once(store, match, number)


def started_by_both_at_once(store: Store, finished: Match, number: int) -> list[Match]:
    """Seats 0 and 1 ask for the rematch of ``finished`` together; the matches stored."""
    together = threading.Barrier(2)
    started: list[Match] = []

    def ask(seat: int) -> None:
        following = Match(
            room_id="r1",
            number=number,
            game="scoundrel",
            seed=seat,
            options={},
            first_seat=0,
            status="playing",
        )
        together.wait()
        if store.request_rematch(finished.id, seat, set(), 2, following)[1]:
            started.append(following)

    threads = [threading.Thread(target=ask, args=(seat,)) for seat in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return started
