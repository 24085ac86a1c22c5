"""Two server processes' room services in one test, over one database, with the events of
one handed to the other by hand, as Redis would route them (app/cluster/peers.py): a
process follows a room only while it has a socket of it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson

from app import wiring
from app.cluster.relay import Event
from app.limits import RefusalLog, TokenBucket
from app.messaging import Audience
from app.protocol import CLOSE_SIGNED_OUT, Resign
from app.settings import Settings
from app.storage.db import create_db_engine
from app.storage.players import PlayerStore
from app.table.live import LiveRoom


class Relay:
    """Redis as one process sees it: what it announces is kept for the test to hand on, with
    whether it is for every process; the rooms it follows are noted."""

    def __init__(self, name: str) -> None:
        self.process = name
        self.connected = True
        self.sent: list[tuple[Event, bool]] = []
        self.following: set[str] = set()

    def announce(self, event: Event, everyone: bool = False) -> None:
        self.sent.append(({"proc": self.process, **event}, everyone or "room" not in event))

    async def follow(self, room_id: str) -> None:
        self.following.add(room_id)

    def unfollow(self, room_id: str) -> None:
        self.following.discard(room_id)

    async def stop(self) -> None:
        pass


class Socket:
    """A connection that keeps every text it was sent."""

    def __init__(self, player_id: str | None) -> None:
        self.player_id = player_id
        self.address = "127.0.0.1"
        self.visible = True
        self.seat: Audience = None
        self.bucket = TokenBucket(1e9)
        self.refusals = RefusalLog()
        self.texts: list[dict[str, Any]] = []

    def send(self, text: str) -> None:
        self.texts.append(orjson.loads(text))

    def close(self, code: int, reason: str) -> None:
        pass

    def last(self, kind: str) -> dict[str, Any] | None:
        found = [text for text in self.texts if text["type"] == kind]
        return found[-1] if found else None


class Process:
    def __init__(self, name: str, settings: Settings) -> None:
        self.relay = Relay(name)
        self.server = wiring.build(
            settings,
            create_db_engine(settings.database_url),
            relay=self.relay,  # type: ignore[arg-type]
        )
        self.rooms = self.server.rooms
        self.cluster = self.server.cluster
        self.devices = self.server.devices

    async def hear(self, other: Process) -> list[Event]:
        """Every event the other process announced so far that Redis would hand on to this
        one (for every process, or of a room this one follows); they are returned."""
        cluster = self.cluster
        assert cluster is not None
        sent, other.relay.sent = other.relay.sent, []
        heard = [event for event, everyone in sent if everyone or self.follows(event["room"])]
        for event in heard:
            await cluster.on_event(event)
        return heard

    def follows(self, room_id: str) -> bool:
        return room_id in self.relay.following


def run(settings: Settings, scenario: Callable[[Process, Process], Awaitable[None]]) -> None:
    async def both() -> None:
        first, second = Process("first", settings), Process("second", settings)
        try:
            await scenario(first, second)
        finally:
            await first.server.stop()
            await second.server.stop()

    asyncio.run(both())


async def seated_here(process: Process) -> tuple[LiveRoom, list[Socket]]:
    """A running Expeditionen room with both players' sockets in ``process``."""
    rooms = process.rooms
    room = rooms.create_room("expeditionen", {}, None)
    sockets = [Socket(f"player-{room.id}-{seat}") for seat in range(2)]
    for seat, socket in enumerate(sockets):
        await rooms.join(room, f"P{seat}", socket.player_id or "")
        await rooms.connect(room, socket)  # type: ignore[arg-type]
    return room, sockets


async def held_without_a_socket(
    first: Process, second: Process
) -> tuple[LiveRoom, list[Socket], LiveRoom]:
    """A room seated on the first process, and the second's copy of it: loaded, no socket."""
    room, sockets = await seated_here(first)
    held = await second.rooms.open_room(room.id)
    await second.hear(first)
    return room, sockets, held


async def moves_heard(
    first: Process, second: Process, room: LiveRoom, sockets: list[Socket], count: int
) -> list[Event]:
    """``count`` moves on the first process, then what the second hears of them."""
    for _ in range(count):
        await move(first, room, sockets)
    return await second.hear(first)


async def move(process: Process, room: LiveRoom, sockets: list[Socket]) -> None:
    """The seat to move plays its first legal action."""
    seat = room.to_move()
    assert seat is not None
    state = sockets[seat].last("state")
    assert state is not None
    action = state["legal_actions"][0]
    await process.rooms.actions.play(room, seat, state["version"], action)


