"""Two people play Pilzwanderung in their browsers: a whole game to the end by clicking (the
forest, the decay pile, the cook and sell dialogs, the poison discard), the end screen, the
replay with both hands, a rematch; the Morels preset with its mushroom faces on a phone and a
desktop; the dialogs offer exactly the engine's legal combinations."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from engine import get_game
from engine.pilzwanderung import (
    BUTTER_POINTS,
    COUNTS,
    NAMES,
    NIGHT_KINDS,
    POINTS,
    STICKS,
    deck_for,
)
from tests.browser.conftest import SCREENSHOTS, NewPage, shoot
from tests.browser.players import (
    Duel,
    StateLog,
    act_and_wait,
    create_room,
    join_by_link,
    no_error_toast,
    wait_for_state,
    watch,
)

PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}
DESKTOP = {"width": 1280, "height": 800}
MAX_PLIES = 200
OFF_SCREEN = (Path(__file__).parent / "offscreen.js").read_text()
LOW_CONTRAST = (Path(__file__).parent / "contrast.js").read_text()


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
    before = page.viewport_size or DESKTOP
    for label, size in (("phone", PHONE), ("landscape", LANDSCAPE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        shoot(page, SCREENSHOTS / f"{name}-{label}.png", animations="disabled")
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
    """The page is no taller than the screen; else says what lies low on it."""
    problem = page.evaluate(
        """() => document.documentElement.scrollHeight <= innerHeight ? null
          : [document.documentElement.scrollHeight, innerHeight,
            [...document.querySelectorAll('main *')]
              .filter(e => e.checkVisibility()
                && (e.getBoundingClientRect().bottom > innerHeight - 40
                  || e.matches('.pw-layout > *, .pw-bottom > *, .pw-hand-zone > *, #banner')))
              .map(e => [e.className, e.getBoundingClientRect()])
              .map(([name, box]) => `${name} ${Math.round(box.top)}-${Math.round(box.bottom)}`)
              .slice(0, 16)]"""
    )
    assert problem is None, f"the page scrolls: {problem}"


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
    """A mushroom of a kind already in the hand, a pan, or a moon (for a night card)."""
    rank = code[:-1]
    held = {card[:-1] for card in hand}
    return (rank.isdigit() and rank in held) or rank in ("J", "A") or code == "JK"


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
    watch(watcher, duel.url)
    expect(
        watcher.locator("#board [data-testid^='hand-']:not([data-testid^='hand-count'])")
    ).to_have_count(0)
    expect(watcher.locator("#board button")).to_have_count(0)
    expect(watcher.get_by_test_id("display-top")).to_be_visible()
    expect(watcher.get_by_test_id("display-bottom")).to_be_visible()
    shoot(watcher, SCREENSHOTS / "pilzwanderung-spectator.png")


def in_view(page: Page) -> None:
    """What the current step needs (data-needed) lies inside the screen, uncovered; on a phone
    every control is at least 44 px."""
    size = page.viewport_size
    assert size is not None
    problems = page.evaluate(OFF_SCREEN, size["width"] < 700)
    assert problems == [], problems


def fits(duel: Duel) -> None:
    """Both players' tables fit their screens without scrolling at every ply, with what the
    step needs in view."""
    for page in duel.pages():
        no_scrolling(page)
        in_view(page)


def log_names_every_card(page: Page, chips: bool) -> None:
    """Every take in the move log says which card it took, by its chip only on playing cards."""
    log = page.locator("#log-list")
    expect(log).to_contain_text("took")
    expect(log).not_to_contain_text("the card at position")
    if chips:
        expect(log.locator(".card-chip").first).to_be_attached()
    else:
        expect(log.locator(".card-chip")).to_have_count(0)


def test_the_other_players_last_turn_stays_marked_until_you_act(module_page: NewPage) -> None:
    duel = seat_two(module_page, "pilzwanderung", DESKTOP)
    while True:
        page, other = duel.mover()
        if play_ply(duel) == "take":
            break
    marked = other.locator("#board .just-moved")
    expect(marked.first).to_be_attached()
    # These players asked for reduced motion: the mark stays, the glow does not pulse.
    assert marked.first.evaluate("el => getComputedStyle(el).animationName") == "none"
    shots(other, "pilzwanderung-last-turn")
    # A reload of the tab keeps the marks, and the log still names the cards taken (the
    # server tells each move with the open cards it took).
    named = "els => els.map(el => el.dataset.testid ?? el.closest('[data-testid]').dataset.testid)"
    before = marked.evaluate_all(named)
    other.reload()
    wait_for_state(other)
    expect(other.locator("#log-list .log-turn")).not_to_have_count(0)
    assert marked.evaluate_all(named) == before
    log_names_every_card(other, chips=True)
    shots(other, "pilzwanderung-log-after-reload")
    play_ply(duel)
    expect(other.locator("#board .just-moved, #board .moved-tag")).to_have_count(0)
    if duel.mover()[0] is page:
        expect(page.locator("#board .just-moved").first).to_be_attached()


def log_reads_as_text(page: Page) -> None:
    """A move log entry is a line of words that wraps like text: who, then what; nothing in
    it but the card chips is laid out as a box of its own."""
    boxes = page.evaluate(
        """[...document.querySelectorAll('#log-list .log-turn, #log-list .log-turn *')]
          .filter((el) => !el.closest('.card-chip'))
          .map((el) => [el, getComputedStyle(el).display])
          .filter(([el, shown]) => shown !== (el.matches('li') ? 'list-item' : 'inline'))
          .map(([el, shown]) => `${el.className} ${shown}`)"""
    )
    assert boxes == []


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
    log_names_every_card(duel.anna, chips=True)
    log_reads_as_text(duel.anna)
    shots(duel.anna, "pilzwanderung-end")
    duel.anna.set_viewport_size(PHONE)
    duel.anna.locator("#log-toggle").click()
    shoot(duel.anna, SCREENSHOTS / "pilzwanderung-log-phone.png", animations="disabled")
    duel.anna.locator("#log-close").click()
    duel.anna.set_viewport_size(DESKTOP)


def test_the_replay_shows_both_hands_at_every_step(duel: Duel, new_page: NewPage) -> None:
    if not over(duel):
        finish_game(duel)
    match_id = duel.state(duel.anna)["match_id"]
    page = new_page()
    page.context.add_cookies(duel.anna.context.cookies())  # a player's own match
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
    shoot(page, SCREENSHOTS / "replay-pilzwanderung.png", full_page=True)


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


def test_morels_two_people_play_to_the_end_on_a_phone_and_a_desktop(morels: Duel) -> None:
    morels.ben.set_viewport_size(DESKTOP)
    finish_game(morels, check=fits)
    for page in morels.pages():
        expect(page.locator("#end .pw-result-side")).to_have_count(2)
        expect(page.locator("#end").get_by_role("button", name="Rematch")).to_be_in_viewport()
        no_error_toast(page)
    log_names_every_card(morels.ben, chips=False)
    log_reads_as_text(morels.ben)
    shots(morels.anna, "morels-end")


def shown_codes(page: Page, selector: str) -> list[str]:
    return sorted(
        page.locator(selector).evaluate_all("els => els.map(e => e.dataset.card || 'back')")
    )


def test_the_morels_replay_shows_both_hands_with_their_night_cards_at_every_step(
    morels: Duel, new_page: NewPage, base_url: str
) -> None:
    if not over(morels):
        finish_game(morels)
    match_id = morels.state(morels.anna)["match_id"]
    anna = morels.anna.context.cookies()  # a player's own match
    cookies = {cookie["name"]: cookie["value"] for cookie in anna}
    steps = httpx.get(f"{base_url}/api/matches/{match_id}", cookies=cookies).json()["steps"]
    assert any(
        code.startswith("N") for step in steps for hand in step["view"]["hands"] for code in hand
    )
    page = new_page(viewport=DESKTOP)
    page.context.add_cookies(anna)
    page.goto(f"/matches/{match_id}")
    page.wait_for_selector("body[data-ready]")
    for index, step in enumerate(steps):
        if index:
            page.keyboard.press("ArrowRight")
        expect(page.locator("#step-label")).to_contain_text(f"Move {index} of")
        for seat, hand in enumerate(step["view"]["hands"]):
            selector = f"[data-testid='revealed-{seat}'] .card"
            assert shown_codes(page, selector) == sorted(hand), (index, seat)
        # Night cards are shown with the hand they count in, never twice (nor as backs).
        expect(page.locator(".pw-area-night")).to_have_count(0)
        action = step["action"]
        if action and action["type"] == "take":
            taken = steps[index - 1]["view"]["forest"][action["position"] - 1]["card"]
            name = page.evaluate(
                "code => import('/static/js/games/pilzwanderung.faces.js')"
                ".then(m => m.cardTitle(code))",
                taken,
            )
            expect(page.locator("#step-text")).to_contain_text(f"took {name} from position")
    shoot(page, SCREENSHOTS / "replay-morels.png", full_page=True)


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


# The start of a page function that draws with the game's own module and stylesheet
# (pages other than the table do not load them).
LOAD_GAME = """  if (!document.querySelector('link[href$="pilzwanderung.css"]')) {
    const link = Object.assign(document.createElement('link'),
      { rel: 'stylesheet', href: '/static/css/games/pilzwanderung.css' });
    document.head.append(link);
    await new Promise((resolve) => { link.onload = resolve; });
  }
  const game = await import('/static/js/games/pilzwanderung.js');
