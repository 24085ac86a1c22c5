"""Expeditionen fits every screen at every step (tests/browser/layout.py says what that means):
a turn's two steps, the longest possible expeditions, the end of a round."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from engine import get_game
from tests.browser.conftest import PHONE, SCREENSHOTS, NewPage, shoot
from tests.browser.layout import SIZES, check_fits, overlapping_parts, render_state, resize
from tests.browser.players import (
    StateLog,
    act_and_wait,
    create_room,
    is_my_turn,
    join_by_link,
    wait_for_state,
)
from tests.browser.test_expeditionen_table import first_round_over


@pytest.fixture(scope="module")
def duel(module_page: NewPage) -> tuple[Page, Page, StateLog]:
    anna = module_page(viewport=SIZES["laptop"])
    ben = module_page(viewport=SIZES["phone"])
    log = StateLog(anna)
    url = create_room(anna, "expeditionen", "Anna")
    join_by_link(ben, url, "Benedikt")
    wait_for_state(anna)
    expect(anna.locator("#banner")).to_contain_text("turn")
    return anna, ben, log


def mover(duel: tuple[Page, Page, StateLog]) -> tuple[Page, Page]:
    anna, ben, _ = duel
    return (anna, ben) if is_my_turn(anna) else (ben, anna)


def test_expeditionen_fits_every_screen_at_every_step(duel: tuple[Page, Page, StateLog]) -> None:
    page, other = mover(duel)
    check_fits(page, "expeditionen-step1")
    check_fits(other, "expeditionen-waiting")
    page.locator("#board button.card[data-testid^='hand-']").first.click()
    check_fits(page, "expeditionen-selected")
    act_and_wait(page, page.get_by_test_id("discard").click, (other,))
    check_fits(page, "expeditionen-step2")
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))


def long_expeditions(state: dict[str, Any]) -> dict[str, Any]:
    """The state of the page with both sides' expeditions at 5 to 12 cards (the longest an
    expedition can get: three wagers and nine numbers)."""
    late = copy.deepcopy(state)
    ranks = ["J", "Q", "K", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    for seat, side in enumerate(late["view"]["expeditions"]):
        for n, suit in enumerate(["S", "H", "D", "C"]):
            length = [12, 7, 9, 5][(n + seat) % 4]
            cards = [rank + suit for rank in ranks[:length]]
            side[suit] = {"cards": cards, "score": 40 - 7 * n, "multiplier": 4}  # J, Q, K
    late["view"]["finished"] = [
        {"round": 1, "dealer": 0, "scores": [31, -12], "expeditions": []},
        {"round": 2, "dealer": 1, "scores": [5, 48], "expeditions": []},
    ]
    late["view"]["totals"] = [36, 36]
    late["to_move"] = late["view"]["to_move"] = late["seat"]
    late["view"]["phase"] = "play"
    hand = late["view"]["hand"]
    late["legal_actions"] = [{"type": "discard", "card": code} for code in hand] + [
        {"type": "play", "card": code} for code in hand[:3]
    ]
    return late


def test_long_expeditions_compress_instead_of_pushing_your_row_off_screen(
    duel: tuple[Page, Page, StateLog],
) -> None:
    anna, _ben, log = duel
    page = anna
    late = long_expeditions(log.latest)
    render_state(page, "expeditionen", late, ["Anna", "Benedikt"])
    check_fits(page, "expeditionen-late")
    page.locator("#board button.card[data-testid^='hand-']").first.click()
    check_fits(page, "expeditionen-late-selected", ("phone", "phone-landscape"))
    page.reload()
    wait_for_state(page)


# The contrast of the round table's spade with the panel under it (WCAG's 3:1 for a symbol).
SPADE_CONTRAST = """() => {
  const ink = document.querySelector("[data-testid=round-summary] tr.suit-S .suit-ink");
  const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = c.map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  let under = ink.closest("table");
  while (getComputedStyle(under).backgroundColor.endsWith(", 0)")) under = under.parentElement;
  const a = lum(rgb(getComputedStyle(ink).fill));
  const b = lum(rgb(getComputedStyle(under).backgroundColor));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def test_the_end_of_a_round_keeps_its_continue_button_on_screen(
    duel: tuple[Page, Page, StateLog],
) -> None:
    anna, _ben, log = duel
    game = get_game("expeditionen")
    state = first_round_over()
    message = {
        **log.latest,
        "seat": 0,
        "to_move": game.to_move(state),
        "view": game.view(state, 0),
        "legal_actions": game.legal_actions(state, 0),
    }
    render_state(anna, "expeditionen", message, ["Anna", "Benedikt"])
    expect(anna.get_by_test_id("round-summary")).to_be_visible()
    check_fits(anna, "expeditionen-round-over")
    anna.emulate_media(color_scheme="dark")  # issue 53: its spade was black on black
    assert anna.evaluate(SPADE_CONTRAST) >= 3, "the spade of the round's table in the dark"
    shoot(anna, SCREENSHOTS / "expeditionen-round-over-dark.png", animations="disabled")
    anna.emulate_media(color_scheme="light")
    assert anna.evaluate(SPADE_CONTRAST) >= 3, "the spade of the round's table in the light"
    anna.reload()
    wait_for_state(anna)


def test_a_small_phone_draws_no_part_of_the_table_over_another(
    duel: tuple[Page, Page, StateLog],
) -> None:
    # 360 x 740, a small phone upright: the hand of eight wraps to two rows, and the rows
    # of expeditions above it keep their room at the start, at the draw and with the
    # longest ones.
    anna, _ben, log = duel
    page, other = mover(duel)
    sizes = {page: page.viewport_size, other: other.viewport_size}
    for each in (page, other):
        resize(each, PHONE)
    problems = [f"start: {p}" for p in overlapping_parts(page) + overlapping_parts(other)]
    page.locator("#board button.card[data-testid^='hand-']").first.click()
    act_and_wait(page, page.get_by_test_id("discard").click, (other,))
    page.evaluate("Promise.all(document.getAnimations().map(a => a.finished))")  # card at rest
    problems += [f"draw: {p}" for p in overlapping_parts(page)]
    shoot(page, SCREENSHOTS / "expeditionen-small-phone-draw.png")
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))
    for each, size in sizes.items():
        if size:
            each.set_viewport_size(size)
    resize(anna, PHONE)
    shoot(anna, SCREENSHOTS / "expeditionen-small-phone.png")
    render_state(anna, "expeditionen", long_expeditions(log.latest), ["Anna", "Benedikt"])
    problems += [f"long: {p}" for p in overlapping_parts(anna)]
    anna.locator("#board button.card[data-testid^='hand-']").first.click()
    problems += [f"long, a card chosen: {p}" for p in overlapping_parts(anna)]
    shoot(anna, SCREENSHOTS / "expeditionen-small-phone-long.png")
    anna.set_viewport_size(SIZES["laptop"])
    anna.reload()
    wait_for_state(anna)
    assert problems == [], "; ".join(problems)