def test_a_process_without_a_socket_of_a_room_hears_none_of_its_moves(
    settings: Settings,
) -> None:
    async def scenario(first: Process, second: Process) -> None:
        room, sockets, held = await held_without_a_socket(first, second)
        version = held.match.version
        assert not held.followed and not second.follows(room.id)
        assert await moves_heard(first, second, room, sockets, 3) == []
        assert held.match.version == version

    run(settings, scenario)


def test_a_room_not_followed_is_caught_up_before_anything_reads_it(settings: Settings) -> None:
    async def scenario(first: Process, second: Process) -> None:
        room, sockets, held = await held_without_a_socket(first, second)
        await moves_heard(first, second, room, sockets, 3)
        assert (await second.rooms.open_room(room.id)) is held
        assert held.match.version == room.match.version
        assert held.match.state == room.match.state
        assert not held.followed

    run(settings, scenario)


def test_a_rooms_first_socket_here_follows_it_from_the_database_on(settings: Settings) -> None:
    """The subscription first, then the room as stored: a socket joining sees the match as
    it stands, and its moves are replayed here from then on."""

    async def scenario(first: Process, second: Process) -> None:
        room, sockets, held = await held_without_a_socket(first, second)
        await moves_heard(first, second, room, sockets, 2)
        watcher = Socket(None)
        await second.rooms.connect(held, watcher)  # type: ignore[arg-type]
        assert held.followed and second.follows(room.id)
        state = watcher.last("state")
        assert state is not None and state["version"] == room.match.version
        assert [event["t"] for event in await first.hear(second)] == ["hello"]
        # The first process's seats answer the hello: they are online there.
        assert [event["t"] for event in await second.hear(first)] == ["online"]
        assert [player["connected"] for player in held.players()] == [True, True]

        heard = await moves_heard(first, second, room, sockets, 1)
        assert [event["t"] for event in heard] == ["Acted"]
        state = watcher.last("state")
        assert state is not None and state["version"] == room.match.version
        assert held.match.state == room.match.state

    run(settings, scenario)


def test_the_rooms_last_socket_here_going_away_stops_following_it(settings: Settings) -> None:
    async def scenario(first: Process, second: Process) -> None:
        room, sockets, held = await held_without_a_socket(first, second)
        watchers = [Socket(None), Socket(None)]
        for watcher in watchers:
            await second.rooms.connect(held, watcher)  # type: ignore[arg-type]
        await first.hear(second)
        await second.hear(first)
        await second.rooms.disconnect(held, watchers[0])  # type: ignore[arg-type]
        assert held.followed and second.follows(room.id)
        await second.rooms.disconnect(held, watchers[1])  # type: ignore[arg-type]
        assert not held.followed and not second.follows(room.id)
        assert held.remote == {}  # the others' presence is no longer heard of
        assert await moves_heard(first, second, room, sockets, 1) == []

    run(settings, scenario)


def test_every_process_hears_that_a_match_ended(settings: Settings) -> None:
    """Without a socket of the room, or without holding it: the ratings count the end."""

    async def scenario(first: Process, second: Process) -> None:
        room, sockets = await seated_here(first)
        await second.hear(first)
        ended: list[bool] = []
        assert second.cluster is not None
        second.cluster.on_ended = lambda: ended.append(True)
        await first.rooms.handle(room, sockets[0], Resign(type="resign"))  # type: ignore[arg-type]
        assert "ended" in [event["t"] for event in await second.hear(first)]
        assert ended == [True]

    run(settings, scenario)


def test_no_takeover_wait_or_offer_stands_for_a_room_no_longer_followed(
    settings: Settings,
) -> None:
    async def scenario(first: Process, second: Process) -> None:
        room, sockets, held = await held_without_a_socket(first, second)
        watcher = Socket(None)
        await second.rooms.connect(held, watcher)  # type: ignore[arg-type]
        held.remote.clear()  # the first process's sockets went away, as this one knows
        takeovers = second.server.takeovers
        takeovers.watch(held)
        assert held.id in takeovers.awaited  # the absent mover's offer is on its way here
        await second.rooms.disconnect(held, watcher)  # type: ignore[arg-type]
        assert held.id not in takeovers.awaited and held.id not in takeovers.waits
        assert takeovers.open_offer(held) is None
        takeovers.watch(held)  # news of it brings no wait either
        assert held.id not in takeovers.awaited

    run(settings, scenario)


