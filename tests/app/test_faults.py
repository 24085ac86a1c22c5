"""Faults a scaled setup survives: a server process killed mid-match, Redis restarted
mid-match. Two `python -m app` behind Debian's nginx (round robin), the machine's
PostgreSQL (a fresh database), and for the Redis test a private redis-server of its own
(the machine's shared one is never restarted). Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
from sqlalchemy.engine import make_url
from websockets.exceptions import ConnectionClosed

from tests.app.processes import (
    Client,
    Nginx,
    Redis,
    create_room,
    join,
    served_sockets,
    start_apps,
    start_nginx,
    wait_for,
)
from tests.app.test_self_hosting import fresh_database  # noqa: F401 (a fixture)
from tests.server import AppProcess, free_port

pytestmark = pytest.mark.services
STEP_SECONDS = 3.0  # a step (a move heard by everyone) that takes longer is retried
MATCH_SECONDS = 90.0  # the whole match, faults included: a hang guard


class Table:
    """Two players and a spectator, all through the proxy; each reconnects by itself
    (through the proxy again) when its socket drops, as the browser client does."""

    def __init__(self, proxy: Nginx, room_id: str, cookies: list[str]) -> None:
        self.proxy = proxy
        self.players = [Client(proxy.base_url, room_id, c).open() for c in cookies]
        self.watcher = Client(proxy.base_url, room_id).open()
        self.clients = [*self.players, self.watcher]
        self.accepted: dict[int, dict[str, object]] = {}  # ply -> the action everyone saw
        self.refused: list[str] = []
        self.reconnects = 0

    def pump(self, client: Client, seconds: float) -> None:
        """What the client hears until it is quiet for a moment or `seconds` are over."""
        deadline = time.monotonic() + seconds
        while self._hear(client, min(0.02, max(deadline - time.monotonic(), 0.005))):
            if time.monotonic() >= deadline:
                return

    def drain(self, client: Client) -> None:
        """What the client has heard already, without waiting."""
        while self._hear(client, 0):
            pass

    def _hear(self, client: Client, timeout: float) -> bool:
        """One message within `timeout` (False: none came); a dropped socket reconnects."""
        try:
            message = client.receive(timeout)
        except ConnectionClosed:
            self._reconnect(client)
            return True
        if message is None:
            return False
        if message["type"] == "error":
            self.refused.append(message["code"])
        if message["type"] == "state" and message["last_action"] is not None:
            self.accepted[message["version"]] = message["last_action"]["action"]
        return True

    def _reconnect(self, client: Client) -> None:
        self.reconnects += 1
        deadline = time.monotonic() + 15
        while True:
            try:
                client.open(self.proxy.base_url)
                return
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def version(self) -> int:
        return max(int(c.state["version"]) for c in self.clients)

    def step(self, rng: random.Random) -> bool:
        """One move by whoever is to move, retried until everyone saw it; False at the end."""
        deadline = time.monotonic() + STEP_SECONDS * 10
        while time.monotonic() < deadline:
            for client in self.clients:
                self.drain(client)
            lead = max(self.clients, key=lambda c: int(c.state["version"]))
            if lead.state["to_move"] is None:
                return False
            version = int(lead.state["version"])
            actor = self.players[lead.state["to_move"]]
            if int(actor.state["version"]) < version:
                self._hear(actor, 0.1)  # it has yet to hear of the last move
                continue
            refused = len(self.refused)
            try:
                actor.act(rng.choice(actor.state["legal_actions"]))
            except ConnectionClosed:
                self._reconnect(actor)
                continue
            if self._heard(version, refused):
                return True
            time.sleep(0.2)  # refused (unavailable) or not heard: try again
        raise AssertionError(f"no move for {STEP_SECONDS * 10} s at version {self.version()}")

    def _heard(self, version: int, refused: int) -> bool:
        """Whether every client heard the move after `version` within STEP_SECONDS; False as
        soon as it was refused."""
        end = time.monotonic() + STEP_SECONDS
        while time.monotonic() < end and len(self.refused) == refused:
            behind = [c for c in self.clients if int(c.state["version"]) <= version]
            if not behind:
                return True
            self._hear(behind[0], 0.05)
        return False

    def finish(self, rng: random.Random) -> None:
        deadline = time.monotonic() + MATCH_SECONDS
        while self.step(rng):
            assert time.monotonic() < deadline, "the match did not finish"
        for client in self.clients:
            self.pump(client, 0.3)
        results = [c.state["result"] for c in self.clients]
        assert results[0] is not None and results == [results[0]] * len(results)


def stored_actions(database_url: str, match_id: int) -> dict[int, object]:
    url = make_url(database_url).set(drivername="postgresql")
    with psycopg.connect(url.render_as_string(hide_password=False)) as db:
        rows = db.execute(
            "SELECT ply, action FROM actions WHERE match_id = %s ORDER BY ply", (match_id,)
        ).fetchall()
    return {int(ply): action for ply, action in rows}


@pytest.fixture
def setup(
    tmp_path: Path,
    fresh_database: str,  # noqa: F811
) -> Iterator[tuple[list[AppProcess], Nginx, Redis, str]]:
    redis = Redis(tmp_path)
    redis.start()
    apps = start_apps(tmp_path, fresh_database, redis.url, MESSAGES_PER_SECOND="1000")
    nginx = start_nginx(tmp_path, apps)
    try:
        yield apps, nginx, redis, fresh_database
    finally:
        nginx.stop()
        for app in apps:
            app.stop()
        redis.stop()


def under_way(proxy: Nginx, seed: int, moves: int) -> tuple[random.Random, Table]:
    """A match of two players and a spectator through the proxy, ``moves`` moves in."""
    room_id = create_room(proxy.base_url, rounds=1)
    cookies = [join(proxy.base_url, room_id, name)[1] for name in ("Ada", "Bo")]
    rng = random.Random(seed)
    table = Table(proxy, room_id, cookies)
    for _ in range(moves):
        assert table.step(rng)
    return rng, table


def test_a_killed_process_loses_no_accepted_action_and_its_clients_finish_elsewhere(
    setup: tuple[list[AppProcess], Nginx, Redis, str],
) -> None:
    apps, proxy, _redis, database_url = setup
    rng, table = under_way(proxy, seed=9, moves=15)
    victim = max(apps, key=lambda app: served_sockets(app.base_url))
    assert served_sockets(victim.base_url) >= 1
    victim.kill()
    table.finish(rng)
    assert table.reconnects >= 1
    match_id = int(table.watcher.state["match_id"])
    stored = stored_actions(database_url, match_id)
    assert set(stored) == set(range(1, table.version() + 1))
    # Every action anyone saw is stored, as they saw it: nothing accepted was lost.
    for ply, action in table.accepted.items():
        assert stored[ply] == action


def test_redis_restarted_mid_match_refuses_moves_meanwhile_and_play_resumes(
    setup: tuple[list[AppProcess], Nginx, Redis, str],
) -> None:
    apps, proxy, redis, database_url = setup
    rng, table = under_way(proxy, seed=10, moves=10)
    redis.stop()
    before = table.version()
    # While Redis is away: a move is refused with `unavailable`, and nothing is stored.
    time.sleep(1.0)
    lead = max(table.clients, key=lambda c: int(c.state["version"]))
    actor = table.players[lead.state["to_move"]]
    errors = len(actor.errors)
    actor.act(rng.choice(actor.state["legal_actions"]))
    actor.until(lambda: len(actor.errors) > errors, 5, "an answer while Redis is away")
    assert actor.errors[-1]["code"] == "unavailable"
    assert max(stored_actions(database_url, int(lead.state["match_id"])), default=0) == before
    # Not ready while it cannot hear the others (a proxy or orchestrator may route around it).
    assert [readiness(app) for app in apps] == [503, 503]
    redis.start()  # on the same port
    returned = time.monotonic()
    assert table.step(rng)  # within seconds of Redis's return
    assert time.monotonic() - returned < 10
    assert [readiness(app) for app in apps] == [200, 200]
    table.finish(rng)
    assert all(p.process is not None and p.process.poll() is None for p in apps)


def test_a_frozen_redis_is_noticed_by_its_silence_and_play_resumes_when_it_thaws(
    setup: tuple[list[AppProcess], Nginx, Redis, str],
) -> None:
    """A Redis that keeps its sockets open but answers nothing (stopped, or a network that
    drops packets) is noticed when no heartbeat arrives for five beats."""
    apps, proxy, redis, _database_url = setup
    rng, table = under_way(proxy, seed=12, moves=5)
    assert redis.process is not None
    redis.process.send_signal(signal.SIGSTOP)
    try:
        wait_for(lambda: [readiness(app) for app in apps] == [503, 503], 15, "silence noticed")
    finally:
        redis.process.send_signal(signal.SIGCONT)
    wait_for(lambda: [readiness(app) for app in apps] == [200, 200], 15, "Redis heard again")
    table.finish(rng)


def readiness(app: AppProcess) -> int:
    return httpx.get(f"{app.base_url}/readyz", timeout=5).status_code


class Postgres:
    """A private PostgreSQL cluster on its own port (the machine's shared one, which other
    test runs use, is never restarted): Debian's binaries, data in a temporary folder."""

    def __init__(self) -> None:
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
        assert found, "PostgreSQL's server binaries are missing (/usr/lib/postgresql/*/bin)"
        self.bin = found[-1].parent
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="kr-faults-pg-"))
        self.data = self.folder / "data"
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            shutil.chown(self.folder, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/kartenrunde"

    def _run(self, *command: str) -> None:
        subprocess.run([*self.as_user, *command], check=True, capture_output=True, timeout=60)

    def create(self) -> None:
        self._run(
            str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
            "--no-sync", "-E", "UTF8",
        )  # fmt: skip
        self.start()
        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres", autocommit=True
        ) as db:
            db.execute("CREATE DATABASE kartenrunde")

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} -c fsync=off"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-w",
                  "-l", str(self.folder / "log"), "start")  # fmt: skip

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(Exception):
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def test_postgres_restarted_mid_match_refuses_moves_meanwhile_and_play_resumes(
    tmp_path: Path,
) -> None:
    postgres = Postgres()
    redis = Redis(tmp_path)
    apps: list[AppProcess] = []
    nginx = None
    try:
        postgres.create()
        redis.start()
        apps = start_apps(tmp_path, postgres.url, redis.url, MESSAGES_PER_SECOND="1000")
        nginx = start_nginx(tmp_path, apps)
        rng, table = under_way(nginx, seed=11, moves=10)
        before = table.version()
        postgres.stop()
        lead = max(table.clients, key=lambda c: int(c.state["version"]))
        actor = table.players[lead.state["to_move"]]
        errors = len(actor.errors)
        actor.act(rng.choice(actor.state["legal_actions"]))
        actor.until(lambda: len(actor.errors) > errors, 10, "an answer while PostgreSQL is away")
        assert actor.errors[-1]["code"] == "unavailable"
        assert "try again" in actor.errors[-1]["message"]
        # Nothing half-applied: every client still shows the last stored version.
        for client in table.clients:
            table.pump(client, 0.2)
            assert int(client.state["version"]) == before
        postgres.start()
        returned = time.monotonic()
        assert table.step(rng)
        assert time.monotonic() - returned < 10, "play resumes within seconds"
        table.finish(rng)
        stored = stored_actions(postgres.url, int(table.watcher.state["match_id"]))
        assert set(stored) == set(range(1, table.version() + 1))
        assert all(app.process is not None and app.process.poll() is None for app in apps)
    finally:
        if nginx is not None:
            nginx.stop()
        for app in apps:
            app.stop()
        redis.stop()
        postgres.remove()