"""

EXPLORE = (
    """async ({ message, kind }) => {
"""
    + LOAD_GAME
    + """  // Walked apart from the page (no style or layout for each of the thousands of steps:
  // the dialog's focus() asked for both), shown on it at the end.
  const root = document.createElement('div');
  root.className = 'board felt';
  const sent = [];
  const ctx = { seat: 0, readOnly: false, pending: false, ui: {}, recent: [],
    act: (action) => sent.push(action), name: (seat) => ['Anna', 'Ben'][seat] };
  ctx.rerender = () => game.render(root, message, ctx);
  ctx.rerender();
  const fields = ['rank', 'night', 'day', ...(kind === 'cook' ? ['pan', 'butter', 'cider'] : [])];
  const open = () => { root.querySelector(`[data-testid=open-${kind}]`).click(); };
  const chips = (field) => [...root.querySelectorAll(`.pw-dialog [data-testid^="field-${field}-"]`)]
    .map((chip) => chip.dataset.testid);
  // Walk every path through the fields, in order; confirm at the end of each. Each branch
  // starts from a copy of the dialog as its path left it (not by clicking the path again:
  // that made the largest hand's walk take 10 s).
  const walk = (path) => {
    const chosen = (field) => path.some((id) => id.startsWith(`field-${field}-`));
    const next = fields.find((field) => chips(field).length && !chosen(field));
    if (!next) {
      root.querySelector('[data-testid=dialog-confirm]').click();
      return;
    }
    const at = structuredClone(ctx.ui.dialog);
    for (const id of chips(next)) {
      ctx.ui.dialog = structuredClone(at);
      ctx.rerender();
      root.querySelector(`[data-testid="${id}"]`).click();
      walk([...path, id]);
    }
  };
  open();
  walk([]);
  document.querySelector('main').prepend(root);
  open();
  const shown = root.querySelector('.pw-dialog') !== null;
  return { sent, shown };
}"""
)


@pytest.mark.parametrize(
    "hand, pans",
    [
        (["9H", "9S", "N9", "QH", "KD", "JS", "2C", "2D", "2H"], 1),
        (["4H", "4S", "4D", "4C", "4H", "QH", "QD", "KH", "KD", "JK"], 0),
        (["8H", "8S", "8C", "3D", "3C", "N3", "KH"], 2),
        # 9 mushrooms: two butters, or a butter and a cider together.
        (["8H", "8S", "8D", "8C", "8H", "8S", "8D", "N8", "QH", "QD", "KH", "JC"], 1),
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
            shoot(page, SCREENSHOTS / "pilzwanderung-cook-dialog.png")
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
    # One card over the smaller limit: one card asked for, in the singular.
    state.hands[0] = ["2H", "2S", "5D", "9C", "QH"]
    message = show(page, state, 0)
    assert message["view"]["must_discard"] == 1
    expect(page.locator("#rigged [data-testid=discard]")).to_have_text("Discard 1 card")
    expect(page.locator("#rigged [data-testid=discard-chosen]")).to_have_text("0 of 1 chosen")


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


# What the table shows, against the engine's view ------------------------------------------

RENDER = (
    """async ({ message, seat, recent = [], previous = null }) => {
"""
    + LOAD_GAME
    + """  document.getElementById('rigged')?.remove();
  const root = document.createElement('div');
  root.id = 'rigged';
  root.className = 'board felt';
  document.querySelector('main').prepend(root);
  const ctx = { seat, readOnly: false, pending: false, ui: {}, recent, previous, act() {},
    name: (s) => ['Anna', 'Ben'][s] };
  ctx.rerender = () => game.render(root, message, ctx);
  ctx.rerender();
}"""
)


def table_state(night_cards: str) -> Any:
    """Anna (seat 0, to move) with 2 sticks, a basket, two empty pans, a dish of four porcini
    with a butter, and a night chanterelle; Ben with 5 sticks, a poison mushroom in its last
    turn-end, a dish of five hens of the woods with a cider, and two night cards."""
    game = get_game("pilzwanderung")
    state = game.new(seed=3, options={"first": 0, "night_cards": night_cards})
    state.hands = [["9H", "9S", "N9", "QH", "2C", "JD"], ["5H", "N5", "N2"]]
    state.pans = [["XX", "JS"], []]
    state.dishes = [["JC", "8H", "8S", "8D", "8C", "QD"], ["JK", "N6", "6H", "6S", "6D", "KH"]]
    state.baskets = [["QS"], []]
    state.poison, state.poison_turns = [[], ["KC"]], [[], [1]]
    state.sticks = [2, 5]
    state.decay = ["3H", "QC"]
    state.to_move, state.phase = 0, "turn"
    return state


def show(page: Page, state: Any, seat: int) -> dict[str, Any]:
    game = get_game("pilzwanderung")
    message = {
        "seat": seat,
        "to_move": 0,
        "view": game.view(state, seat),
        "legal_actions": game.legal_actions(state, seat),
        "last_action": None,
        "result": None,
    }
    page.evaluate(RENDER, {"message": message, "seat": seat})
    return message


@pytest.mark.parametrize("night_cards", ["open", "hidden"])
def test_the_table_shows_costs_decay_displays_and_hand_as_the_engine_has_them(
    new_page: NewPage, night_cards: str
) -> None:
    page = new_page()
    page.goto("/rules/pilzwanderung")
    state = table_state(night_cards)
    message = show(page, state, 0)
    board = page.locator("#rigged")
    # The forest: each position's cost; with 2 sticks positions 3 and 4 are affordable.
    costs = board.locator(".pw-forest .pw-cost")
    expect(costs).to_have_text(["free", "free", "1", "2", "3", "4", "5", "6"])
    affordable = costs.evaluate_all("els => els.map(e => e.classList.contains('is-affordable'))")
    assert affordable == [True] * 4 + [False] * 4
    takes = [a["position"] for a in message["legal_actions"] if a["type"] == "take"]
    expect(
        board.locator("[data-needed='take'][data-testid^='take-']:not([data-testid='take-decay'])")
    ).to_have_count(len(takes))
    forest = [slot["card"] for slot in message["view"]["forest"]]
    assert shown_codes(board.page, "#rigged .pw-forest .card") == sorted(forest)
    # The decay pile, all of it, and its button.
    assert shown_codes(page, "#rigged [data-testid='decay'] .card") == ["3H", "QC"]
    expect(board.locator(".pw-decay .zone-label")).to_contain_text("2/4")
    expect(board.get_by_test_id("take-decay")).to_have_count(1)
    # Your display: sticks, empty pans, the dish with its points, the basket; no night cards
    # (they are in your hand).
    mine = board.get_by_test_id("display-bottom")
    expect(mine.get_by_test_id("sticks-bottom")).to_have_text("2")
    expect(mine.get_by_test_id("pans-bottom").locator(".card")).to_have_count(2)
    expect(mine.get_by_test_id("dish")).to_have_count(1)
    expect(mine.locator(".pw-dish-score")).to_have_text("15")
    expect(mine.locator(".pw-dish-count")).to_have_text("4×")
    expect(mine.get_by_test_id("score-bottom")).to_contain_text("15")
    expect(mine.locator(".pw-area", has_text="Baskets").locator(".card")).to_have_count(1)
    expect(mine.locator(".pw-area-night")).to_have_count(0)
    expect(mine.get_by_test_id("hand-count-bottom")).to_contain_text("6/10")
    # Ben's display: his dish, his sticks, the poison mushroom and how long it lasts.
    his = board.get_by_test_id("display-top")
    expect(his.locator(".pw-dish-score")).to_have_text("20")
    expect(his.get_by_test_id("sticks-top")).to_have_text("5")
    expect(his.get_by_test_id("poison-top")).to_contain_text(
        "hand limit 4 until the end of Ben's next turn"
    )
    expect(his.get_by_test_id("hand-count-top")).to_contain_text("3/4")
    # Ben's night cards: open, or as backs (how many, not which).
    nights = shown_codes(page, "#rigged [data-testid='night-top'] .card")
    assert nights == (["N2", "N5"] if night_cards == "open" else ["back", "back"])
    # Your hand grouped by mushroom (the night chanterelle counts 2), with its limit.
    hand = board.get_by_test_id("hand-zone")
    expect(hand.get_by_test_id("group-k09")).to_contain_text("4× Chanterelle")
    assert shown_codes(page, "#rigged [data-testid='group-k09'] .card") == ["9H", "9S", "N9"]
    expect(hand.get_by_test_id("group-k02")).to_contain_text("1× Honey fungus")
    expect(hand.get_by_test_id("hand-meter")).to_contain_text("6 of 10 cards")
    assert shown_codes(page, "#rigged [data-testid='hand-zone'] .card") == sorted(state.hands[0])
    # Ben sees Anna's night chanterelle only when night cards are open.
    show(page, state, 1)
    nights = shown_codes(page, "#rigged [data-testid='night-top'] .card")
    assert nights == (["N9"] if night_cards == "open" else ["back"])
    expect(board.get_by_test_id("poison-bottom")).to_contain_text(
        "hand limit 4 until the end of your next turn"
    )


# What is marked on the table, each named by its data-testid (a card by its own code), in the
# order of the page (the forest row before the displays, as Tab goes).
MARKED = """() => ({
  marked: [...document.querySelectorAll('#rigged .just-moved')].map((el) => el.dataset.card
    ? `${el.closest('[data-testid]').dataset.testid} ${el.dataset.card}` : el.dataset.testid),
  tags: [...document.querySelectorAll('#rigged .moved-tag')].map((el) =>
    `${el.closest('[data-testid]').dataset.testid}: ${el.textContent}`),
})"""


def ben_to_move() -> Any:
    """Ben (seat 1, to move) with 3 sticks, a pan in his display, three chanterelles, two
    shiitakes and a pan card in his hand; a poison mushroom at position 2, a basket at
    position 3; the decay pile holds a mushroom and a basket."""
    game = get_game("pilzwanderung")
    state = game.new(seed=3, options={"first": 1})
    state.forest[:3] = ["7H", "KS", "QS"]
    state.hands = [["2H"], ["9H", "9S", "9D", "5H", "5S", "JD"]]
    state.pans = [[], ["JS"]]
    state.sticks = [0, 3]
    state.decay = ["3H", "QC"]
    state.to_move, state.phase = 1, "turn"
    return state


def marked_after(page: Page, state: Any, moves: list[tuple[int, dict[str, Any]]]) -> Any:
    """Plays `moves` (seat, action) from `state` and draws Anna's table after them, with
    those moves (and the open cards each took) as the recent ones."""
    game = get_game("pilzwanderung")
    previous = game.view(state, 0)
    recent = []
    for seat, action in moves:
        recent.append({"seat": seat, "action": action, "took": game.took(state, action)})
        state = game.apply(state, seat, action)
    message = {
        "seat": 0,
        "to_move": state.to_move,
        "view": game.view(state, 0),
        "legal_actions": game.legal_actions(state, 0),
        "last_action": None,
        "result": None,
    }
    page.evaluate(RENDER, {"message": message, "seat": 0, "recent": recent, "previous": previous})
    return page.evaluate(MARKED)


def legal(state: Any, seat: int, kind: str) -> dict[str, Any]:
    return next(
        a for a in get_game("pilzwanderung").legal_actions(state, seat) if a["type"] == kind
    )


def test_the_other_players_last_turn_is_marked_where_it_changed_the_table(
    new_page: NewPage,
) -> None:
    page = new_page()
    page.goto("/rules/pilzwanderung")
    state = ben_to_move()
    # A mushroom at a free position goes into his hand.
    take_free = {"type": "take", "position": 1}
    assert marked_after(page, state, [(1, take_free)]) == {"marked": ["hand-count-top"], "tags": []}
    # A basket bought for a stick lies in his display.
    take_basket = {"type": "take", "position": 3}
    assert marked_after(page, state, [(1, take_basket)]) == {
        "marked": ["sticks-top", "display-top QS"],
        "tags": [],
    }
    # The decay pile: his hand and the basket in it, and the pile he took is tagged.
    assert marked_after(page, state, [(1, {"type": "take_decay"})]) == {
        "marked": ["hand-count-top", "display-top QC"],
        "tags": ["decay-took: Ben took"],
    }
    # A cooked dish and his score; a pan laid out; sold mushrooms, his sticks, the discard pile.
    cook = legal(state, 1, "cook")
    assert marked_after(page, state, [(1, cook)]) == {"marked": ["score-top", "dish"], "tags": []}
    assert marked_after(page, state, [(1, {"type": "place_pan"})]) == {
        "marked": ["pans-top JD"],
        "tags": [],
    }
    # Folded on a phone, his display says that it holds a mark.
    page.set_viewport_size(PHONE)
    marked_after(page, state, [(1, {"type": "place_pan"})])
    folded = page.get_by_test_id("display-top")
    expect(folded).not_to_have_attribute("open", "")
    expect(folded).to_have_class(re.compile("holds-moved"))
    shoot(folded, SCREENSHOTS / "pilzwanderung-marked-folded.png", animations="disabled")
    page.set_viewport_size(DESKTOP)
    sell = legal(state, 1, "sell")
    assert marked_after(page, state, [(1, sell)]) == {
        "marked": ["discard-pile", "sticks-top"],
        "tags": ["discard-pile: Ben sold"],
    }
    # A poison mushroom lowers his hand limit: it lies in his display, his discards on the pile.
    take_poison = {"type": "take", "position": 2}
    poisoned = get_game("pilzwanderung").apply(state, 1, take_poison)
    discard = legal(poisoned, 1, "discard")
    assert marked_after(page, state, [(1, take_poison), (1, discard)]) == {
        "marked": ["discard-pile", "poison-top KS"],
        "tags": ["discard-pile: Ben discarded"],
    }
    # Once Anna has acted, nothing of his is marked any more.
    assert marked_after(page, state, [(1, take_free), (0, {"type": "take", "position": 1})]) == {
        "marked": [],
        "tags": [],
    }
    # The marks keep their text readable in both themes.
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        for moves in ([(1, take_free)], [(1, {"type": "take_decay"})], [(1, sell)]):
            marked_after(page, state, moves)
            assert page.evaluate(LOW_CONTRAST) == [], (scheme, moves)
    # The piles' tags stay on the table at every size.
    for label, size in (("phone", PHONE), ("landscape", LANDSCAPE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        for name, moves in (("decay", [(1, {"type": "take_decay"})]), ("sell", [(1, sell)])):
            marked_after(page, state, moves)
            board = page.locator("#rigged").bounding_box()
            tag = page.locator("#rigged .moved-tag").bounding_box()
            assert board and tag, name
            assert board["x"] <= tag["x"] and tag["x"] + tag["width"] <= board["x"] + board["width"]
            shot = SCREENSHOTS / f"pilzwanderung-marked-{name}-{label}.png"
            shoot(page.locator("#rigged"), shot, animations="disabled")


def test_the_morels_faces_show_each_mushrooms_name_points_and_sticks(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/rules/pilzwanderung")
    codes = [f"{rank}H" for rank in range(2, 11)] + [f"N{rank}" for rank in range(2, 10)]
    specials = ["QH", "KD", "QS", "KC", "AS", "JC", "JK", "XX"]
    faces = page.evaluate(
        """async (codes) => {
          const { card } = await import('/static/js/cards.js');
          const { mushroomFace } = await import('/static/js/games/pilzwanderung.faces.js');
          return codes.map((code) => {
            const el = card(code, { face: mushroomFace });
            document.querySelector('main').append(el);
            const text = (selector) => [...el.querySelectorAll(selector)].map((e) => e.textContent);
            return {
              name: text('.pw-face-name').join(''), numbers: text('.pw-face-num'),
              role: text('.pw-face-role').join(''), night: text('.pw-face-x2').join(''),
              drawn: el.querySelectorAll('.pw-face path, .pw-face circle, .pw-face ellipse').length,
              pictures: el.querySelectorAll('image, img, foreignObject, .pw-face use').length,
            };
          });
        }""",
        codes + specials,
    )
    for code, face in zip(codes, faces, strict=False):
        kind = int(code[1:] if code.startswith("N") else code[:-1])
        assert face["name"].lower() == NAMES[kind], code
        assert face["numbers"] == [str(POINTS[kind]), str(STICKS[kind])], code
        assert face["night"] == ("×2" if code.startswith("N") else ""), code
    roles = {code: face for code, face in zip(codes + specials, faces, strict=True)}
    assert [roles[code]["name"] for code in specials] == [
        "Butter",
        "Cider",
        "Basket",
        "Poison",
        "Moon",
        "Pan",
        "Pan",
        "Starting pan",
    ]
    assert [roles[code]["role"] for code in specials[:4]] == ["+3", "+5", "+2", "≤4"]
    for code, face in roles.items():
        assert face["drawn"] >= 3 and face["pictures"] == 0, (code, face)


# The rules pages --------------------------------------------------------------------------

RULE_TABLES = """lang => [...document.querySelectorAll(`article.rules > [lang=${lang}] table`)]
  .map(table => [...table.querySelectorAll('tbody tr')]
    .map(row => [...row.cells].map(cell => cell.textContent.trim())))"""

# What the rules pages must tell, section by section of the rule file, in both languages.
RULE_SECTIONS = {
    "en": ["The cards", "Setup", "Your hand", "A turn", "After every turn", "The poison mushroom",
           "End and score", "Variants: Morels"],
    "de": ["Die Karten", "Vorbereitung", "Deine Hand", "Ein Zug", "Nach jedem Zug", "Der Giftpilz",
           "Spielende und Wertung", "Varianten: Morels"],
}  # fmt: skip
ROLE_ROWS = ("butter", "cider", "basket", "poison", "moon", "pan")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_rules_page_has_the_card_tables_and_worked_examples_of_the_rule_file(
    new_page: NewPage, lang: str
) -> None:
    page = new_page()
    page.goto("/rules/pilzwanderung")
    article = page.locator(f"article.rules > [lang='{lang}']")
    headings = article.locator("h2").all_text_contents()
    for section in RULE_SECTIONS[lang]:
        assert any(heading.startswith(section) for heading in headings), (section, headings)
    mushrooms, others = page.evaluate(RULE_TABLES, lang)
    standard, original = COUNTS["standard"], COUNTS["original"]
    night = {"en": ("yes", "no"), "de": ("ja", "nein")}[lang]
    assert [row[:1] + row[2:] for row in mushrooms] == [
        [
            str(kind),
            str(standard[kind]),
            str(POINTS[kind]),
            str(STICKS[kind]),
            night[0] if kind in NIGHT_KINDS else night[1],
        ]
        for kind in sorted(k for k in standard if isinstance(k, int))
    ]
    if lang == "en":
        assert [row[1].lower() for row in mushrooms] == [NAMES[kind] for kind in range(2, 11)]
    assert [row[-1] for row in others] == [
        *(str(standard[role]) for role in ROLE_ROWS),
        str(len(deck_for("standard"))),
    ]
    # The Morels counts, the night cards counting 2 and the worked examples.
    text = article.inner_text()
    assert f"({len(deck_for('original'))} " in text
    words = {"en": ("butters", "baskets"), "de": ("Butter", "Körbe")}[lang]
    for role, word in zip(("butter", "basket"), words, strict=True):
        assert f"{original[role]} {word}" in text, (role, word)
    assert f"{original[2]} {'Hallimasch' if lang == 'de' else 'honey fungus'}" in text
    examples = article.locator(".example").all_text_contents()
    cooked = 4 * POINTS[9] + BUTTER_POINTS
    sticks = {"en": "sticks", "de": "Stöcke"}[lang]
    assert any(str(cooked) in example for example in examples), examples
    assert any(f"{3 * STICKS[8]} {sticks}" in example for example in examples), examples
    assert any(f"{3 * STICKS[5]} {sticks}" in example for example in examples), examples
    for rule in {
        "en": ["8 mushrooms allow 2 butters, 9 a butter and a cider, 10 two ciders",
               "starting with the player who was skipped first", "4 cards plus 2 per basket"],
        "de": ["8 Pilze erlauben 2 Butter, 9 eine Butter und einen Cidre, 10 zwei Cidre",
               "beginnend mit dem, der zuerst übersprungen wurde", "4 Karten plus 2 je Korb"],
    }[lang]:  # fmt: skip
        assert rule in text, rule


def test_the_home_page_offers_both_presets_and_their_options(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    page.locator("label[for='game-pilzwanderung']").click()
    expect(page.locator("#presets .chip-radio")).to_have_text(
        ["Pilzwanderung", "Morels (original rules)"]
    )
    page.locator("#options summary").click()
    chosen = """() => ['counts', 'night_cards', 'card_faces'].map(name => {
      const select = document.getElementById(`option-${name}`);
      return select.options[select.selectedIndex].textContent; })"""
    assert page.evaluate(chosen) == [
        "Pilzwanderung (81 cards)",
        "Open in the display",
        "Playing cards",
    ]
    page.locator("input[name='preset'][value='morels'] + span").click()
    assert page.evaluate(chosen) == ["Morels counts (84 cards)", "Hidden in the hand", "Mushrooms"]
    page.select_option("#option-card_faces", label="Playing cards")
    expect(page.locator("#presets input:checked + span")).to_have_text("Custom")
