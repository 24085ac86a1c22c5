"""Two people play Pilzwanderung in their browsers: a whole game to the end by clicking (the
forest, the decay pile, the cook and sell dialogs, the poison discard), the end screen, the
replay with both hands, a rematch; the Morels preset with its mushroom faces on a phone and a
desktop; the dialogs offer exactly the engine's legal combinations."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from engine import get_game
from tests.browser.conftest import SCREENSHOTS, NewPage
from tests.browser.players import (
    Duel,
    StateLog,
    act_and_wait,
    create_room,
    join_by_link,
    no_error_toast,
)

PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
DESKTOP = {"width": 1280, "height": 800}
MAX_PLIES = 200


def seat_two(module_page: NewPage, preset: str, viewport: dict[str, int]) -> Duel:
    anna = module_page(viewport=viewport, motion=False)
    ben = module_page(viewport=viewport, motion=False)
    logs = {"anna": StateLog(anna), "ben": StateLog(ben)}
    url = create_room(anna, "pilzwanderung", "Anna", preset=preset)
    join_by_link(ben, url, "Ben")
    for page in (anna, ben):
        expect(page.locator("#banner")).to_contain_text(
            re.compile("Your turn|Ben's turn|Anna's turn")
        )
    return Duel(anna, ben, url, logs)


@pytest.fixture(scope="module")
def duel(module_page: NewPage) -> Duel:
    return seat_two(module_page, "pilzwanderung", DESKTOP)


@pytest.fixture(scope="module")
def morels(module_page: NewPage) -> Duel:
    return seat_two(module_page, "morels", PHONE)


def shots(page: Page, name: str) -> None:
    """Screenshots at the three sizes people look at; the page never gets wider than the screen."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    before = page.viewport_size or DESKTOP
    for label, size in (("phone", PHONE), ("landscape", LANDSCAPE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.screenshot(path=SCREENSHOTS / f"{name}-{label}.png", animations="disabled")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name} is {width} px wide at {label}"
    page.set_viewport_size(before)


def inside_viewport(page: Page, selector: str) -> None:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (selector, box, size)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (selector, box, size)


def no_scrolling(page: Page) -> None:
    heights = page.evaluate("[document.documentElement.scrollHeight, innerHeight]")
    below = page.evaluate(
        """[...document.querySelectorAll('main *')]
          .filter(e => e.checkVisibility() && (e.getBoundingClientRect().bottom > innerHeight - 40
            || e.matches('.pw-layout > *, .pw-bottom > *, .pw-hand-zone > *, #banner')))
          .map(e => [e.className, e.getBoundingClientRect()])
          .map(([name, box]) => `${name} ${Math.round(box.top)}-${Math.round(box.bottom)}`)
          .slice(0, 16)"""
    )
    assert heights[0] <= heights[1], f"the page scrolls: {heights}, {below}"


# Playing by clicking ---------------------------------------------------------------------


def hand_size(state: dict[str, Any]) -> tuple[int, int]:
    shown = state["view"]["displays"][state["seat"]]
    return shown["hand_count"], shown["hand_limit"]


def discard(duel: Duel, page: Page, other: Page, state: dict[str, Any]) -> None:
    cards = state["legal_actions"][0]["cards"]
    for code in cards:
        page.locator(
            f"#board button.card[data-testid='hand-{code}'][aria-pressed='false']"
        ).first.click()
    expect(page.get_by_test_id("discard-chosen")).to_contain_text(f"{len(cards)} of {len(cards)}")
    act_and_wait(page, page.get_by_test_id("discard").click, (other,))


def through_dialog(page: Page, other: Page, kind: str, rank: int) -> None:
    page.get_by_test_id(f"open-{kind}").click()
    dialog = page.get_by_test_id(f"dialog-{kind}")
    expect(dialog).to_be_visible()
    chip = dialog.get_by_test_id(f"field-rank-{rank}")
    if chip.is_enabled():
        chip.click()
    expect(chip).to_have_attribute("aria-checked", "true")
    act_and_wait(page, dialog.get_by_test_id("dialog-confirm").click, (other,))


def wanted(code: str, hand: list[str]) -> bool:
    """A mushroom of a kind already in the hand, or a pan."""
    rank = code[:-1]
    held = {card[:-1] for card in hand}
    return (rank.isdigit() and rank in held) or rank == "J" or code == "JK"


def play_ply(duel: Duel) -> str:
    """One sensible legal move, clicked; returns its type."""
    page, other = duel.mover()
    state = duel.state(page)
    legal = state["legal_actions"]
    view = state["view"]
    if view["phase"] == "discard":
        discard(duel, page, other, state)
        return "discard"
    kinds = {action["type"] for action in legal}
    count, limit = hand_size(state)
    if "cook" in kinds:
        best = max(
            (a for a in legal if a["type"] == "cook"), key=lambda a: a["day"] + 2 * a["night"]
        )
        through_dialog(page, other, "cook", best["rank"])
        return "cook"
    if "place_pan" in kinds and not view["displays"][state["seat"]]["pans"]:
        act_and_wait(page, page.get_by_test_id("place-pan").click, (other,))
        return "place_pan"
    if "sell" in kinds and count >= limit - 1:
        sells = [a for a in legal if a["type"] == "sell"]
        through_dialog(page, other, "sell", min(a["rank"] for a in sells))
        return "sell"
    takes = sorted(a["position"] for a in legal if a["type"] == "take")
    if takes:
        useful = [p for p in takes if wanted(view["forest"][p - 1]["card"], view["hand"])]
        position = (useful or takes)[0]
        act_and_wait(page, page.get_by_test_id(f"take-{position}").click, (other,))
        return "take"
    if "take_decay" in kinds:
        act_and_wait(page, page.get_by_test_id("take-decay").click, (other,))
        return "take_decay"
    if "sell" in kinds:
        sells = [a for a in legal if a["type"] == "sell"]
        through_dialog(page, other, "sell", sells[0]["rank"])
        return "sell"
    act_and_wait(page, page.get_by_test_id("place-pan").click, (other,))
    return "place_pan"


def over(duel: Duel) -> bool:
    return duel.anna.locator("#end").is_visible()


def finish_game(duel: Duel, check: Any = None) -> dict[str, int]:
    played: dict[str, int] = {}
    for _ in range(MAX_PLIES):
        if over(duel):
            return played
        if check is not None:
            check(duel)
        kind = play_ply(duel)
        played[kind] = played.get(kind, 0) + 1
    raise AssertionError(f"no end after {MAX_PLIES} plies: {played}")


# The tests -------------------------------------------------------------------------------


def test_the_table_shows_forest_costs_decay_displays_and_the_hand(duel: Duel) -> None:
    page, other = duel.mover()
    state = duel.state(page)
    view = state["view"]
    forest = page.get_by_test_id("forest").locator(".pw-slot")
    expect(forest).to_have_count(len(view["forest"]))
    expect(forest.nth(0).locator(".pw-cost")).to_have_text("free")
    expect(forest.nth(1).locator(".pw-cost")).to_have_text("free")
    expect(forest.nth(7).locator(".pw-cost")).to_have_text("6")
    expect(forest.nth(7).locator(".pw-cost")).to_have_class(re.compile("is-too-far"))
    takes = sorted(a["position"] for a in state["legal_actions"] if a["type"] == "take")
    buttons = page.locator("#board [data-testid^='take-']:not([data-testid='take-decay'])")
    shown = buttons.evaluate_all("els => els.map(e => Number(e.dataset.testid.slice(5)))")
    assert sorted(shown) == takes
    for position in ("top", "bottom"):
        expect(page.get_by_test_id(f"display-{position}")).to_be_visible()
        expect(page.get_by_test_id(f"pans-{position}").locator(".card")).to_have_count(1)
    count, limit = hand_size(state)
    expect(page.get_by_test_id("hand-meter")).to_contain_text(f"{count} of {limit} cards")
    expect(other.get_by_test_id("hand-zone")).to_contain_text("Waiting for")
    no_scrolling(page)
    shots(page, "pilzwanderung-start")


def test_only_legal_controls_are_offered(duel: Duel) -> None:
    page, other = duel.mover()
    state = duel.state(page)
    kinds = {a["type"] for a in state["legal_actions"]}
    for kind, testid in (("cook", "open-cook"), ("sell", "open-sell"), ("place_pan", "place-pan")):
        button = page.get_by_test_id(testid)
        if kind in kinds:
            expect(button).to_be_enabled()
        else:
            expect(button).to_be_disabled()
    expect(page.get_by_test_id("take-decay")).to_have_count(1 if "take_decay" in kinds else 0)
    expect(other.locator("#board button.card")).to_have_count(0)


def test_a_spectator_sees_both_displays_and_no_hand_or_controls(
    duel: Duel, new_page: NewPage
) -> None:
    watcher = new_page()
    join_by_link(watcher, duel.url, "Carla")
    expect(watcher.locator(".seats")).to_contain_text("You are watching")
    expect(
        watcher.locator("#board [data-testid^='hand-']:not([data-testid^='hand-count'])")
    ).to_have_count(0)
    expect(watcher.locator("#board button")).to_have_count(0)
    expect(watcher.get_by_test_id("display-top")).to_be_visible()
    expect(watcher.get_by_test_id("display-bottom")).to_be_visible()
    watcher.screenshot(path=SCREENSHOTS / "pilzwanderung-spectator.png")


def fits(duel: Duel) -> None:
    """At 1280 x 800 the whole table fits without scrolling, for both players, at every ply."""
    for page in duel.pages():
        no_scrolling(page)


def test_a_whole_game_to_the_end(duel: Duel) -> None:
    played = finish_game(duel, check=fits)
    assert played.get("take", 0) > 0
    for page in duel.pages():
        end = page.locator("#end")
        expect(end.locator("h2")).to_have_text(re.compile("You won!|Anna won|Ben won|draw"))
        expect(end.locator(".pw-result-side")).to_have_count(2)
        expect(end.get_by_role("button", name="Rematch")).to_be_visible()
        no_error_toast(page)
    result = duel.state(duel.anna)["result"]
    expect(duel.anna.locator(".pw-final-line")).to_have_text(
        f"Anna {result['scores'][0]} · Ben {result['scores'][1]}"
    )
    shots(duel.anna, "pilzwanderung-end")


def test_the_replay_shows_both_hands_at_every_step(duel: Duel, new_page: NewPage) -> None:
    if not over(duel):
        finish_game(duel)
    match_id = duel.state(duel.anna)["match_id"]
    page = new_page()
    page.goto(f"/matches/{match_id}")
    page.wait_for_selector("body[data-ready]")
    label = page.locator("#step-label")
    steps = int(re.sub(r"\D+", " ", label.inner_text()).split()[-1])
    expect(page.locator(".pw-revealed")).to_have_count(2)
    expect(page.locator(".pw-revealed").first.locator(".card")).not_to_have_count(0)
    for _ in range(3):
        page.keyboard.press("ArrowRight")
        expect(page.locator(".pw-revealed")).to_have_count(2)
    expect(page.locator("#step-text")).to_contain_text(re.compile("took|cooked|sold|placed"))
    page.locator("#slider").fill(str(steps))
    expect(page.locator("#result .pw-result-side")).to_have_count(2)
    expect(page.locator("#board button")).to_have_count(0)
    page.screenshot(path=SCREENSHOTS / "replay-pilzwanderung.png", full_page=True)


def test_rematch_starts_a_new_game(duel: Duel) -> None:
    if not over(duel):
        finish_game(duel)
    anna, ben = duel.pages()
    anna.get_by_role("button", name="Rematch").click()
    ben.get_by_role("button", name="Accept rematch").click()
    for page in duel.pages():
        page.wait_for_selector("#board[data-match='2'][data-version='0']")
        expect(page.locator("#end")).to_be_hidden()
        expect(page.get_by_test_id("forest").locator(".pw-slot")).to_have_count(8)


def test_morels_on_a_phone_keeps_the_current_step_in_view(morels: Duel) -> None:
    page, other = morels.mover()
    expect(page.locator(".pw-faces-mushrooms")).to_have_count(1)
    expect(page.locator("#board .pw-face").first).to_be_attached()
    expect(page.get_by_test_id("display-top")).not_to_have_attribute("open", "")
    page.evaluate("scrollTo(0, 0)")
    for selector in (
        "[data-testid='forest']",
        "[data-testid='hand-zone'] .pw-groups",
        ".pw-actions",
    ):
        inside_viewport(page, selector)
    shots(page, "morels-table")
    page.set_viewport_size(DESKTOP)
    no_scrolling(page)
    page.set_viewport_size(PHONE)
    for _ in range(8):
        play_ply(morels)
        mover, _ = morels.mover()
        mover.evaluate("scrollTo(0, 0)")
        for selector in ("[data-testid='forest']", "[data-testid='hand-zone']"):
            inside_viewport(mover, selector)
    page, other = morels.mover()
    state = morels.state(page)
    kinds = {a["type"] for a in state["legal_actions"]}
    if "sell" in kinds:
        page.get_by_test_id("open-sell").click()
        inside_viewport(page, "[data-testid='dialog-confirm']")
        shots(page, "morels-sell-dialog")
        page.get_by_test_id("dialog-cancel").click()
    shots(page, "morels-later")
    # A phone on its side: the forest, your hand and its buttons all above the fold.
    page.set_viewport_size(LANDSCAPE)
    page.evaluate("scrollTo(0, 0)")
    for selector in ("[data-testid='forest']", "[data-testid='hand-zone']", ".pw-actions"):
        inside_viewport(page, selector)
    page.set_viewport_size(PHONE)


# The dialogs against the engine -----------------------------------------------------------


def rigged_message(hand: list[str], pans: int, faces: str = "playing_cards") -> dict[str, Any]:
    """A turn of seat 0 with this hand (night cards included) and this many empty pans."""
    game = get_game("pilzwanderung")
    state = game.new(seed=3, options={"first": 0, "card_faces": faces})
    state.hands[0] = list(hand)
    state.pans[0] = ["XX"] * pans
    state.to_move = 0
    state.phase = "turn"
    return {
        "seat": 0,
        "to_move": 0,
        "view": game.view(state, 0),
        "legal_actions": game.legal_actions(state, 0),
        "last_action": None,
        "result": None,
    }


EXPLORE = """async ({ message, kind }) => {
  if (!document.querySelector('link[href$="pilzwanderung.css"]')) {
    const link = Object.assign(document.createElement('link'),
      { rel: 'stylesheet', href: '/static/css/games/pilzwanderung.css' });
    document.head.append(link);
    await new Promise((resolve) => { link.onload = resolve; });
  }
  const game = await import('/static/js/games/pilzwanderung.js');
  const root = document.createElement('div');
  root.className = 'board felt';
  document.querySelector('main').prepend(root);
  const sent = [];
  const ctx = { seat: 0, readOnly: false, pending: false, ui: {}, recent: [],
    act: (action) => sent.push(action), name: (seat) => ['Anna', 'Ben'][seat] };
  ctx.rerender = () => game.render(root, message, ctx);
  ctx.rerender();
  const fields = ['rank', 'night', 'day', ...(kind === 'cook' ? ['pan', 'butter', 'cider'] : [])];
  const open = () => { root.querySelector(`[data-testid=open-${kind}]`).click(); };
  const chips = (field) => [...root.querySelectorAll(`.pw-dialog [data-testid^="field-${field}-"]`)]
    .map((chip) => chip.dataset.testid);
  // Walk every path through the fields, in order; confirm at the end of each.
  const walk = (path) => {
    open();
    for (const id of path) root.querySelector(`[data-testid="${id}"]`).click();
    const chosen = (field) => path.some((id) => id.startsWith(`field-${field}-`));
    const next = fields.find((field) => chips(field).length && !chosen(field));
    if (!next) {
      root.querySelector('[data-testid=dialog-confirm]').click();
      return;
    }
    const options = chips(next);
    root.querySelector('[data-testid=dialog-cancel]').click();
    for (const id of options) walk([...path, id]);
  };
  walk([]);
  open();
  const shown = root.querySelector('.pw-dialog') !== null;
  return { sent, shown };
}"""


@pytest.mark.parametrize(
    "hand, pans",
    [
        (["9H", "9S", "N9", "QH", "KD", "JS", "2C", "2D", "2H"], 1),
        (["4H", "4S", "4D", "4C", "4H", "QH", "QD", "KH", "KD", "JK"], 0),
        (["8H", "8S", "8C", "3D", "3C", "N3", "KH"], 2),
    ],
)
def test_the_dialogs_offer_exactly_the_legal_combinations(
    new_page: NewPage, hand: list[str], pans: int
) -> None:
    message = rigged_message(hand, pans)
    page = new_page()
    page.goto("/rules/pilzwanderung")
    for kind in ("cook", "sell"):
        legal = [a for a in message["legal_actions"] if a["type"] == kind]
        result = page.evaluate(EXPLORE, {"message": message, "kind": kind})
        if kind == "cook" and pans == 1:
            page.screenshot(path=SCREENSHOTS / "pilzwanderung-cook-dialog.png")
        key = sorted  # actions as sorted item lists, to compare as sets
        assert sorted(map(lambda a: key(a.items()), result["sent"])) == sorted(
            map(lambda a: key(a.items()), legal)
        ), kind
        assert result["shown"]


def test_the_poison_discard_asks_for_the_right_number(new_page: NewPage) -> None:
    game = get_game("pilzwanderung")
    state = game.new(seed=3, options={"first": 0})
    state.hands[0] = ["2H", "2S", "5D", "9C", "QH", "JS", "N4"]
    state.poison[0] = ["KS"]
    state.poison_turns[0] = [2]
    state.to_move = 0
    state.phase = "discard"
    message = {
        "seat": 0,
        "to_move": 0,
        "view": game.view(state, 0),
        "legal_actions": game.legal_actions(state, 0),
        "last_action": None,
        "result": None,
    }
    assert message["view"]["must_discard"] == 3
    page = new_page()
    page.goto("/rules/pilzwanderung")
    sent = page.evaluate(
        """async (message) => {
          const game = await import('/static/js/games/pilzwanderung.js');
          const root = document.createElement('div');
          root.className = 'board felt';
          document.querySelector('main').prepend(root);
          const sent = [];
          const ctx = { seat: 0, readOnly: false, pending: false, ui: {}, recent: [],
            act: (action) => sent.push(action), name: (seat) => ['Anna', 'Ben'][seat] };
          ctx.rerender = () => game.render(root, message, ctx);
          ctx.rerender();
          const click = (code) => root.querySelector(
            `button.card[data-testid="hand-${code}"][aria-pressed="false"]`).click();
          const states = [];
          for (const code of ['N4', '2H', 'QH', '9C']) {
            click(code);
            states.push([root.querySelector('[data-testid=discard-chosen]').textContent,
              root.querySelector('[data-testid=discard]').disabled]);
          }
          const shown = root.querySelector('[data-testid=poison-bottom]').textContent;
          root.querySelector('[data-testid=discard]').click();
          return { sent, states, shown };
        }""",
        message,
    )
    assert sent["states"] == [
        ["1 of 3 chosen", True],
        ["2 of 3 chosen", True],
        ["3 of 3 chosen", False],
        ["3 of 3 chosen", False],
    ]
    assert sent["shown"].endswith("hand limit 4 until the end of your next turn")
    assert len(sent["sent"]) == 1
    assert sorted(sent["sent"][0]["cards"]) == sorted(["N4", "2H", "QH"])
    assert sent["sent"][0] in message["legal_actions"]


def test_a_kind_in_the_hand_opens_its_dialog(new_page: NewPage) -> None:
    message = rigged_message(["9H", "9S", "N9", "QH", "2C", "2D", "5H"], 1, faces="mushrooms")
    page = new_page()
    page.goto("/rules/pilzwanderung")
    opened = page.evaluate(
        """async (message) => {
          const game = await import('/static/js/games/pilzwanderung.js');
          const root = document.createElement('div');
          document.querySelector('main').prepend(root);
          const sent = [];
          const ctx = { seat: 0, readOnly: false, pending: false, ui: {}, recent: [],
            act: (action) => sent.push(action), name: (seat) => ['Anna', 'Ben'][seat] };
          ctx.rerender = () => game.render(root, message, ctx);
          ctx.rerender();
          const seen = {};
          for (const key of ['k09', 'k02', 'k05']) {
            const group = root.querySelector(`[data-testid=group-${key}]`);
            if (group.tagName !== 'BUTTON') { seen[key] = null; continue; }
            group.click();
            const dialog = root.querySelector('.pw-dialog');
            seen[key] = [dialog.dataset.testid,
              dialog.querySelector('[aria-checked=true][data-testid^=field-rank-]').dataset.testid,
              dialog.querySelector('[data-testid=preview]').textContent];
            dialog.querySelector('[data-testid=dialog-cancel]').click();
          }
          return seen;
        }""",
        message,
    )
    assert opened == {
        "k09": ["dialog-cook", "field-rank-9", "4 mushrooms: 19 points"],
        "k02": ["dialog-sell", "field-rank-2", "2 mushrooms: +2 sticks"],
        "k05": None,
    }
