"""What the table tells a player besides the cards: the move log (also after a reload), the
offline state, why a click did nothing, which hand cards are playable, your-turn signals when
you are not looking (only after opting in), keyboard use, the invite panel, the dark theme.

Anna plays on a laptop with stand-ins for the browser's Notification and document.hidden
(so the test can look away); Ben on a second laptop. They stay at the table across tests."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.browser.conftest import NewPage, screenshot, wait_until
from tests.browser.players import (
    act_and_wait,
    create_room,
    is_my_turn,
    join_by_link,
    wait_for_state,
)

HAND = "#board button.card[data-testid^='hand-']"

# Notifications the page shows, and whether it asked for permission, without a real prompt.
STAND_INS = """
window.__notes = []; window.__asked = 0; window.__hidden = false;
window.Notification = class {
  constructor(title, options) { window.__notes.push(title); }
  close() {}
  static get permission() { return window.__permission ?? 'default'; }
  static requestPermission() {
    window.__asked += 1; window.__permission = 'granted'; return Promise.resolve('granted');
  }
};
window.__beeps = 0;
window.AudioContext = class {
  constructor() { window.__beeps += 1; throw new Error('no sound card in the tests'); }
};
Object.defineProperty(Document.prototype, 'hidden', {
  configurable: true, get() { return window.__hidden; } });
"""


@dataclass
class Pair:
    anna: Page
    ben: Page
    url: str

    def mover(self) -> tuple[Page, Page]:
        """Whose turn it is, once a page says so (a page that just reconnected may not yet
        have drawn the state it was sent)."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            for page, other in ((self.anna, self.ben), (self.ben, self.anna)):
                if is_my_turn(page):
                    return page, other
            self.anna.wait_for_timeout(100)
        raise AssertionError("it is nobody's turn")


@pytest.fixture(scope="module")
def pair(module_page: NewPage) -> Pair:
    anna = module_page()
    anna.context.add_init_script(STAND_INS)
    ben = module_page()
    url = create_room(anna, "expeditionen", "Anna")
    join_by_link(ben, url, "Ben")
    expect(anna.locator("#banner")).to_contain_text(re.compile("Your turn|Ben's turn"))
    return Pair(anna, ben, url)


def turn(pair: Pair, discard: bool = False) -> None:
    page, other = pair.mover()
    card = page.locator(f"{HAND}.is-playable").first
    if discard or card.count() == 0:
        card = page.locator(HAND).first
    if card.get_attribute("aria-pressed") != "true":  # an earlier test may have chosen it
        card.click()
    test_id = "play" if page.get_by_test_id("play").is_enabled() and not discard else "discard"
    act_and_wait(page, page.get_by_test_id(test_id).click, (other,))
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))


def test_the_move_log_tells_both_halves_of_each_turn_and_survives_a_reload(pair: Pair) -> None:
    turn(pair)
    turn(pair, discard=True)
    page, other = pair.mover()
    # `page` is to move: the other player's last turn is the log's last entry
    last = page.locator("#log-list .log-turn").last
    expect(page.locator("#log-list .log-turn")).to_have_count(2)
    expect(last).to_contain_text("discarded")
    expect(last).to_contain_text("drew from the draw pile")
    page.reload()
    wait_for_state(page)
    expect(page.locator("#log-list .log-turn")).to_have_count(2)
    turns = page.locator("#log-list .log-turn")
    expect(turns.first).to_contain_text(re.compile("played|discarded"))
    expect(turns.last).to_contain_text("drew from the draw pile")
    expect(page.get_by_test_id("last-move")).to_contain_text("discarded")
    # the other player's turn stays marked on the table until you act
    expect(page.locator("#board .just-moved").first).to_be_attached()
    page.locator(HAND).first.click()
    act_and_wait(page, page.get_by_test_id("discard").click, (other,))
    marked = page.locator("#board .ex-side .just-moved, #board .ex-pile .just-moved")
    expect(marked).to_have_count(0)
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator("#log")).to_be_hidden()
    page.locator("#log-toggle").click()
    expect(page.locator("#log")).to_be_visible()
    expect(page.locator("#log-toggle")).to_have_text(re.compile(r"Moves \(3\)"))
    screenshot(page, "move-log")
    page.locator("#log-close").click()
    page.set_viewport_size({"width": 1280, "height": 800})


