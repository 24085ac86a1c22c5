"""Web Push: notifications with the tab closed.

A device's subscription (its browser's push service endpoint and keys) belongs to a player
key, the value of ``PlayerDep``. ``Notifier.notify(player_key, notice)`` only queues: a
worker task of its own reads the player's subscriptions and hands one delivery per device
to a sending process of the server's own (app/people/push_sender.py: encrypting and
posting, with a timeout and a couple of tries with back-off); an endpoint answered 404 or
410 is gone and its subscription removed. A full queue drops the notice (a log line and
``kartenrunde_push_dropped_total``): a move never waits for a push. So does a delivery for
a player or to a push service with too many waiting for an answer already: a stalled
endpoint holds up only its own notices, never the handover of everyone else's.

Only a known push service's endpoint is stored, and sent to (app/push_guard.py).

A notice carries only what the lock screen may show: the game, the opponent, the room and
the table's URL; never a card or anything else hidden (tests/app/test_push.py).

``PushListener`` hears the room-events hub: your turn, a rematch offer, the match's end.
Events are published once, in the process that made the change, so each push is sent once
even with several processes.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from prometheus_client import Counter
from py_vapid import Vapid

from app.messaging import Broadcaster
from app.observability import REGISTRY
from app.people.push_sender import (
    Delivery,
    Outcome,
    SenderProcess,
    Shares,
    Terms,
    service_of,
)
from app.push_guard import PushEndpoints
from app.settings import Settings
from app.storage.models import PushSubscriptionRow
from app.storage.push import PushStore
from app.table.events import (
    Acted,
    EndedByPlayer,
    Event,
    RematchAsked,
    ReminderDue,
    RoomListener,
    Seated,
)
from app.table.live import LiveRoom

logger = logging.getLogger(__name__)

PUSH_SENT = Counter(
    "kartenrunde_push_sent", "Web Push notices accepted by a push service", registry=REGISTRY
)
PUSH_DROPPED = Counter(
    "kartenrunde_push_dropped",
    "Web Push notices dropped because the queue was full (or one device's copy of one, "
    "because its player or push service had too many waiting for an answer)",
    registry=REGISTRY,
)
PUSH_FAILED = Counter(
    "kartenrunde_push_failed", "Web Push sends that failed after every try", registry=REGISTRY
)
IN_FLIGHT = 1024  # deliveries handed to the sending process and not yet answered
# Of them, one player's: an eighth. A push service answers in some 100 ms; a match played
# as fast as the tests play it leaves a player some 45 waiting while the sending process
# starts. Stalled endpoints' deliveries end after their tries' timeouts (30 s by default).
PLAYER_IN_FLIGHT = 128
# To one push service: three quarters, so that one that stalls leaves the others a quarter.
SERVICE_IN_FLIGHT = 768


@dataclass(frozen=True)
class Notice:
    """What a device shows: a title, a line of text, and the page a tap opens. ``tag``
    lets a newer notice of the same table replace the older one."""

    title: str
    body: str
    url: str
    tag: str

    def payload(self) -> bytes:
        return orjson.dumps(
            {"title": self.title, "body": self.body, "url": self.url, "tag": self.tag}
        )


# A notice in the subscriber's language: made for each subscription's ``lang``.
Wording = Callable[[str], Notice]
# Runs a storage call where it may block (``Store.off_loop``: a thread for PostgreSQL).
OffLoop = Callable[..., Awaitable[Any]]


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_vapid_key() -> tuple[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    return pem, public_key_of(key)


def public_key_of(key: ec.EllipticCurvePrivateKey) -> str:
    """The browser's ``applicationServerKey``: the uncompressed point, base64url."""
    raw = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(raw)


def load_vapid(settings: Settings, store: PushStore) -> Vapid:
    """The VAPID key: VAPID_PRIVATE_KEY when given (PEM, or the raw key base64url as
    other Web Push tools print it), else the one stored at first start."""
    given = settings.vapid_private_key
    if given:
        return Vapid.from_string(private_key=given.replace("\\n", "\n"))
    return Vapid.from_pem(store.vapid_pem(new_vapid_key).encode())


# Sending


@dataclass
class Sending:
    player_key: str
    wording: Wording