def test_a_room_caught_up_from_the_database_starts_the_wait_for_an_absent_mover_afresh(
    settings: Settings,
) -> None:
    """As a replayed move does: the turn began when this process learned of it, so a wait
    begun long before (the room was not followed meanwhile) brings no offer at once."""

    async def scenario(first: Process, second: Process) -> None:
        room, sockets, held = await held_without_a_socket(first, second)
        long_ago = time.monotonic() - 10 * settings.takeover_seconds
        await moves_heard(first, second, room, sockets, 2)
        held.turn_since = long_ago
        held.away_since = {0: long_ago, 1: long_ago}
        await second.rooms.open_room(room.id)
        assert held.turn_since > long_ago
        first.relay.sent.clear()  # (no answer to the hello: the first one's sockets left)
        watcher = Socket(None)  # a spectator: both players are away
        await second.rooms.connect(held, watcher)  # type: ignore[arg-type]
        offer = watcher.last("takeover")
        assert offer is None or offer["seat"] is None  # awaited, not offered

    run(settings, scenario)


def test_a_threads_look_at_a_room_not_followed_is_the_room_as_stored(
    settings: Settings,
) -> None:
    """``RoomService.room`` (from a thread) reads the database and leaves the event loop's
    room as it is: only the loop catches it up, under its lock."""

    async def scenario(first: Process, second: Process) -> None:
        room, sockets, held = await held_without_a_socket(first, second)
        version = held.match.version
        await moves_heard(first, second, room, sockets, 1)
        seen = second.rooms.room(room.id)
        assert seen.match.version == room.match.version
        assert held.match.version == version

    run(settings, scenario)


@dataclass
class DeviceSocket:
    """A socket of a signed-in device, noting the code it was closed with."""

    player_id: str
    device_id: int
    closed: int | None = None

    def close(self, code: int, reason: str) -> None:
        self.closed = code

    __hash__ = object.__hash__


def three_devices(settings: Settings) -> tuple[PlayerStore, list[int]]:
    """Ada's phone and tablet, and Bo's phone: their ids."""
    store = PlayerStore(create_db_engine(settings.database_url))
    now = datetime.now(UTC)
    store.add_player("ada", "ada-phone", "Phone", now)
    store.add_device("ada", "ada-tablet", "Tablet", now)
    store.add_player("bo", "bo-phone", "Phone", now)
    devices = [store.device(token) for token in ("ada-phone", "ada-tablet", "bo-phone")]
    return store, [device.id for device in devices if device is not None]


def sockets_on(process: Process, devices: list[int]) -> list[DeviceSocket]:
    sockets = [
        DeviceSocket(player, device)
        for player, device in zip(("ada", "ada", "bo"), devices, strict=True)
    ]
    for socket in sockets:
        process.devices.add(socket)
    return sockets


def test_a_sign_out_on_one_process_closes_the_devices_sockets_on_the_other(
    settings: Settings,
) -> None:
    store, devices = three_devices(settings)

    async def scenario(first: Process, second: Process) -> None:
        phone, tablet, bos = sockets_on(second, devices)
        store.remove_device("ada", devices[0])
        first.devices.signed_out("ada", [devices[0]])
        assert [event["t"] for event in await second.hear(first)] == ["signed_out"]
        assert (phone.closed, tablet.closed, bos.closed) == (CLOSE_SIGNED_OUT, None, None)

    run(settings, scenario)


def test_a_sign_out_lost_while_redis_was_away_reaches_the_sockets_once_it_is_back(
    settings: Settings,
) -> None:
    store, devices = three_devices(settings)

    async def scenario(first: Process, second: Process) -> None:
        phone, tablet, bos = sockets_on(second, devices)
        store.remove_device("ada", devices[0])
        store.remove_device("bo", devices[2])
        first.devices.signed_out("ada", [devices[0]])
        first.devices.signed_out("bo", [devices[2]])
        first.relay.sent.clear()  # Redis was away: the announcements are lost
        assert phone.closed is None
        cluster = second.cluster
        assert cluster is not None
        await cluster.resync()  # Redis is back
        assert (phone.closed, tablet.closed, bos.closed) == (
            CLOSE_SIGNED_OUT,
            None,
            CLOSE_SIGNED_OUT,
        )

    run(settings, scenario)