def test_offline_is_unmistakable_and_moves_wait_for_the_connection(pair: Pair) -> None:
    page, other = pair.mover()
    page.context.set_offline(True)
    expect(page.locator("#offline")).to_be_visible()
    expect(page.locator("#offline")).to_contain_text("Connection lost")
    expect(page.locator("#banner")).to_contain_text("Offline")
    expect(page.locator(".seat.is-you")).to_contain_text("away")
    expect(page).not_to_have_title(re.compile("Your turn"))
    before = page.locator("#board").get_attribute("data-version")
    page.locator(HAND).first.dblclick(force=True)
    expect(page.locator("#offline")).to_be_visible()
    assert page.locator("#board").get_attribute("data-version") == before
    expect(page.get_by_role("button", name="Retry now")).to_be_visible()
    screenshot(page, "offline")
    page.context.set_offline(False)
    expect(page.locator("#offline")).to_be_hidden()
    expect(page.locator("#banner")).to_contain_text("Your turn")
    expect(page.locator(".seat.is-you")).to_contain_text("online")
    turn(pair)


def test_retry_now_reconnects_at_once(pair: Pair) -> None:
    page = pair.anna
    blocked = [True]

    def route(socket: WebSocketRoute) -> None:
        if blocked[0]:
            socket.close(code=1011)
        else:
            socket.connect_to_server()

    page.route_web_socket(re.compile("/ws/rooms/"), route)
    page.reload()
    expect(page.locator("#offline")).to_be_visible()
    expect(page.locator("#offline")).to_contain_text(re.compile("Trying again|Trying to"))
    # The overlay's words change each second; its button stays the same, so that a click
    # on a busy machine does not lose it halfway.
    button = page.get_by_role("button", name="Retry now").element_handle()
    page.wait_for_timeout(1200)
    assert button.evaluate("button => button.isConnected")
    blocked[0] = False
    page.get_by_role("button", name="Retry now").click()
    expect(page.locator("#offline")).to_be_hidden(timeout=2000)
    expect(page.locator("#conn")).to_have_class(re.compile("is-open"))


def test_clicks_that_do_nothing_say_why(pair: Pair) -> None:
    page, other = pair.mover()
    other.locator("#board .ex-hand .card").first.click()
    expect(other.locator("#table-note")).to_contain_text(
        re.compile(r"It is (Anna|Ben)'s turn: wait for their move.")
    )
    page.locator("#board .ex-deck .pile").click()
    expect(page.locator("#table-note")).to_have_text(
        "Step 1 first: play or discard a card from your hand, then draw."
    )


def test_playable_cards_are_marked_and_a_double_click_plays(pair: Pair) -> None:
    page, other = pair.mover()
    cards = page.locator(HAND)
    playable = page.locator(f"{HAND}.is-playable")
    for i in range(cards.count()):
        label = cards.nth(i).get_attribute("aria-label") or ""
        assert label.endswith(("can be played", "can only be discarded")), label
    assert playable.count() == page.locator(f"{HAND} .ex-play-mark").count()
    if playable.count():
        code = playable.first.get_attribute("data-card")
        act_and_wait(page, playable.first.dblclick, (other,))
        expect(other.locator(f"#board .ex-top .card[data-card='{code}']")).to_have_count(1)
    else:
        act_and_wait(page, cards.first.dblclick, (other,))
    expect(page.locator(".ex-step.is-current")).to_have_text("2Draw")
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))


def test_a_card_can_be_dragged_onto_the_discard_pile(pair: Pair) -> None:
    page, other = pair.mover()
    card = page.locator(HAND).first
    code = str(card.get_attribute("data-card"))
    match, number = (
        int(page.locator("#board").get_attribute("data-match") or 0),
        int(page.locator("#board").get_attribute("data-version") or 0),
    )
    card.drag_to(page.get_by_test_id(f"discard-{code[-1]}"))
    page.wait_for_selector(f"#board[data-match='{match}'][data-version='{number + 1}']")
    expect(page.get_by_test_id(f"discard-{code[-1]}").locator(".card").first).to_have_attribute(
        "data-card", code
    )
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))


