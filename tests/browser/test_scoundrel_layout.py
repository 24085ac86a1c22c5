"""Scoundrel fits every screen (tests/browser/layout.py says what that means)."""

from __future__ import annotations

import copy
from typing import Any

from playwright.sync_api import Route, expect

from tests.browser.conftest import NewPage
from tests.browser.layout import SIZES, check_fits, render_state
from tests.browser.players import StateLog, act_and_wait, create_room


def test_scoundrel_fits_every_screen(new_page: NewPage) -> None:
    page = new_page(viewport=SIZES["phone"])
    create_room(page, "scoundrel", "Dana")
    expect(page.locator("#board [data-testid^='take-']").first).to_be_visible()
    check_fits(page, "scoundrel-room")
    weapon = page.locator("#board [data-testid^='take-'][data-testid$='-bare']").first
    for _ in range(3):
        equip = page.locator(".sc-slot-weapon [data-testid^='take-']")
        act_and_wait(page, (equip.first if equip.count() else weapon).click)
        if page.locator("#end").is_visible():
            return
    check_fits(page, "scoundrel-later")


def scoundrel_late(state: dict[str, Any]) -> dict[str, Any]:
    """The state of the page deep in the dungeon: a worn weapon under a long stack of slain
    monsters, low health, a room with fights by weapon and bare-handed."""
    late = copy.deepcopy(state)
    view = late["view"]
    view.update(
        health=6,
        weapon="10D",
        stack=["KS", "QC", "JS", "9C", "8S", "6C", "5S", "4C"],
        weapon_limit=4,
        room=["3S", "9H", "2C", "8D"],
        dungeon_size=9,
        discard_count=14,
        taken_this_room=1,
        can_avoid=False,
    )
    late["legal_actions"] = [
        {"type": "take", "card": card, "weapon": weapon}
        for card, weapon in (("3S", True), ("3S", False), ("9H", False))
        + (("2C", True), ("2C", False), ("8D", False))
    ]
    # What the engine computes for each take (weapon 10D, health 6 of 20): the page shows it.
    # (Red faces are not in the dungeon: the weapon on offer is the 8 of diamonds.)
    health = {("3S", True): 0, ("3S", False): -3, ("9H", False): 9}
    health |= {("2C", True): 0, ("2C", False): -2, ("8D", False): 0}
    view["takes"] = [
        {"card": card, "weapon": weapon, "health": change}
        for (card, weapon), change in health.items()
    ]
    return late


def test_scoundrel_fits_every_screen_deep_in_the_dungeon(new_page: NewPage) -> None:
    page = new_page(viewport=SIZES["phone"])
    log = StateLog(page)
    create_room(page, "scoundrel", "Dana")
    expect(page.locator("#board [data-testid^='take-']").first).to_be_visible()
    render_state(page, "scoundrel", scoundrel_late(log.latest), ["Dana"])
    expect(page.locator(".sc-stack .card")).to_have_count(8)
    check_fits(page, "scoundrel-deep")


def test_scoundrel_fits_every_screen_with_the_win_chances_shown(new_page: NewPage) -> None:
    """The chances lengthen every take button ("With weapon (−8) · 45 %")."""
    page = new_page(viewport=SIZES["phone-landscape"])
    log = StateLog(page)

    def chances(route: Route) -> None:  # the estimate takes the server a while; its size does not
        actions = log.latest["legal_actions"]
        route.fulfill(
            json={"chances": [{"action": a, "chance": 0.45} for a in actions], "samples": 200}
        )

    page.route("**/hint", chances)
    create_room(page, "scoundrel", "Dana")
    page.get_by_test_id("chances").click()
    expect(page.locator("#board [data-testid^='take-']").first).to_contain_text("45")
    check_fits(page, "scoundrel-chances")


def test_scoundrel_fits_a_phone_on_its_side_beside_the_open_move_log(new_page: NewPage) -> None:
    """The log's column narrows the board: a room with fights by weapon and bare-handed,
    and the survival chances' switch, still fit the 390 px height."""
    page = new_page(viewport=SIZES["phone-landscape"])
    log = StateLog(page)
    create_room(page, "scoundrel", "Dana")
    expect(page.locator("#board [data-testid^='take-']").first).to_be_visible()
    render_state(page, "scoundrel", scoundrel_late(log.latest), ["Dana"])
    page.locator("#log-toggle").click()
    check_fits(page, "scoundrel-deep-log", ("phone-landscape",))
