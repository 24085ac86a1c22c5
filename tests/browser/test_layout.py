"""The table fits the screen: on two phone sizes and two desktop sizes, everything a player needs
for the current step (the cards to choose from, the buttons, the health or score) is on screen
without scrolling and not covered, and on phones every control is at least 44 px tall.

Each game module marks what the current step needs with data-needed; these tests fail when one
of those elements lies outside the viewport or under something else."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from engine import get_game
from tests.browser.conftest import SCREENSHOTS, NewPage
from tests.browser.players import (
    StateLog,
    act_and_wait,
    create_room,
    finished_message,
    is_my_turn,
    join_by_link,
    room_sockets,
    wait_for_state,
)

SIZES = {
    "phone": {"width": 390, "height": 844},
    "phone-landscape": {"width": 844, "height": 390},
    "laptop": {"width": 1280, "height": 800},
    "desktop": {"width": 1366, "height": 768},
}
PHONES = {"phone", "phone-landscape"}

# Every element marked as needed, and the turn banner, must be inside the viewport and be what
# the player sees at a point inside it (cards overlap: the point is near their top-left corner).
OFF_SCREEN = (Path(__file__).parent / "offscreen.js").read_text()


def check_fits(page: Page, name: str, sizes: tuple[str, ...] = tuple(SIZES)) -> None:
    """At every size: nothing needed is off screen; saves what the player sees."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    original = page.viewport_size
    problems: list[str] = []
    for label in sizes:
        page.set_viewport_size(SIZES[label])
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=SCREENSHOTS / f"layout-{name}-{label}.png", animations="disabled")
        problems += [f"{label}: {p}" for p in page.evaluate(OFF_SCREEN, label in PHONES)]
    if original:
        page.set_viewport_size(original)
    assert problems == [], f"{name}: " + "; ".join(problems)


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
            side[suit] = {"cards": [rank + suit for rank in ranks[:length]], "score": 40 - 7 * n}
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
    page.evaluate(
        """state => import('/static/js/games/expeditionen.js').then(game => {
            const board = document.getElementById('board');
            const ctx = { seat: state.seat, readOnly: false, pending: false, offline: false,
              ui: {}, recent: [], act() {}, say() {}, name: seat => ['Anna', 'Benedikt'][seat] };
            ctx.rerender = () => game.render(board, state, ctx);
            ctx.rerender();
            board.dataset.injected = 'late';
        })""",
        late,
    )
    check_fits(page, "expeditionen-late")
    page.locator("#board button.card[data-testid^='hand-']").first.click()
    check_fits(page, "expeditionen-late-selected", ("phone", "phone-landscape"))
    page.reload()
    wait_for_state(page)


def test_the_end_of_a_round_keeps_its_continue_button_on_screen(
    duel: tuple[Page, Page, StateLog],
) -> None:
    anna, _ben, log = duel
    game = get_game("expeditionen")
    state = game.new(seed=5, options={"rounds": 3, "first": 0})
    while not game.view(state, 0)["finished"]:
        seat = game.to_move(state)
        moves = game.legal_actions(state, seat)
        draws = [move for move in moves if move.get("source") == "deck"]
        state = game.apply(state, seat, draws[0] if draws else moves[-1])
    message = {
        **log.latest,
        "seat": 0,
        "to_move": game.to_move(state),
        "view": game.view(state, 0),
        "legal_actions": game.legal_actions(state, 0),
    }
    anna.evaluate(
        """state => import('/static/js/games/expeditionen.js').then(game => {
            const board = document.getElementById('board');
            const ctx = { seat: 0, readOnly: false, pending: false, offline: false, ui: {},
              recent: [], act() {}, say() {}, name: seat => ['Anna', 'Benedikt'][seat] };
            ctx.rerender = () => game.render(board, state, ctx);
            ctx.rerender();
        })""",
        message,
    )
    expect(anna.get_by_test_id("round-summary")).to_be_visible()
    check_fits(anna, "expeditionen-round-over")
    anna.reload()
    wait_for_state(anna)


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
        room=["3S", "9H", "2C", "QD"],
        dungeon_size=9,
        discard_count=14,
        taken_this_room=1,
        can_avoid=False,
    )
    late["legal_actions"] = [
        {"type": "take", "card": card, "weapon": weapon}
        for card, weapon in (("3S", True), ("3S", False), ("9H", False))
        + (("2C", True), ("2C", False), ("QD", False))
    ]
    return late


def test_scoundrel_fits_every_screen_deep_in_the_dungeon(new_page: NewPage) -> None:
    page = new_page(viewport=SIZES["phone"])
    log = StateLog(page)
    create_room(page, "scoundrel", "Dana")
    expect(page.locator("#board [data-testid^='take-']").first).to_be_visible()
    page.evaluate(
        """state => import('/static/js/games/scoundrel.js').then(game => {
            const board = document.getElementById('board');
            const ctx = { seat: 0, readOnly: false, pending: false, offline: false, ui: {},
              recent: [], act() {}, say() {}, name: () => 'Dana' };
            ctx.rerender = () => game.render(board, state, ctx);
            ctx.rerender();
        })""",
        scoundrel_late(log.latest),
    )
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


@pytest.mark.parametrize(
    ("game_name", "options"),
    [
        ("scoundrel", {}),
        ("expeditionen", {"rounds": 3, "first": 0}),
        ("pilzwanderung", {"first": 0}),
    ],
)
def test_the_end_of_a_match_keeps_rematch_on_every_screen(
    new_page: NewPage, game_name: str, options: dict[str, Any]
) -> None:
    """Once a match is over, its end panel (who won, rematch) is the current step: the board
    below it no longer needs to be on screen."""
    page = new_page(viewport=SIZES["phone-landscape"])
    sockets = room_sockets(page)
    log = StateLog(page)
    url = create_room(page, game_name, "Anna")
    if get_game(game_name).seats > 1:
        join_by_link(new_page(), url, "Benedikt")
        expect(page.locator("#banner")).to_contain_text("turn")
    sockets[-1].send(json.dumps(finished_message(log.latest, game_name, options)))
    expect(page.locator("#end")).to_be_visible()
    assert needed(page) == set()
    expect(page.locator("#end [data-needed='rematch']")).to_be_visible()
    check_fits(page, f"{game_name}-end")


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


# Pilzwanderung: the forest cards you can take and the decay pile, your hand, the cook, sell and
# pan buttons, your score, and during a poison discard the discard controls.

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


def needed(page: Page) -> set[str]:
    return set(
        page.locator("#board [data-needed]").evaluate_all("els => els.map(e => e.dataset.needed)")
    )


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
    page.evaluate(
        """state => import('/static/js/games/pilzwanderung.js').then(game => {
            const board = document.getElementById('board');
            const ctx = { seat: 0, readOnly: false, pending: false, offline: false, ui: {},
              recent: [], act() {}, say() {}, name: seat => ['Anna', 'Benedikt'][seat] };
            ctx.rerender = () => game.render(board, state, ctx);
            ctx.rerender();
        })""",
        message,
    )


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
    anna.reload()
    wait_for_state(anna)