TOUCH_DRAG = """([card, target]) => {
  const from = card.getBoundingClientRect(), to = target.getBoundingClientRect();
  const at = (x, y) => ({ pointerType: 'touch', pointerId: 7, isPrimary: true, bubbles: true,
                          clientX: x, clientY: y });
  const [x0, y0] = [from.left + 10, from.top + 20];
  const [x1, y1] = [to.left + to.width / 2, to.top + to.height / 2];
  card.dispatchEvent(new PointerEvent('pointerdown', at(x0, y0)));
  for (let i = 1; i <= 6; i += 1) {
    const [x, y] = [x0 + ((x1 - x0) * i) / 6, y0 + ((y1 - y0) * i) / 6];
    card.dispatchEvent(new PointerEvent('pointermove', at(x, y)));
  }
  card.dispatchEvent(new PointerEvent('pointerup', at(x1, y1)));
}"""


def test_on_a_touch_screen_a_card_is_dragged_with_the_finger(pair: Pair) -> None:
    page, other = pair.mover()
    card = page.locator(HAND).first
    code = str(card.get_attribute("data-card"))
    pile = page.get_by_test_id(f"discard-{code[-1]}")
    act_and_wait(
        page,
        lambda: page.evaluate(TOUCH_DRAG, [card.element_handle(), pile.element_handle()]),
        (other,),
    )
    expect(pile.locator(".card").first).to_have_attribute("data-card", code)
    expect(page.locator(".ex-drag-ghost")).to_have_count(0)
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))


LONG_PRESS = """card => new Promise(done => {
  const box = card.getBoundingClientRect();
  const at = { pointerType: 'touch', pointerId: 8, isPrimary: true, bubbles: true,
               clientX: box.left + 10, clientY: box.top + 20 };
  card.dispatchEvent(new PointerEvent('pointerdown', at));
  setTimeout(() => { card.dispatchEvent(new PointerEvent('pointerup', at)); done(); }, 700);
})"""


def top_card(page: Page, test_id: str) -> str | None:
    return page.get_by_test_id(test_id).locator(".card").last.get_attribute("data-card")


def test_a_long_press_plays_a_card_when_it_can_and_discards_it_otherwise(pair: Pair) -> None:
    page, other = pair.mover()
    card = page.locator(HAND).first
    code = str(card.get_attribute("data-card"))
    playable = "is-playable" in (card.get_attribute("class") or "")
    act_and_wait(page, lambda: page.evaluate(LONG_PRESS, card.element_handle()), (other,))
    where = f"expedition-top-{code[-1]}" if playable else f"discard-{code[-1]}"
    assert top_card(other, where) == code
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))


def test_a_card_can_be_dragged_onto_your_expedition(pair: Pair) -> None:
    page, other = pair.mover()
    for _ in range(8):  # a turn or two until the player to move holds a playable card
        if page.locator(f"{HAND}.is-playable").count():
            break
        turn(pair, discard=True)
        page, other = pair.mover()
    card = page.locator(f"{HAND}.is-playable").first
    code = str(card.get_attribute("data-card"))
    act_and_wait(
        page, lambda: card.drag_to(page.get_by_test_id(f"expedition-bottom-{code[-1]}")), (other,)
    )
    assert top_card(page, f"expedition-bottom-{code[-1]}") == code
    assert top_card(other, f"expedition-top-{code[-1]}") == code
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))


def test_arrow_keys_move_in_the_hand_and_the_action_is_one_tab_away(pair: Pair) -> None:
    page, other = pair.mover()
    first = page.locator(HAND).first
    first.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator(HAND).nth(1)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(HAND).nth(1)).to_have_attribute("aria-pressed", "true")
    presses = 0
    while presses < 3:
        page.keyboard.press("Tab")
        presses += 1
        if page.evaluate("document.activeElement.dataset.testid") in ("play", "discard"):
            break
    assert page.evaluate("document.activeElement.dataset.testid") in ("play", "discard")
    label = page.get_by_test_id("expedition-bottom-S").get_attribute("aria-label") or ""
    assert re.fullmatch(r"spades expedition: (not started|\d+ cards?, .*points?)", label), label


