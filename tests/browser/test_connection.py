"""The connection as a player meets it: errors read as sentences, a dropped socket comes back."""

from __future__ import annotations

import json
import re

from playwright.sync_api import WebSocketRoute, expect

from tests.browser.conftest import NewPage, wait_until
from tests.browser.players import ROOM_SOCKET, act_and_wait, create_room, room_sockets


def test_server_errors_become_readable_toasts(new_page: NewPage) -> None:
    page = new_page()
    sockets = room_sockets(page)
    create_room(page, "scoundrel", "Dana")
    refusal = {"type": "error", "code": "stale", "message": "version 3 is not the current version"}
    sockets[-1].send(json.dumps(refusal))
    expect(page.locator(".toast-error")).to_have_text(
        re.compile("^Someone else moved first; the table has been updated.")
    )
    unknown = {"type": "error", "code": "something_new", "message": "The server says no."}
    sockets[-1].send(json.dumps(unknown))
    expect(page.locator(".toast-error").last).to_contain_text("The server says no.")


def test_a_dropped_connection_reconnects_by_itself(new_page: NewPage) -> None:
    page = new_page()
    sockets = room_sockets(page)
    create_room(page, "scoundrel", "Dana")
    expect(page.locator("#conn")).to_have_text("Connected")
    page.evaluate(
        """() => {
            const conn = document.getElementById('conn');
            window.shownStatus = [];
            new MutationObserver(() => window.shownStatus.push(conn.textContent))
              .observe(conn, { childList: true, characterData: true, subtree: true });
        }"""
    )
    sockets[-1].close(code=1012, reason="server restart")
    wait_until(page, "() => window.shownStatus.at(-1) === 'Connected'")
    shown = page.evaluate("window.shownStatus")
    changes = [text for i, text in enumerate(shown) if i == 0 or shown[i - 1] != text]
    assert changes == ["Reconnecting…", "Connected"]
    assert len(sockets) == 2
    act_and_wait(page, page.locator("#board [data-testid^='take-']").first.click)


# Back-off at its longest for each attempt (the delays are 0.5, 1, 2, then 3 s), so the test
# knows when the next regular attempt is due.
LONGEST_BACKOFF = "Math.random = () => 0.999;"


def test_the_connection_is_retried_at_once_when_the_tab_or_the_network_comes_back(
    new_page: NewPage,
) -> None:
    page = new_page()
    page.add_init_script(LONGEST_BACKOFF)
    routes: list[WebSocketRoute] = []
    blocked = [False]

    def route(socket: WebSocketRoute) -> None:
        if blocked[0]:
            socket.close(code=1011)
        else:
            socket.connect_to_server()
            routes.append(socket)

    page.route_web_socket(ROOM_SOCKET, route)
    create_room(page, "scoundrel", "Dana")
    offline = page.locator("#offline")
    for comes_back in (
        "document.dispatchEvent(new Event('visibilitychange'))",  # the tab is shown again
        "window.dispatchEvent(new Event('online'))",  # the network is back
    ):
        blocked[0] = True
        routes[-1].close(code=1012)
        # the third failed attempt: the next regular one is 3 s away
        expect(offline).to_contain_text("Trying again in 3 s.", timeout=8000)
        blocked[0] = False
        page.evaluate(comes_back)
        expect(offline).to_be_hidden(timeout=1500)
        expect(page.locator("#conn")).to_have_class(re.compile("is-open"))
