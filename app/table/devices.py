"""The open websockets of signed-in devices in this process, so that signing a device out
cuts it off at once: its sockets are closed with ``CLOSE_SIGNED_OUT`` here, and with several
processes (REDIS_URL) the others hear of it on the channel every process follows and close
theirs (``app/cluster/peers.py``).

A socket reads its cookie (the device) first and is counted here only afterwards, so a
sign-out heard in between would miss it: a socket that hears of one there asks the
database once more whether its device is still signed in (``heard``, app/routes/ws.py).
A sign-out announced while Redis was away is lost: once it is back, the devices of this
process's sockets are looked up again (``recheck``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from itertools import islice
from typing import Any, Protocol

from app.protocol import CLOSE_SIGNED_OUT
from app.table.others import OtherProcesses

SIGNED_OUT = "this device was signed out"
LOOKED_UP_AT_ONCE = 500  # devices per query when they are looked up again


class DeviceSocket(Protocol):
    player_id: str | None
    device_id: int | None

    def close(self, code: int, reason: str) -> None:
        """Close after what is queued; never waits."""


class DeviceSockets:
    def __init__(
        self,
        others: OtherProcesses | None,
        signed_in: Callable[[list[int]], set[int]],
        off_loop: Callable[..., Awaitable[Any]],
    ) -> None:
        self.others = others
        self.signed_in = signed_in  # which of these devices are signed in (a query)
        self.off_loop = off_loop
        # One set over every room: a sign-out is rare, and looking through this process's
        # sockets then costs less than an entry per device on every socket.
        self._sockets: set[DeviceSocket] = set()
        self.heard = 0  # sign-outs this process has heard of so far

    def add(self, socket: DeviceSocket) -> None:
        if socket.device_id is not None:
            self._sockets.add(socket)

    def discard(self, socket: DeviceSocket) -> None:
        self._sockets.discard(socket)

    def signed_out(self, player_id: str, device_ids: Collection[int]) -> None:
        """The player's devices were signed out (stored): their sockets close, here and in
        the other processes."""
        self.close(player_id, device_ids)
        if self.others is not None and device_ids:
            self.others.announce(
                {"t": "signed_out", "player": player_id, "devices": list(device_ids)},
                everyone=True,
            )

    def close(self, player_id: str, device_ids: Collection[int]) -> None:
        """Close this process's sockets of these devices of the player."""
        self.heard += 1
        gone = set(device_ids)
        for socket in [s for s in self._sockets if s.device_id in gone]:
            if socket.player_id == player_id:
                self._sockets.discard(socket)
                socket.close(CLOSE_SIGNED_OUT, SIGNED_OUT)

    async def recheck(self) -> None:
        """Close the sockets of devices signed out meanwhile (a sign-out's announcement may
        have been lost while Redis was away)."""
        devices = iter({s.device_id for s in self._sockets if s.device_id is not None})
        gone: set[int] = set()
        while chunk := list(islice(devices, LOOKED_UP_AT_ONCE)):
            gone.update(set(chunk) - await self.off_loop(self.signed_in, chunk))
        for socket in [s for s in self._sockets if s.device_id in gone]:
            self._sockets.discard(socket)
            socket.close(CLOSE_SIGNED_OUT, SIGNED_OUT)