def test_your_turn_signals_only_after_opting_in(pair: Pair) -> None:
    anna = pair.anna
    assert anna.evaluate("window.__asked") == 0  # nobody asked before the player opted in
    anna.locator("#settings-button").click()
    expect(anna.locator("#settings")).to_be_visible()
    anna.get_by_label("Notify me when it becomes my turn").check()
    expect(anna.get_by_label("Notify me when it becomes my turn")).to_be_checked()
    assert anna.evaluate("window.__asked") == 1
    anna.get_by_label("Play a sound when it becomes my turn").check()
    screenshot(anna, "settings")
    anna.keyboard.press("Escape")
    expect(anna.locator("#settings")).to_be_hidden()
    if is_my_turn(anna):
        turn(pair)
    anna.evaluate("window.__hidden = true")
    turn(pair)  # Ben's turn; then it is Anna's
    expect(anna.locator("#banner")).to_contain_text("Your turn")
    wait_until(anna, "() => window.__notes.length === 1")
    assert anna.evaluate("window.__notes") == ["Your turn in Expeditions"]
    assert anna.evaluate("window.__beeps") == 1
    wait_until(anna, "() => document.querySelector('link[rel=icon]').href.startsWith('data:')")
    anna.evaluate("window.__hidden = false")
    turn(pair)
    assert anna.evaluate("document.querySelector('link[rel=icon]').getAttribute('href')") == (
        "/static/img/icon.svg"
    )


def test_the_invite_panel_shows_the_link_and_its_qr_code(pair: Pair) -> None:
    page = pair.ben
    expect(page.locator(".room-code")).to_have_count(0)
    page.get_by_role("button", name="Invite").click()
    panel = page.locator("#share-panel")
    expect(panel).to_be_visible()
    expect(panel.locator(".share-link")).to_have_text(pair.url)
    expect(panel.locator(".qr svg path")).to_have_count(1)
    expect(page.locator("#rules-link")).to_have_attribute("href", "/rules/expeditionen")
    screenshot(page, "invite")
    panel.get_by_role("button", name="Close").click()
    expect(panel).to_be_hidden()


def test_dark_theme_follows_the_system_and_the_toggle(pair: Pair) -> None:
    page = pair.ben
    page.emulate_media(color_scheme="dark")
    paper = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert paper != "rgb(245, 241, 232)"
    screenshot(page, "table-dark")
    page.locator("#settings-button").click()
    page.locator("label.chip-radio", has_text="Light").click()
    light = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert light == "rgb(245, 241, 232)"
    page.locator("label.chip-radio", has_text="Like the system").click()
    page.keyboard.press("Escape")
    page.emulate_media(color_scheme="light")


def test_a_free_seat_reads_the_same_on_the_table_and_in_the_seat_list(new_page: NewPage) -> None:
    page = new_page()
    create_room(page, "expeditionen", "Carla")
    expect(page.locator(".seat.is-free .seat-name")).to_have_text("Free seat")
    expect(page.locator(".ex-top .ex-who-name")).to_have_text("Free seat")


def test_an_opponents_card_travels_unless_motion_is_reduced(pair: Pair) -> None:
    page, other = pair.mover()
    card = page.locator(f"{HAND}.is-playable").first
    if card.count() == 0:
        turn(pair)
        page, other = pair.mover()
        card = page.locator(f"{HAND}.is-playable").first
    code = card.get_attribute("data-card")
    card.dblclick()
    moved = other.locator(f"#board .ex-top .card[data-card='{code}']")
    expect(moved).to_have_attribute("data-travelled", "yes")
    expect(page.locator(f"#board .ex-bottom .card[data-card='{code}']")).to_have_attribute(
        "data-travelled", "yes"
    )
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))
    for each in (page, other):
        each.emulate_media(reduced_motion="reduce")
    page, other = pair.mover()
    act_and_wait(page, page.locator(HAND).first.dblclick, (other,))
    for each in (page, other):
        expect(each.locator("#board [data-travelled]")).to_have_count(0)
        each.emulate_media(reduced_motion="no-preference")
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))


def test_your_rooms_say_whose_turn_it_is(pair: Pair) -> None:
    page, other = pair.mover()
    for viewer, expected in ((page, "Your turn"), (other, "turn")):
        home = viewer.context.new_page()
        home.goto("/")
        home.wait_for_selector("body[data-ready]")
        expect(home.get_by_test_id("room-turn").first).to_contain_text(expected)
        if viewer is other:
            expect(home.get_by_test_id("room-turn").first).not_to_contain_text("Your turn")
        home.close()
