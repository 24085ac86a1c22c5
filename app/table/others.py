"""The other server processes (REDIS_URL), as the table tells them of what it stored: the
relay (app/cluster/relay.py) is what answers here; one process alone has none."""

from __future__ import annotations

from typing import Any, Protocol


class OtherProcesses(Protocol):
    def announce(self, event: dict[str, Any], everyone: bool = False) -> None:
        """Queue an event for the processes that follow its room (``everyone``: for all of
        them); never waits."""
