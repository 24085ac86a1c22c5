"""The server's own cost of one move, without the network: validate → engine → persist → fan out.

Plays random Expeditionen matches through the socket route's ``receive`` (rate, parse,
``RoomService.handle``) on a fresh SQLite file,
with two seated connections and one spectator per room that only collect their texts.
Prints CPU microseconds per accepted move; ``--profile`` prints the top of a cProfile.

    .venv/bin/python bench/action_path.py --moves 20000
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import tempfile
import time

from app import wiring
from app.limits import RefusalLog, TokenBucket
from app.messaging import Audience
from app.routes.ws import receive
from app.settings import Settings
from app.storage.db import create_db_engine, migrate
from app.table.live import LiveRoom
from app.table.rooms import RoomService


class Collector:
    """A connection that keeps the last `state` text it was sent."""

    def __init__(self, player_id: str | None) -> None:
        self.player_id = player_id
        self.address = "127.0.0.1"
        self.visible = True
        self.seat: Audience = None
        self.bucket = TokenBucket(1e9)
        self.refusals = RefusalLog()
        self.last = ""

    def send(self, text: str) -> None:
        if text.startswith('{"type":"state"'):
            self.last = text

    def close(self, code: int, reason: str) -> None:
        pass


async def seated_room(rooms: RoomService) -> tuple[LiveRoom, list[Collector]]:
    room = rooms.create_room("expeditionen", {}, None)
    players = [Collector(f"token-{room.id}-{seat}") for seat in range(2)]
    for seat, player in enumerate(players):
        await rooms.join(room, f"P{seat}", player.player_id or "")
        await rooms.connect(room, player)
    await rooms.connect(room, Collector(None))
    return room, players


async def play(rooms: RoomService, moves: int, rng: random.Random) -> int:
    room, players = await seated_room(rooms)
    played = 0
    while played < moves:
        seat = room.to_move()
        if seat is None:
            room, players = await seated_room(rooms)
            continue
        state = json.loads(players[seat].last)
        action = rng.choice(state["legal_actions"])
        message = json.dumps({"type": "action", "version": state["version"], "action": action})
        await receive(rooms, room, players[seat], message)  # type: ignore[arg-type]
        played += 1
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=20_000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.db"
        migrate(url)
        settings = Settings(database_url=url, messages_per_second=1e9)
        rooms = wiring.build(settings, create_db_engine(url)).rooms
        profiler = cProfile.Profile() if args.profile else None
        started = time.process_time()
        if profiler:
            profiler.enable()
        played = asyncio.run(play(rooms, args.moves, random.Random(1)))
        if profiler:
            profiler.disable()
        elapsed = time.process_time() - started
    print(
        f"moves={played}  cpu_us_per_move={elapsed / played * 1e6:.1f}  "
        "(two seats and a spectator per room, every move stored in SQLite)"
    )
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)


if __name__ == "__main__":
    main()
