"""Pilzwanderung held in a hand: on a phone every control of the step is a finger's width,
the decay pile reads and says who took it, the actions you can do stand out, the cook dialog
speaks in words and leaves your hand in sight, your own display is open, and Tab walks the
step's order. Each state is drawn by the game's module on one table (tests/browser/layout.py)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from engine import get_game
from tests.browser.conftest import SCREENSHOTS, NewPage, shoot
from tests.browser.layout import SIZES, check_fits, render_state, resize
from tests.browser.players import StateLog, create_room

THEMES = ("light", "dark")


@pytest.fixture(scope="module")
def table(module_page: NewPage) -> tuple[Page, StateLog]:
    page = module_page(viewport=SIZES["phone"])
    log = StateLog(page)
    create_room(page, "pilzwanderung", "Anna", computer="easy")
    page.wait_for_selector("#banner.is-mine")
    return page, log


def show(
    table: tuple[Page, StateLog], state: Any, recent: list[dict[str, Any]] | None = None
) -> Page:
    """Draws this engine state, seen by seat 0, on Anna's table; `recent`: the last moves."""
    page, log = table
    page.set_viewport_size(SIZES["phone"])
    game = get_game("pilzwanderung")
    message = {
        **log.latest,
        "seat": 0,
        "to_move": state.to_move,
        "view": game.view(state, 0),
        "legal_actions": game.legal_actions(state, 0),
    }
    render_state(page, "pilzwanderung", message, ["Anna", "Benedikt"], recent)
    return page


def new_state(**changes: Any) -> Any:
    state = get_game("pilzwanderung").new(seed=3, options={"first": 0})
    for key, value in changes.items():
        setattr(state, key, value)
    return state


def set_theme(page: Page, theme: str) -> None:
    page.evaluate("theme => { document.documentElement.dataset.theme = theme; }", theme)


def fits_in_both_themes(page: Page, name: str) -> None:
    for theme in THEMES:
        set_theme(page, theme)
        check_fits(page, f"{name}-{theme}")


def uncovered(page: Page, selector: str) -> bool:
    """Whether the element is on top at its ends and its middle's top and bottom (a pill: the
    ends are half its height in)."""
    return page.locator(selector).evaluate(
        """el => {
            const r = el.getBoundingClientRect(), end = r.height / 2;
            const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
            return [[r.left + end, y], [r.right - end, y], [x, r.top + 1], [x, r.bottom - 1]]
              .every(([x, y]) => el.contains(document.elementFromPoint(x, y)));
        }"""
    )


DECAY_OF_THREE = {"decay": ["3H", "4S", "6D"], "hands": [["2H", "2S", "2D", "5D"], []]}


def test_cards_to_discard_are_whole_touch_targets_on_a_phone(table: tuple[Page, StateLog]) -> None:
    state = new_state(phase="discard", poison=[["KS"], []], poison_turns=[[2], []])
    state.hands[0] = ["2H", "2S", "5D", "9C", "QH", "JS", "N4", "8D"]
    page = show(table, state)
    expect(page.get_by_test_id("discard")).to_be_visible()
    fits_in_both_themes(page, "pw-phone-discard")


def test_the_decay_pile_reads_on_a_phone_and_its_take_label_is_uncovered(
    table: tuple[Page, StateLog],
) -> None:
    page = show(table, new_state(**DECAY_OF_THREE))
    for theme in THEMES:
        set_theme(page, theme)
        for size in ("phone", "phone-landscape"):
            resize(page, SIZES[size])
            card = page.locator("[data-testid='decay'] .card").first.bounding_box()
            assert card and card["width"] >= 32, (size, card)
            assert uncovered(page, ".pw-take-cue"), size
    resize(page, SIZES["phone"])
    card = page.locator("[data-testid='decay'] .card").first.bounding_box()
    assert card and card["width"] >= 44, card
    fits_in_both_themes(page, "pw-phone-decay")


def test_the_took_tag_marks_the_decay_pile_not_the_card_that_came_after(
    table: tuple[Page, StateLog],
) -> None:
    state = new_state(decay=["7S"], to_move=0)
    took = [{"seat": 1, "action": {"type": "take_decay"}, "took": ["3H", "4S"]}]
    page = show(table, state, took)
    tag = page.get_by_test_id("decay-took")
    expect(tag).to_have_text("Benedikt took")
    for size in SIZES:
        resize(page, SIZES[size])
        box = tag.bounding_box()
        card = page.locator("[data-testid='decay'] .card").bounding_box()
        assert box and card
        apart = box["y"] + box["height"] <= card["y"] or box["x"] >= card["x"] + card["width"]
        shoot(page, SCREENSHOTS / f"pw-phone-took-{size}.png", animations="disabled")
        assert apart or box["x"] + box["width"] <= card["x"], (size, box, card)


