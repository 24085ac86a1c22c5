"""Players and their devices. A browser's cookie holds a random secret of one device; the
server keeps only its HMAC. Cookie -> device -> player id: the player holds the seats.

A player is stored when they first do something (take a seat, start a daily, name
themselves, make a link: ``new_player``), never for reading: an unknown or signed-out
cookie is no one, as if the browser had none, so requests with made-up cookies store
nothing. A cookie from before players (its HMAC held seats) whose hash has no device
becomes a player whose id is that hash, so its seats are the player's as they are; once
that player exists, its old cookie signed out is no one like any other."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from app.protocol import MAX_ID
from app.storage.players import Device, PlayerStore

COOKIE = "kr_player"
COOKIE_MAX_AGE = 400 * 24 * 3600  # the longest that browsers keep a cookie
LINK_LIFETIME = timedelta(minutes=10)
# Open links per player: a new one replaces the oldest. The "You" page shows one link at a
# time and makes another on each click, so refusing would fail a player who clicked more
# often than the cap within 10 minutes; replacing only stops links they no longer show.
LINKS_PER_PLAYER = 5
SEEN_EVERY = timedelta(minutes=1)  # last_seen_at is written at most this often per device
SAME_SITE_PATH = re.compile(r"/(?![/\\])[\w\-./?=&%]{0,199}")
T = TypeVar("T")


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 bits


def token_hash(secret_key: str, token: str) -> str:
    return hmac.new(secret_key.encode(), token.encode(), hashlib.sha256).hexdigest()


def device_label(user_agent: str) -> str:
    """Browser and system from a User-Agent, e.g. "Firefox on Android"."""
    browser = next(
        (
            name
            for key, name in (
                ("Edg/", "Edge"),
                ("OPR/", "Opera"),
                ("Firefox/", "Firefox"),
                ("Chrome/", "Chrome"),
                ("Chromium/", "Chromium"),
                ("Safari/", "Safari"),
            )
            if key in user_agent
        ),
        "Browser",
    )
    system = next(
        (
            name
            for key, name in (
                ("Android", "Android"),
                ("iPhone", "iOS"),
                ("iPad", "iPadOS"),
                ("Windows", "Windows"),
                ("Mac OS", "macOS"),
                ("CrOS", "ChromeOS"),
                ("Linux", "Linux"),
            )
            if key in user_agent
        ),
        None,
    )
    return browser if system is None else f"{browser} on {system}"


def safe_next(path: str | None) -> str | None:
    """A path on this site to go to after signing in, or None (no other sites, no //host)."""
    if path and SAME_SITE_PATH.fullmatch(path):
        return path
    return None


@dataclass(frozen=True)
class SignedIn:
    player_id: str
    device_id: int


# Told of devices signed out (stored): the player and the devices' ids.
OnSignedOut = Callable[[str, list[int]], None]


class Identity:
    def __init__(
        self,
        store: PlayerStore,
        secret_key: str,
        off_loop: Callable[..., Awaitable[Any]],
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        on_signed_out: OnSignedOut = lambda player_id, device_ids: None,
    ) -> None:
        self.store = store
        self.secret_key = secret_key
        self.off_loop = off_loop
        self.clock = clock
        # Their sockets are closed on every process (app/table/devices.py).
        self.on_signed_out = on_signed_out

    def hash(self, token: str) -> str:
        return token_hash(self.secret_key, token)

    async def signed_in(self, token: str | None, user_agent: str) -> SignedIn | None:
        """The player and device of a cookie's token; None without a token and for an
        unknown or signed-out one (a seat cookie from before players keeps its seats)."""
        if not token:
            return None
        hashed = self.hash(token)
        device: Device | None = await self.off_loop(self.store.device, hashed)
        if device is None:
            legacy: SignedIn | None = await self.off_loop(
                self._from_before_players, hashed, user_agent
            )
            return legacy
        now = self.clock()
        if now - device.last_seen_at >= SEEN_EVERY:
            await self.off_loop(self.store.seen, device.id, now)
        return SignedIn(device.player_id, device.id)

    def _from_before_players(self, hashed: str, user_agent: str) -> SignedIn | None:
        """A seat cookie from before players becomes the player its seats name; None for
        any other unknown cookie."""
        if not self.store.legacy_seats(hashed):
            return None
        # A request of the same browser at the same time may have added it: that one counts.
        self.store.add_player(hashed, hashed, device_label(user_agent), self.clock())
        device = self.store.device(hashed)
        return None if device is None else SignedIn(device.player_id, device.id)

    async def new_player(self, user_agent: str) -> tuple[str, SignedIn]:
        """A new player with this browser as their device: the cookie's token, who."""
        token = new_token()
        player_id = secrets.token_hex(16)
        label = device_label(user_agent)
        await self.off_loop(self.store.add_player, player_id, self.hash(token), label, self.clock())
        device = await self.off_loop(self.store.device, self.hash(token))
        return token, SignedIn(player_id, device.id)

    async def new_link(self, player_id: str, next_path: str | None) -> tuple[str, datetime]:
        """A single-use token that signs another browser in as the player; its expiry. The
        player's oldest open link goes beyond LINKS_PER_PLAYER, and expired links are swept."""
        token = new_token()
        now = self.clock()
        expires = now + LINK_LIFETIME
        await self.off_loop(
            self.store.add_link,
            self.hash(token),
            player_id,
            safe_next(next_path),
            expires,
            now,
            LINKS_PER_PLAYER,
        )
        return token, expires

    async def link_open(self, link: str) -> bool:
        """Whether the link may still sign a browser in (unknown, used and expired: no)."""
        found: bool = await self.off_loop(self.store.link_open, self.hash(link), self.clock())
        return found

    async def use_link(self, link: str, user_agent: str) -> tuple[str, str | None] | None:
        """A new device's cookie token for the link's player and where to go next; None when
        the link is unknown, used or expired."""
        found = await self.off_loop(self.store.use_link, self.hash(link), self.clock())
        if found is None:
            return None
        player_id, next_path = found
        token = new_token()
        await self._add_device(player_id, token, user_agent)
        return token, next_path

    async def _add_device(self, player_id: str, token: str, user_agent: str) -> None:
        label = device_label(user_agent)
        await self.off_loop(self.store.add_device, player_id, self.hash(token), label, self.clock())

    async def devices(self, player_id: str) -> list[Device]:
        devices: list[Device] = await self.off_loop(self.store.devices, player_id)
        return devices

    async def still_signed_in(self, device_id: int) -> bool:
        found: bool = await self.off_loop(self.store.device_exists, device_id)
        return found

    async def name_device(self, player_id: str, device_id: int, name: str) -> bool:
        """The player's own name for one of their devices; False when it is no device of
        theirs."""
        if not 0 < device_id <= MAX_ID:  # no device has it (the database would refuse it)
            return False
        named: bool = await self.off_loop(self.store.name_device, player_id, device_id, name)
        return named

    async def sign_out(self, player_id: str, device_id: int) -> bool:
        """The player's device signed out (its push subscriptions go with it, its sockets
        are closed); False when it is no device of theirs."""
        if not 0 < device_id <= MAX_ID:  # no device has it (the database would refuse it)
            return False
        removed: bool = await self.off_loop(self.store.remove_device, player_id, device_id)
        if removed:
            self.on_signed_out(player_id, [device_id])
        return removed

    async def sign_out_all(self, player_id: str, asking: int) -> str:
        """Every other device of the player signed out; the asking one stays (its sockets
        and push subscriptions too) with a new token, returned."""
        token = new_token()
        removed: list[int] = await self.off_loop(
            self.store.keep_only_device, player_id, asking, self.hash(token)
        )
        self.on_signed_out(player_id, removed)
        return token

    async def rename(self, player_id: str, name: str) -> list[str]:
        """The new name; the open rooms whose seats took it."""
        room_ids: list[str] = await self.off_loop(self.store.rename, player_id, name)
        return room_ids

    async def name(self, player_id: str) -> str | None:
        found: str | None = await self.off_loop(self.store.name, player_id)
        return found

    async def seated_as(self, player_id: str, name: str) -> None:
        """A player without a name takes the one they took a seat under."""
        await self.off_loop(self.store.name_if_none, player_id, name)
