"""Scoundrel's survival chances say what they count and leave with the game."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, Route, expect

from tests.browser.conftest import NewPage, screenshot
from tests.browser.players import (
    StateLog,
    create_room,
    finished_message,
    room_sockets,
)

ESTIMATING = "Estimating from the cards you have not seen"


def answer_chances(page: Page, log: StateLog, chance: float) -> None:
    """The server's estimate, at once: every legal choice gets ``chance``."""

    def chances(route: Route) -> None:
        actions = log.latest["legal_actions"]
        route.fulfill(
            json={"chances": [{"action": a, "chance": chance} for a in actions], "samples": 64}
        )

    page.route("**/hint", chances)


def test_the_estimate_leaves_the_board_when_the_dungeon_ends(new_page: NewPage) -> None:
    page = new_page()
    sockets = room_sockets(page)
    log = StateLog(page)
    page.route("**/hint", lambda route: None)  # still estimating when the game ends
    create_room(page, "scoundrel", "Dana")
    page.get_by_test_id("chances").click()
    expect(page.get_by_test_id("chances-note")).to_have_text(re.compile(ESTIMATING))
    sockets[-1].send(json.dumps(finished_message(log.latest, "scoundrel", {})))
    expect(page.locator("#end")).to_be_visible()
    expect(page.get_by_test_id("chances-note")).to_have_count(0)
    expect(page.locator("#board")).not_to_contain_text("%")


def test_the_chances_say_they_count_getting_out_alive(new_page: NewPage) -> None:
    """A move rated 100 % may leave 1 health: the number is survival, and the line under
    the choices begins by saying so."""
    for locale, toggle, meaning in (
        ("en-US", "Survival chances", "% = the chance to get out of the dungeon alive (not the"),
        ("de-DE", "Überlebenschancen", "% = die Chance, lebend aus dem Verlies zu kommen (nicht"),
    ):
        page = new_page(locale=locale)
        answer_chances(page, StateLog(page), 1.0)
        create_room(page, "scoundrel", "Dana")
        page.get_by_test_id("chances").click()
        expect(page.get_by_test_id("chances")).to_have_text(toggle)
        expect(page.locator("#board [data-testid^='take-']").first).to_contain_text("100\u00a0%")
        expect(page.get_by_test_id("chances-note")).to_have_text(
            re.compile(f"^{re.escape(meaning)}")
        )
        screenshot(page, f"scoundrel-chances-meaning-{locale}")
