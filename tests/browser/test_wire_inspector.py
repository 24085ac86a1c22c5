"""The wire inspector in the browser: the replay's "Wire" panel shows each seat's and the
spectator's message side by side with what was not sent to them, greyed; the table's
developer switch shows the seat's own last message exactly as its socket received it.
The replay's match is stored by the engine (tests/browser/test_replay_layout.py), quicker
than playing it in two browsers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, SCREENSHOTS, NewPage, serve, shoot
from tests.browser.players import choose_language, create_room
from tests.browser.test_replay_layout import MATCH_ID, store_finished_match

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own, with one finished short match of Expeditionen."""
    folder = tmp_path_factory.mktemp("wire-server")
    with serve(folder, PUBLIC_HISTORY="true") as url:
        store_finished_match(folder / "kartenrunde.db")
        yield url


def test_the_replay_shows_each_viewer_s_message_and_what_it_was_not_sent(
    new_page: NewPage,
) -> None:
    page = new_page()
    page.goto(f"/matches/{MATCH_ID}")
    page.wait_for_selector("body[data-ready]")
    panel = page.get_by_test_id("wire")
    expect(panel).to_be_hidden()
    page.get_by_test_id("wire-toggle").click()
    columns = panel.get_by_test_id("wire-column")
    expect(columns).to_have_count(3)  # Anna, Benedikt, a spectator
    expect(columns.nth(0).locator(".wire-json")).to_contain_text('"seat": 0')
    # Its title counts seats as the JSON does (issue 53: it said "seat 1" over "seat": 0).
    expect(columns.nth(0)).to_contain_text('Anna · "seat": 0')
    expect(columns.nth(1)).to_contain_text('Benedikt · "seat": 1')
    expect(columns.nth(2).locator(".wire-json")).to_contain_text('"seat": null')
    expect(columns.nth(0).get_by_test_id("wire-not-sent")).to_contain_text(
        "Not sent to Anna:8 cards in Benedikt's hand: "
    )
    anyone = panel.get_by_test_id("wire-not-sent-anyone")
    expect(anyone).to_contain_text("the 32 cards of the draw pile, and their order")
    color = anyone.evaluate("el => getComputedStyle(el).color")
    ink = page.evaluate("getComputedStyle(document.body).color")
    assert color != ink, "the part not sent is greyed"
    swipe = panel.get_by_test_id("wire-swipe")
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        # Issue 53: on a phone the columns scroll sideways; a line says so, where they do.
        sideways = columns.nth(0).evaluate(
            "c => c.parentElement.scrollWidth > c.parentElement.clientWidth"
        )
        assert sideways == (label == "phone")
        if sideways:
            expect(swipe).to_have_text("3 columns side by side: swipe sideways →")
            expect(swipe).to_be_visible()
        else:
            expect(swipe).to_be_hidden()
        shoot(page, SCREENSHOTS / f"wire-replay-{label}.png", full_page=True)
    choose_language(page, "de")
    expect(anyone).to_contain_text("An niemanden gesendet:")
    shoot(page, SCREENSHOTS / "wire-replay-phone-de.png", full_page=True)


def test_the_table_s_developer_switch_shows_the_seat_s_own_message_as_received(
    new_page: NewPage,
) -> None:
    page = new_page(viewport=PHONE)
    frames: list[str] = []
    page.on(
        "websocket",
        lambda socket: socket.on(
            "framereceived",
            lambda payload: frames.append(payload),  # type: ignore[arg-type]
        ),
    )
    create_room(page, "scoundrel", "Anna")
    panel = page.get_by_test_id("wire")
    expect(panel).to_be_hidden()  # off by default
    page.click("#settings-button")
    page.locator("label[for='pref-developer']").click()
    page.click("#settings-close")
    expect(panel).to_be_visible()
    states = [frame for frame in frames if frame.startswith('{"type":"state"')]
    assert panel.get_attribute("data-raw") == states[-1]
    expect(panel.get_by_test_id("wire-not-sent")).to_contain_text(
        "Not sent to you:the 40 cards of the dungeon, and their order"
    )
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        panel.scroll_into_view_if_needed()  # the table's main scrolls, not the page
        shoot(page, SCREENSHOTS / f"wire-table-{label}.png")
