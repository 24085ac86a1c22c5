"""The connection as a player meets it: errors read as sentences, a dropped socket comes back."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from tests.browser.conftest import NewPage
from tests.browser.players import act_and_wait, create_room, room_sockets


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
    page.wait_for_function("window.shownStatus.at(-1) === 'Connected'")
    shown = page.evaluate("window.shownStatus")
    changes = [text for i, text in enumerate(shown) if i == 0 or shown[i - 1] != text]
    assert changes == ["Reconnecting…", "Connected"]
    assert len(sockets) == 2
    act_and_wait(page, page.locator("#board [data-testid^='take-']").first.click)