class Notifier:
    """Queues notices for players; a worker task of its own finds each player's devices and
    hands one delivery per device to the sending process (app/people/push_sender.py)."""

    def __init__(self, settings: Settings, store: PushStore, off_loop: OffLoop) -> None:
        self.settings = settings
        self.store = store
        self.off_loop = off_loop
        vapid = load_vapid(settings, store)
        self.public_key = public_key_of(vapid.private_key)
        self.endpoints = PushEndpoints(
            tuple(settings.push_services), frozenset(settings.push_test_origins)
        )
        self.queue: asyncio.Queue[Sending] = asyncio.Queue(settings.push_queue)
        self.sender = SenderProcess(terms(settings, vapid, self.endpoints), self._heard)
        self._worker: asyncio.Task[None] | None = None
        self._numbers = itertools.count()
        # Deliveries handed to the sending process: at most this many without an outcome.
        self._in_flight = asyncio.Semaphore(IN_FLIGHT)
        self._unanswered: dict[int, tuple[str, str]] = {}  # number: (player, push service)
        self._shares = Shares(PLAYER_IN_FLIGHT, SERVICE_IN_FLIGHT)  # of the unanswered
        self._idle = asyncio.Event()
        self._idle.set()
        self._removals: set[asyncio.Task[None]] = set()

    def notify(self, player_key: str, notice: Notice | Wording) -> bool:
        """Queue a notice for every device of this player; never waits. False: the queue
        was full and the notice dropped. ``notice`` may be words for each language."""
        wording: Wording = (lambda _lang: notice) if isinstance(notice, Notice) else notice
        try:
            self.queue.put_nowait(Sending(player_key, wording))
        except asyncio.QueueFull:
            PUSH_DROPPED.inc()
            logger.warning("push queue full: notice dropped", extra={"queue": self.queue.maxsize})
            return False
        if self._worker is None:
            self._worker = asyncio.get_running_loop().create_task(self._work())
        return True

    async def _work(self) -> None:
        while True:
            sending = await self.queue.get()
            try:
                await self._hand_over(sending)
            except Exception:
                logger.exception("reading push subscriptions failed")
            finally:
                self.queue.task_done()

    async def _hand_over(self, sending: Sending) -> None:
        player = sending.player_key
        rows = await self.off_loop(self.store.subscriptions, player)
        for row in rows:
            service = service_of(row.endpoint)
            if not self._has_room(player, service):
                continue
            payload = sending.wording(row.lang).payload()
            await self._in_flight.acquire()
            number = next(self._numbers)
            self._unanswered[number] = (player, service)
            self._shares.take(player, service)
            self._idle.clear()
            self.sender.send(Delivery(number, player, row.endpoint, row.p256dh, row.auth, payload))

    def _has_room(self, player: str, service: str) -> bool:
        """Whether one more of this player's deliveries to this push service may wait for
        an answer; if not, it is dropped (logged and counted)."""
        if not self._shares.full(player, service):
            return True
        PUSH_DROPPED.inc()
        logger.warning(
            "push dropped: its player or push service has too many waiting",
            extra={
                "service": service,
                "player_waiting": self._shares.players[player],
                "service_waiting": self._shares.services[service],
            },
        )
        return False

    def _heard(self, outcome: Outcome) -> None:
        if outcome.result == "gone":
            logger.info("push subscription gone: removed")
            removal = asyncio.get_running_loop().create_task(self._remove(outcome))
            self._removals.add(removal)
            removal.add_done_callback(self._removals.discard)
            return
        if outcome.result == "sent":
            PUSH_SENT.inc()
        else:
            PUSH_FAILED.inc()
            logger.warning(
                "push failed", extra={"failure": outcome.failure, "tries": self.settings.push_tries}
            )
        self._answered(outcome.number)

    async def _remove(self, outcome: Outcome) -> None:
        try:
            await self.off_loop(self.store.unsubscribe, outcome.endpoint)
        finally:
            self._answered(outcome.number)

    def _answered(self, number: int) -> None:
        self._shares.give_back(*self._unanswered.pop(number))
        self._in_flight.release()
        if not self._unanswered:
            self._idle.set()

    async def drain(self) -> None:
        """Wait until every queued notice was sent or given up (the tests, the bench)."""
        await self.queue.join()
        await self._idle.wait()

    async def shutdown(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
        await self.sender.stop()


def terms(settings: Settings, vapid: Vapid, endpoints: PushEndpoints) -> Terms:
    pem = vapid.private_key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return Terms(
        vapid_pem=pem,
        contact=settings.push_contact,
        tries=settings.push_tries,
        retry_seconds=settings.push_retry_seconds,
        timeout_seconds=settings.push_timeout_seconds,
        ttl_seconds=settings.push_ttl_seconds,
        endpoints=endpoints,
    )


# What is sent, and when

TEXTS = {
    "en": {
        "turn": "Your turn",
        "rematch": "{opponent} offers a rematch",
        "end": "The match is over",
        "reminder": "A quarter of your time is left",
        "body": "{game} against {opponent} · room {room}",
        "nobody": "nobody",
    },
    "de": {
        "turn": "Du bist dran",
        "rematch": "{opponent} bietet eine Revanche an",
        "end": "Die Partie ist vorbei",
        "reminder": "Nur noch ein Viertel deiner Zeit",
        "body": "{game} gegen {opponent} · Tisch {room}",
        "nobody": "niemand",
    },
}


def words(lang: str) -> dict[str, str]:
    return TEXTS.get(lang, TEXTS["en"])


def opponents(room: LiveRoom, seat: int, lang: str) -> str:
    names = [
        holder.name
        for other, holder in enumerate(room.seats)
        if other != seat and holder is not None
    ]
    return ", ".join(names) or words(lang)["nobody"]


def notice_for(room: LiveRoom, seat: int, kind: str, base_url: str) -> Wording:
    """The words of one notice for ``seat``: the game, the opponent, the room; no card.
    ``kind``: turn, rematch, end or reminder (a key of TEXTS)."""

    def wording(lang: str) -> Notice:
        texts = words(lang)
        who = opponents(room, seat, lang)
        game = room.game.title.get(lang) or room.game.title.get("en") or room.game.name
        return Notice(
            title=texts[kind].format(opponent=who),
            body=texts["body"].format(game=game, opponent=who, room=room.id[:6]),
            url=f"{base_url}/r/{room.id}",
            tag=f"{kind}:{room.id}",
        )

    return wording


def has_visible_tab(room: LiveRoom, seat: int, broadcaster: Broadcaster) -> bool:
    """A tab of this seat shows the table: a socket of this process that did not say its
    page is hidden, or any socket on another process (they do not tell us whether theirs
    are visible; we would rather miss a push than send one to a player at the table)."""
    if any(c.visible for c in broadcaster.connections(room.id, seat)):
        return True
    return any(seat in seats for seats in room.remote.values())


def turn_notice_due(room: LiveRoom, seat: int, broadcaster: Broadcaster) -> bool:
    """Whether to push a notice to ``seat``: always in a turn-based room (a player there
    may look at the table now and be gone the next hour), in a live room only when no
    visible tab of theirs has the table open; never to the computer."""
    holder = room.seats[seat]
    if holder is None or holder.is_computer or room.played_by_computer(seat):
        return False
    return room.turn_based or not has_visible_tab(room, seat, broadcaster)


class PushListener(RoomListener):
    """Your turn (``Acted``, and ``Seated`` for a match's first turn), the match's end
    (``Acted``, ``EndedByPlayer``), a rematch offer (``RematchAsked``), a reminder
    (``ReminderDue``). Not ``RematchStarted``: with several processes two may publish it
    (both asked the last seat's request at once), and its players have just asked for it at
    the table."""

    def __init__(self, notifier: Notifier, broadcaster: Broadcaster, base_url: str) -> None:
        self.notifier = notifier
        self.broadcaster = broadcaster
        self.base_url = base_url.rstrip("/")

    def hear(self, event: Event) -> None:
        match event:
            case Acted(room, seat) if room.match.status == "playing":
                to_move = room.to_move()
                if to_move is not None and to_move != seat:
                    self._notify(room, to_move, "turn")
            case Acted(room, seat) | EndedByPlayer(room, seat):  # (the match's end)
                self._tell_the_others(room, seat, "end")
            case Seated(room) if room.match.version == 0:  # (a match's first turn)
                if (to_move := room.to_move()) is not None:
                    self._notify(room, to_move, "turn")
            case RematchAsked(room):
                for seat in range(len(room.seats)):
                    if seat not in room.rematch:
                        self._notify(room, seat, "rematch")
            case ReminderDue(room, seat):  # (Turns.sweep)
                self._notify(room, seat, "reminder")

    def _tell_the_others(self, room: LiveRoom, seat: int, kind: str) -> None:
        for other in range(len(room.seats)):
            if other != seat:
                self._notify(room, other, kind)

    def _notify(self, room: LiveRoom, seat: int, kind: str) -> None:
        holder = room.seats[seat]
        if holder is None or not turn_notice_due(room, seat, self.broadcaster):
            return
        self.notifier.notify(holder.player_id, notice_for(room, seat, kind, self.base_url))


def subscription_row(
    player_id: str, device_id: int | None, endpoint: str, p256dh: str, auth: str, lang: str
) -> PushSubscriptionRow:
    return PushSubscriptionRow(
        endpoint=endpoint,
        player_id=player_id,
        device_id=device_id,
        p256dh=p256dh,
        auth=auth,
        lang=lang,
        created_at=datetime.now(UTC),
    )
