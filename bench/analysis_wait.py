"""How long a Scoundrel player waits for the best line after the last move.

For each deal, one server (a fresh SQLite file, its search worker already started) deals a
match, waits ``--table`` seconds (the player at the table), plays the match to its end with
random legal moves and then asks for the analysis, timing that request: once with the
search started as the match is dealt (the server as it is, ``MatchService.foresee``) and
once with it started only when asked (as before 2 December evening), alternating, in one
run. Deal 781 is the slowest of 1,000 for the solver, 16 one of the quickest.

    .venv/bin/python -m bench.analysis_wait --deals 781 808 132 16 --table 10
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from unittest import mock

from fastapi.testclient import TestClient

from app.main import create_app
from app.people.identity import COOKIE
from app.settings import Settings
from tests.app.tables import Table, play


def wait_for_analysis(table: Table, deal: int, at_table: float) -> float:
    with mock.patch("app.table.live.secrets.randbits", lambda bits: deal):
        room_id, cookies = table.seated_room("scoundrel", names=("Ada",))
    time.sleep(at_table)
    with table.socket(room_id, cookies[0]) as player:
        play(table, room_id, [player], random.Random(deal))
    match_id = table.client.get(f"/api/rooms/{room_id}").json()["match_id"]
    table.client.cookies.set(COOKIE, cookies[0])  # Ada's own match
    started = time.perf_counter()
    response = table.client.get(f"/api/matches/{match_id}/analysis")
    table.client.cookies.clear()
    waited = time.perf_counter() - started
    assert response.status_code == 200 and response.json()["solved"], response.text
    return waited


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, nargs="+", default=[781, 808, 132, 16])
    parser.add_argument("--table", type=float, default=10.0, help="seconds at the table")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            _env_file=None,
            database_url=f"sqlite:///{Path(tmp)}/kartenrunde.db",
            secret_key="bench-secret-" + "k" * 32,
            log_level="WARNING",
        )
        with TestClient(create_app(settings)) as client:
            table = Table(client)
            rooms, matches = table.app.state.rooms, table.app.state.matches
            wait_for_analysis(table, 16, 0.0)  # the worker process is started
            waits: dict[str, list[float]] = {"when dealt": [], "when asked": []}
            print("| deal | search started | wait after the last move (s) |")
            print("| --- | --- | --- |")
            for _ in range(args.rounds):
                for deal in args.deals:
                    for label, on_deal in (
                        ("when asked", lambda *_: None),
                        ("when dealt", matches.foresee),
                    ):
                        rooms.on_deal = on_deal
                        waited = wait_for_analysis(table, deal, args.table)
                        waits[label].append(waited)
                        print(f"| {deal} | {label} | {waited:.3f} |", flush=True)
            for label, values in waits.items():
                print(f"{label}: median {statistics.median(values):.3f} s, max {max(values):.3f} s")


if __name__ == "__main__":
    main()
