"""Pilzwanderung fits every screen at every step (tests/browser/layout.py says what that
means): the forest cards you can take and the decay pile, your hand, the cook, sell and pan
buttons, your score, and during a poison discard the discard controls."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from engine import get_game
from tests.browser.conftest import NewPage
from tests.browser.layout import SIZES, check_fits, needed, render_state
from tests.browser.players import (
    StateLog,
    act_and_wait,
    create_room,
    is_my_turn,
    join_by_link,
    wait_for_state,
)

PILZ_TAKES = "#board [data-testid^='take-']:not([data-testid='take-decay'])"


def pilz_duel(module_page: NewPage, preset: str) -> tuple[Page, Page, StateLog]:
    anna = module_page(viewport=SIZES["phone-landscape"])
    ben = module_page(viewport=SIZES["laptop"])
    log = StateLog(anna)
    url = create_room(anna, "pilzwanderung", "Anna", preset=preset)
    join_by_link(ben, url, "Benedikt")
    wait_for_state(anna)
    expect(anna.locator("#banner")).to_contain_text("turn")
    return anna, ben, log


def pilz_ply(page: Page, other: Page) -> None:
    """Takes the cheapest forest card, else the decay pile, else places a pan or opens a dialog and
    confirms it."""
    for locator in (
        page.locator(PILZ_TAKES),
        page.get_by_test_id("take-decay"),
        page.locator("[data-testid='place-pan']:enabled"),
    ):
        if locator.count():
            act_and_wait(page, locator.first.click, (other,))
            return
    discard = page.get_by_test_id("discard")
    if discard.count():
        cards = page.locator("#board button.card[aria-pressed='false']")
        while discard.is_disabled():
            cards.first.click()
        act_and_wait(page, discard.click, (other,))
        return
    page.locator("[data-testid^='open-']:enabled").first.click()
    act_and_wait(page, page.get_by_test_id("dialog-confirm").click, (other,))


PILZ_PRESETS = {
    "pilzwanderung": {},
    "morels": {"counts": "original", "night_cards": "hidden", "card_faces": "mushrooms"},
}


def show_rigged(page: Page, log: StateLog, state: Any) -> None:
    """Draws this engine state, seen by seat 0, on the page's real table."""
    game = get_game("pilzwanderung")
    message = {
        **log.latest,
        "seat": 0,
        "to_move": 0,
        "view": game.view(state, 0),
        "legal_actions": game.legal_actions(state, 0),
    }
    render_state(page, "pilzwanderung", message, ["Anna", "Benedikt"])


@pytest.mark.parametrize("preset", ["pilzwanderung", "morels"])
def test_pilzwanderung_fits_every_screen_at_every_step(module_page: NewPage, preset: str) -> None:
    anna, ben, log = pilz_duel(module_page, preset)
    page, other = (anna, ben) if is_my_turn(anna) else (ben, anna)
    assert {"take", "hand", "action", "score"} <= needed(page)
    check_fits(page, f"{preset}-start")
    check_fits(other, f"{preset}-waiting")
    for _ in range(6):
        page, other = (anna, ben) if is_my_turn(anna) else (ben, anna)
        pilz_ply(page, other)
    page, other = (anna, ben) if is_my_turn(anna) else (ben, anna)
    marked = needed(page)
    assert {"hand", "score"} <= marked and marked & {"take", "action", "discard"}, marked
    check_fits(page, f"{preset}-mid")
    # Rigged on Anna's real table: a poison mushroom lowers her hand limit, she discards.
    game = get_game("pilzwanderung")
    state = game.new(seed=3, options={"first": 0, **PILZ_PRESETS[preset]})
    state.hands[0] = ["2H", "2S", "5D", "9C", "QH", "JS", "N4", "8D"]
    state.poison[0] = ["KS"]
    state.poison_turns[0] = [2]
    state.to_move = 0
    state.phase = "discard"
    show_rigged(anna, log, state)
    anna.locator("#board button.card[data-testid^='hand-']").first.click()
    assert {"hand", "discard", "score"} <= needed(anna)
    check_fits(anna, f"{preset}-poison-discard")
    # The widest hand: one card of every group (nine mushrooms, butter, cider, a pan).
    state = game.new(seed=3, options={"first": 0, **PILZ_PRESETS[preset]})
    state.hands[0] = [f"{rank}H" for rank in range(2, 11)] + ["QH", "KH", "JH"]
    state.baskets[0] = ["QS", "QC"]
    show_rigged(anna, log, state)
    assert {"hand", "action", "score"} <= needed(anna)  # full: nothing more may be taken
    check_fits(anna, f"{preset}-widest-hand")
    # The cook dialog with every field (night card, day cards, pan, butter, cider) open.
    state = game.new(seed=3, options={"first": 0, **PILZ_PRESETS[preset]})
    state.hands[0] = ["9H", "9S", "9D", "9C", "9H", "9S", "9D", "N9", "QH", "QD", "KH", "JS"]
    state.baskets[0] = ["QS", "QC"]
    show_rigged(anna, log, state)
    anna.get_by_test_id("open-cook").click()
    expect(anna.locator(".pw-dialog .pw-field")).to_have_count(6)
    assert needed(anna) >= {"dialog"}
    check_fits(anna, f"{preset}-cook-dialog")
    # The sell dialog: its kind's choices whole and 44 px to touch on a phone on its side too
    # (issue 53: cut inside the board there, 35 px touchable).
    anna.keyboard.press("Escape")
    anna.get_by_test_id("open-sell").click()
    expect(anna.get_by_test_id("dialog-sell")).to_be_visible()
    check_fits(anna, f"{preset}-sell-dialog")
    anna.reload()
    wait_for_state(anna)