def test_the_actions_you_can_take_stand_out_and_the_others_look_disabled(
    table: tuple[Page, StateLog],
) -> None:
    state = new_state()
    state.hands[0] = ["5D", "7H", "JS"]
    page = show(table, state)
    for theme in THEMES:
        set_theme(page, theme)
        look = page.locator(".pw-actions .btn").evaluate_all(
            """buttons => buttons.map(b => [b.dataset.testid, b.disabled,
                getComputedStyle(b).backgroundColor, Number(getComputedStyle(b).opacity)])"""
        )
        turn = page.evaluate(
            """() => { const b = document.createElement('button'); b.className = 'btn btn-turn';
                document.getElementById('board').append(b);
                const color = getComputedStyle(b).backgroundColor; b.remove(); return color; }"""
        )
        assert [(key, off) for key, off, *_ in look] == [
            ("open-cook", True),
            ("open-sell", True),
            ("place-pan", False),
        ]
        for key, off, background, opacity in look:
            if off:
                assert background != turn and opacity <= 0.5, (theme, key, background, opacity)
            else:
                assert background == turn and opacity == 1, (theme, key, background)


def cook_with_a_night_card() -> Any:
    state = new_state()
    state.hands[0] = ["9H", "9S", "N9", "JS", "2D"]
    return state


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", "Add it: counts as 2 mushrooms"), ("de", "Dazulegen: zählt als 2 Pilze")],
)
def test_the_night_card_choice_says_what_it_counts(
    table: tuple[Page, StateLog], language: str, words: str
) -> None:
    page, _log = table
    set_language = "lang => import('/static/js/i18n.js').then(i18n => i18n.setLang(lang))"
    page.evaluate(set_language, language)
    try:
        show(table, cook_with_a_night_card())
        page.get_by_test_id("open-cook").click()
        expect(page.get_by_test_id("field-night-1")).to_have_text(words)
    finally:
        page.evaluate(set_language, "en")


def test_your_display_is_open_and_the_others_folded_on_a_phone(
    table: tuple[Page, StateLog],
) -> None:
    page = show(table, new_state(**DECAY_OF_THREE))
    expect(page.get_by_test_id("display-bottom")).to_have_attribute("open", "")
    expect(page.get_by_test_id("display-top")).not_to_have_attribute("open", "")
    page.set_viewport_size(SIZES["laptop"])
    expect(page.get_by_test_id("display-top")).to_have_attribute("open", "")
    expect(page.get_by_test_id("display-bottom")).to_have_attribute("open", "")
    page.set_viewport_size(SIZES["phone"])
    fits_in_both_themes(page, "pw-phone-your-display")


def test_tab_walks_the_forest_and_decay_then_your_hand_then_the_displays(
    table: tuple[Page, StateLog],
) -> None:
    page = show(table, new_state(**DECAY_OF_THREE))
    page.evaluate("document.activeElement.blur()")
    stops = []
    for _ in range(40):
        page.keyboard.press("Tab")
        stop = page.evaluate(
            """() => { const el = document.activeElement;
                return el.closest('#board') && el.closest('[data-testid]')?.dataset.testid; }"""
        )
        if stop:
            stops.append(stop)
    assert stops[0] == "take-decay", stops
    step = {"take": "take", "group": "hand", "open": "action", "place": "action"}
    kinds = [step.get(stop.split("-")[0], stop) for stop in stops]
    order = [kind for i, kind in enumerate(kinds) if kind not in kinds[:i]]
    assert order[:4] == ["take", "hand", "action", "display-bottom"], stops


def test_the_cook_dialog_leaves_the_hand_it_chooses_from_in_sight(
    table: tuple[Page, StateLog],
) -> None:
    state = new_state()
    state.hands[0] = ["9H", "9S", "9D", "9C", "9H", "9S", "9D", "N9", "QH", "QD", "KH", "JS"]
    state.baskets[0] = ["QS", "QC"]
    page = show(table, state)
    page.get_by_test_id("open-cook").click()
    expect(page.locator(".pw-dialog .pw-field")).to_have_count(6)
    for size in SIZES:
        resize(page, SIZES[size])
        for card in page.get_by_test_id("dialog-hand").locator(".card").all():
            box = card.bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= SIZES[size]["height"]
        assert uncovered(page, "[data-testid='dialog-hand'] .pw-groups"), size
    page.set_viewport_size(SIZES["phone"])
    fits_in_both_themes(page, "pw-phone-cook-dialog")
    page.get_by_test_id("dialog-cancel").click()
