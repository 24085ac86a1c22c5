"""Two people play Expeditionen in their browsers: a room, the share link, a whole short match,
history, replay and a rematch. The people stay at the table from one test to the next; each test
brings the match to the point it needs."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from engine import get_game
from engine.expeditionen import ExpeditionenState
from tests.browser.conftest import DESKTOP, SCREENSHOTS, NewPage, screenshot, shoot
from tests.browser.players import (
    Duel,
    StateLog,
    act_and_wait,
    create_room,
    join_by_link,
    no_error_toast,
    version,
    wait_for_state,
    watch,
)

HAND = "#board button.card[data-testid^='hand-']"
SIZES = {
    "phone": {"width": 390, "height": 844},
    "landscape": {"width": 844, "height": 390},
    "desktop": DESKTOP,
}


@pytest.fixture(scope="module")
def duel(module_page: NewPage) -> Duel:
    anna = module_page(motion=False)
    ben = module_page(motion=False)
    logs = {"anna": StateLog(anna), "ben": StateLog(ben)}
    url = create_room(anna, "expeditionen", "Anna", preset="short")
    ben.goto(url)
    expect(ben.locator("#join-name")).to_be_visible()
    screenshot(ben, "join-prompt")
    join_by_link(ben, url, "Ben")
    expect(anna.locator("#banner")).to_contain_text(re.compile("Your turn|Ben's turn"))
    expect(ben.locator("#banner")).to_contain_text(re.compile("Your turn|Anna's turn"))
    return Duel(anna, ben, url, logs)


def select_card(page: Page, only_playable: bool) -> str:
    """Selects the first hand card (that can go onto an expedition); returns its code."""
    wanted = ".is-playable" if only_playable else ""
    card = page.locator(f"{HAND}{wanted}").first
    card.click()
    expect(card).to_have_attribute("aria-pressed", "true")
    return str(card.get_attribute("data-card"))


def take_turn(duel: Duel, discard: bool = False) -> None:
    page, other = duel.mover()
    playable = page.locator(f"{HAND}.is-playable").count() > 0 and not discard
    select_card(page, only_playable=playable)
    act_and_wait(page, page.get_by_test_id("play" if playable else "discard").click, (other,))
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))


def match_over(page: Page) -> bool:
    return page.locator("#end").is_visible()


def finish_match(duel: Duel) -> None:
    while not match_over(duel.anna):
        take_turn(duel)


def test_the_share_link_seats_a_friend(duel: Duel) -> None:
    for page in duel.pages():
        expect(page.locator(".seat")).to_have_count(2)
        expect(page.locator(".seat-name")).to_have_text(["Anna", "Ben"])
        expect(page.locator(".seat.is-connected")).to_have_count(2)
    expect(duel.ben.locator(".seat", has_text="(you)")).to_contain_text("Ben")
    page, other = duel.mover()
    mover_name = page.locator(".seat", has_text="(you)").locator(".seat-name").inner_text()
    expect(other.locator("#banner")).to_contain_text(f"{mover_name}'s turn")


def test_your_turn_is_impossible_to_miss(duel: Duel) -> None:
    page, other = duel.mover()
    expect(page.locator("#banner")).to_contain_text("Your turn")
    expect(page).to_have_title(re.compile(r"^▶ Your turn"))
    expect(page.locator("body.my-turn")).to_have_count(1)
    expect(other).not_to_have_title(re.compile("Your turn"))
    expect(other.locator("body.my-turn")).to_have_count(0)


def test_only_legal_moves_can_be_chosen(duel: Duel) -> None:
    page, other = duel.mover()
    legal = duel.log(page).latest["legal_actions"]
    hand = [
        str(code)
        for code in page.locator(HAND).evaluate_all("cards => cards.map(c => c.dataset.card)")
    ]
    assert sorted(hand) == sorted(a["card"] for a in legal if a["type"] == "discard")
    for code in hand:
        page.get_by_test_id(f"hand-{code}").click()
        play = page.get_by_test_id("play")
        if {"type": "play", "card": code} in legal:
            expect(play).to_be_enabled()
        else:
            expect(play).to_be_disabled()
    act_and_wait(page, page.get_by_test_id("discard").click, (other,))
    sources = duel.log(page).latest["legal_actions"]
    buttons = page.locator("#board [data-testid^='draw-']").evaluate_all(
        "buttons => buttons.map(b => b.dataset.testid.slice(5))"
    )
    assert sorted(buttons) == sorted(a["source"] for a in sources)
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))


def tag_clear_of_index(page: Page, suit: str) -> bool:
    """The "just discarded" tag leaves the top card's index corner (its rank) in sight."""
    return bool(
        page.get_by_test_id(f"discard-{suit}").evaluate(
            """pile => {
                const tag = pile.querySelector('.moved-tag').getBoundingClientRect();
                const cards = pile.querySelectorAll('.card');
                const top = cards[cards.length - 1];
                const rank = top.querySelector('.card-rank').getBoundingClientRect();
                return tag.bottom <= rank.top || tag.top >= rank.bottom
                    || tag.right <= rank.left || tag.left >= rank.right;
            }"""
        )
    )


def test_the_two_steps_of_a_turn_are_shown_and_the_discard_is_not_drawable(duel: Duel) -> None:
    page, other = duel.mover()
    expect(page.locator(".ex-step.is-current")).to_have_text("1Play or discard")
    code = select_card(page, only_playable=False)
    screenshot(page, "expeditionen-step1")
    act_and_wait(page, page.get_by_test_id("discard").click, (other,))
    expect(page.locator(".ex-step.is-current")).to_have_text("2Draw")
    suit = code[-1]
    pile = page.get_by_test_id(f"discard-{suit}")
    expect(pile).to_contain_text("just discarded")
    # Issue 53: the tag covered the index corner of the card it names.
    for size in SIZES.values():
        page.set_viewport_size(size)
        assert tag_clear_of_index(page, suit), size
    page.set_viewport_size(DESKTOP)
    expect(page.get_by_test_id(f"draw-{suit}")).to_have_count(0)
    expect(page.get_by_test_id("draw-deck")).to_be_enabled()
    screenshot(page, "expeditionen-step2")
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))
    no_error_toast(page)


def test_the_opponents_last_move_is_highlighted(duel: Duel) -> None:
    page, other = duel.mover()
    if page.locator(f"{HAND}.is-playable").count() == 0:
        take_turn(duel)
        page, other = duel.mover()
    code = select_card(page, only_playable=True)
    act_and_wait(page, page.get_by_test_id("play").click, (other,))
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))
    suit = code[-1]
    expect(
        other.get_by_test_id(f"expedition-top-{suit}").locator(
            f".card.just-moved[data-card='{code}']"
        )
    ).to_be_visible()
    expect(other.get_by_test_id("last-move")).to_contain_text("played")
    expect(other.get_by_test_id("last-move")).to_contain_text("drew from the draw pile")
    screenshot(other, "expeditionen-table")


def test_a_draw_from_a_discard_pile_names_the_card_it_took(duel: Duel) -> None:
    page, other = duel.mover()
    suit = select_card(page, only_playable=False)[-1]
    act_and_wait(page, page.get_by_test_id("discard").click, (other,))
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))
    other.locator(f"{HAND}:not([data-card$='{suit}'])").first.click()
    act_and_wait(other, other.get_by_test_id("discard").click, (page,))
    act_and_wait(other, other.get_by_test_id(f"draw-{suit}").click, (page,))
    last = page.get_by_test_id("last-move")
    expect(last).to_contain_text(re.compile(r"took .+ from the .*discard pile"))
    expect(last.locator(".card-chip")).to_have_count(2)  # the card discarded, the card taken
    for label, size in SIZES.items():
        page.set_viewport_size(size)
        shoot(page, SCREENSHOTS / f"expeditionen-took-from-pile-{label}.png")
    page.set_viewport_size(DESKTOP)


def test_a_turn_can_be_played_with_the_keyboard(duel: Duel) -> None:
    page, other = duel.mover()
    first = page.locator(HAND).first
    first.focus()
    page.keyboard.press("Enter")
    expect(first).to_have_attribute("aria-pressed", "true")
    expect(first).to_be_focused()
    page.get_by_test_id("discard").focus()
    act_and_wait(page, lambda: page.keyboard.press("Space"), (other,))
    page.get_by_test_id("draw-deck").focus()
    act_and_wait(page, lambda: page.keyboard.press("Enter"), (other,))


def test_reload_mid_match_restores_the_seat(duel: Duel) -> None:
    anna = duel.anna
    hand = anna.locator("#board [data-testid^='hand-']").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    before = version(anna)
    anna.reload()
    wait_for_state(anna)
    assert version(anna) == before
    expect(anna.locator("#join-name")).to_have_count(0)
    expect(anna.locator(".seat", has_text="(you)")).to_contain_text("Anna")
    again = anna.locator("#board [data-testid^='hand-']").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    assert again == hand
    take_turn(duel)


def test_a_friend_may_just_watch_while_a_seat_is_free(new_page: NewPage) -> None:
    anna, cleo = new_page(), new_page(viewport=SIZES["landscape"])
    url = create_room(anna, "expeditionen", "Anna")
    cleo.goto(url)
    expect(cleo.locator("#join-name")).to_be_visible()
    just_watch = cleo.get_by_role("button", name="Just watch")
    expect(just_watch).to_be_in_viewport(ratio=1)  # a phone on its side: the card's buttons
    just_watch.click()  # no name typed
    expect(cleo.locator(".seats")).to_contain_text("You are watching")
    expect(anna.locator("#board")).to_contain_text("Waiting for a second player")
    expect(cleo.locator(".seat.is-free")).to_have_count(1)


def test_a_spectator_sees_only_public_information_and_no_controls(
    duel: Duel, new_page: NewPage
) -> None:
    watcher = new_page()
    watch(watcher, duel.url)  # issue 53: a name was asked just to watch
    expect(watcher.locator(".name-prompt")).to_have_count(0)
    expect(watcher.locator("#board [data-testid^='hand-']")).to_have_count(0)
    expect(watcher.locator("#board button")).to_have_count(0)
    screenshot(watcher, "expeditionen-spectator")


def test_presence_shows_when_the_other_player_leaves(duel: Duel, new_page: NewPage) -> None:
    expect(duel.anna.locator(".seat.is-connected")).to_have_count(2)
    duel.ben.goto("about:blank")
    expect(duel.anna.locator(".seat", has_text="Ben")).to_contain_text("away")
    duel.ben.goto(duel.url)
    wait_for_state(duel.ben)
    expect(duel.anna.locator(".seat", has_text="Ben")).to_contain_text("online")


def test_a_whole_short_match_ends_with_the_score_breakdown(duel: Duel) -> None:
    finish_match(duel)
    for page in duel.pages():
        end = page.locator("#end")
        expect(end.locator("h2")).to_have_text(re.compile("You won!|Anna won|Ben won|A draw"))
        expect(end.locator(".ex-breakdown tbody tr")).to_have_count(4)
        expect(end.get_by_role("button", name="Rematch")).to_be_visible()
        expect(page.locator("#banner")).to_contain_text("The match is over")
        expect(page.locator(".ex-steps")).to_have_count(0)  # no step indicator after the end
        no_error_toast(page)
    result = duel.log(duel.anna).latest["result"]
    final = duel.anna.locator(".ex-final-line")
    expect(final).to_have_text(
        f"Anna {number(result['scores'][0])} · Ben {number(result['scores'][1])}"
    )
    screenshot(duel.anna, "expeditionen-end")


def number(value: int) -> str:
    return f"−{abs(value)}" if value < 0 else str(value)


def test_history_lists_the_finished_match(duel: Duel, new_page: NewPage) -> None:
    finish_match(duel)
    page = new_page()
    page.goto("/history")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#matches")).to_contain_text("You have not finished a match yet.")
    page.context.add_cookies(duel.anna.context.cookies())  # now a tab of Anna's browser
    page.reload()
    page.wait_for_selector("body[data-ready]")
    # The list follows the player, not the browser (issue 53).
    expect(page.locator("p.lead")).to_contain_text("on every device you signed in on")
    page.select_option("#filter-game", "expeditionen")
    page.fill("#filter-player", "Ben")
    page.get_by_role("button", name="Filter").click()
    expect(page).to_have_url(re.compile(r"game=expeditionen&player=Ben"))
    item = page.locator(".match-item").first
    expect(item).to_contain_text("Expeditions")
    expect(item).to_contain_text("Anna · Ben")
    screenshot(page, "history")
    page.fill("#filter-player", "Nobody-with-this-name")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator(".match-item")).to_have_count(0)
    expect(page.locator("#matches")).to_contain_text("No finished match fits this filter.")


def test_the_replay_steps_through_the_match_with_every_hand_revealed(
    duel: Duel, new_page: NewPage
) -> None:
    finish_match(duel)
    match_id = duel.log(duel.anna).latest["match_id"]
    page = new_page()
    page.context.add_cookies(duel.anna.context.cookies())  # a player's own match
    page.goto(f"/matches/{match_id}")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator(".site-nav a", has_text="Rules")).to_have_attribute(
        "href", "/rules/expeditionen"
    )
    label = page.locator("#step-label")
    steps = int(re.sub(r"\D+", " ", label.inner_text()).split()[-1])
    expect(label).to_have_text(f"Move 0 of {steps}")
    expect(page.locator("#step-text")).to_contain_text("The deal")
    expect(page.locator(".ex-revealed")).to_have_count(2)
    expect(page.locator(".ex-revealed").first.locator(".card")).to_have_count(8)
    page.keyboard.press("ArrowRight")
    expect(label).to_have_text(f"Move 1 of {steps}")
    expect(page.locator("#step-text")).to_contain_text(re.compile("played|discarded"))
    page.get_by_role("button", name="Forward").click()
    expect(label).to_have_text(f"Move 2 of {steps}")
    expect(page.locator("#step-text")).to_contain_text(re.compile("drew from|took .+ from the"))
    expect(page.locator("#step-text code")).to_have_count(0)  # words, not notation
    page.get_by_role("button", name="Back").click()
    expect(label).to_have_text(f"Move 1 of {steps}")
    page.locator("#slider").fill(str(steps))
    expect(label).to_have_text(f"Move {steps} of {steps}")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#board button")).to_have_count(0)
    screenshot(page, "replay-expeditionen")
    page.keyboard.press("Home")
    expect(label).to_have_text(f"Move 0 of {steps}")


def test_rematch_shows_who_asked_and_starts_a_new_match(duel: Duel) -> None:
    finish_match(duel)
    anna, ben = duel.pages()
    anna.get_by_role("button", name="Rematch").click()
    expect(anna.get_by_test_id("rematch-note")).to_contain_text("Waiting for the other player")
    expect(ben.get_by_test_id("rematch-note")).to_have_text("Anna asked for a rematch.")
    ben.get_by_role("button", name="Accept rematch").click()
    for page in duel.pages():
        page.wait_for_selector("#board[data-match='2'][data-version='0']")
        expect(page.locator("#end")).to_be_hidden()
        expect(page.locator(".seat-wins")).to_have_count(2)
    tally = duel.log(anna).latest["tally"]
    assert tally["matches"] == 1


def first_round_over() -> ExpeditionenState:
    """An Expeditionen match of 3 rounds at the end of its first round (always drawing from
    the draw pile, so that the round ends)."""
    game = get_game("expeditionen")
    state = game.new(seed=5, options={"rounds": 3, "first": 0})
    while not game.view(state, 0)["finished"]:
        seat = game.to_move(state)
        moves = game.legal_actions(state, seat)
        draws = [move for move in moves if move.get("source") == "deck"]
        state = game.apply(state, seat, draws[0] if draws else moves[-1])
    return state


def test_the_end_of_a_round_shows_its_score_breakdown(new_page: NewPage) -> None:
    game = get_game("expeditionen")
    state = first_round_over()
    message = {
        "seat": 0,
        "to_move": game.to_move(state),
        "view": game.view(state, 0),
        "legal_actions": game.legal_actions(state, 0),
        "last_action": None,
        "result": None,
    }
    page = new_page()
    page.goto("/rules/expeditionen")
    page.evaluate(
        """state => import('/static/js/games/expeditionen.js').then(game => {
            const root = document.createElement('div');
            root.id = 'table';
            document.querySelector('main').prepend(root);
            const ctx = { seat: 0, readOnly: false, pending: false, ui: {}, recent: [],
              act() {}, name: seat => ['Anna', 'Ben'][seat] };
            ctx.rerender = () => game.render(root, state, ctx);
            ctx.rerender();
        })""",
        message,
    )
    summary = page.get_by_test_id("round-summary")
    scores = message["view"]["finished"][0]["scores"]
    expect(summary.locator("h2")).to_have_text("Round 1 is over")
    expect(summary).to_contain_text(f"Anna {number(scores[0])} · Ben {number(scores[1])}")
    expect(summary.locator(".ex-breakdown tbody tr")).to_have_count(4)
    expect(page.locator(".ex-round-title")).to_have_text("Round 2 of 3")
    totals = summary.locator("tfoot td")
    body = summary.locator("tbody tr").first.locator("td")
    for column in range(2):  # each round total sits under its own player's column
        total, cell = totals.nth(column).bounding_box(), body.nth(column).bounding_box()
        assert total and cell and abs(total["x"] - cell["x"]) < 2
    summary.get_by_role("button", name="Continue").click()
    expect(page.get_by_test_id("round-summary")).to_have_count(0)


def test_the_replay_shows_a_round_summary_only_where_the_next_round_starts(
    new_page: NewPage,
) -> None:
    game = get_game("expeditionen")
    state = game.new(seed=5, options={"rounds": 3, "first": 0})
    while not game.view(state, None)["finished"]:
        seat = game.to_move(state)
        moves = game.legal_actions(state, seat)
        draws = [move for move in moves if move.get("source") == "deck"]
        state = game.apply(state, seat, draws[0] if draws else moves[-1])
    fresh = game.view(state, None, reveal=True)
    seat = game.to_move(state)
    later = game.view(
        game.apply(state, seat, game.legal_actions(state, seat)[-1]), None, reveal=True
    )
    page = new_page()
    page.goto("/rules/expeditionen")
    shown = page.evaluate(
        """views => import('/static/js/games/expeditionen.js').then(game => {
            const root = document.createElement('div');
            document.querySelector('main').prepend(root);
            const ctx = { seat: null, readOnly: true, replay: true, pending: false, ui: {},
              recent: [], act() {}, say() {}, name: seat => ['Anna', 'Ben'][seat] };
            return views.map(view => {
              const state = { seat: null, to_move: view.to_move, view, legal_actions: [],
                last_action: null, result: null };
              game.render(root, state, ctx);
              const summary = root.querySelector('[data-testid=round-summary]');
              return [Boolean(summary), Boolean(summary?.querySelector('button'))];
            });
        })""",
        [later, fresh, later],
    )
    assert shown == [[False, False], [True, False], [False, False]]


def test_repeated_codes_are_told_apart_by_their_place(new_page: NewPage) -> None:
    """Two decks repeat codes: selecting one of two 7♥ selects that one, the mark of a move
    lies on the card on top, and no two controls share a key."""
    game = get_game("expeditionen")
    view = game.view(game.new(seed=1), 0)
    view["hand"] = ["7H", "7H", "N5", *view["hand"][:5]]
    view["expeditions"][1]["H"] = {"cards": ["3H", "3H"], "score": -14, "multiplier": 1}
    state = {
        "seat": 0,
        "to_move": 0,
        "view": view,
        "legal_actions": [
            {"type": kind, "card": code} for code in view["hand"] for kind in ("play", "discard")
        ],
        "result": None,
        "last_action": {"seat": 1, "action": {"type": "play", "card": "3H"}, "took": []},
    }
    page = new_page()
    page.goto("/rules/expeditionen")
    shown = page.evaluate(
        """async (state) => {
          const game = await import('/static/js/games/expeditionen.js');
          const root = document.createElement('div');
          document.querySelector('main').prepend(root);
          const ctx = {
            seat: 0, readOnly: false, pending: false, ui: {}, recent: [state.last_action],
            act: () => {}, name: (seat) => `P${seat + 1}`,
            rerender: () => game.render(root, state, ctx),
          };
          ctx.rerender();
          root.querySelectorAll('.ex-hand button.card')[1].click();
          return {
            pressed: [...root.querySelectorAll('.ex-hand button.card')]
              .map(b => b.getAttribute('aria-pressed')),
            keys: [...root.querySelectorAll('[data-key]')].map(el => el.dataset.key),
            moved: [...root.querySelectorAll('[data-testid=expedition-top-H] .card')]
              .map(c => c.classList.contains('just-moved')),
            play: root.querySelector('[data-testid=play]').textContent,
            night: root.querySelector('.ex-hand [data-card=N5]').getAttribute('aria-label'),
          };
        }""",
        state,
    )
    assert shown["pressed"] == ["false", "true"] + ["false"] * 6
    assert len(shown["keys"]) == len(set(shown["keys"]))
    assert shown["moved"] == [False, True]
    assert shown["play"] == "Play 7"
    assert shown["night"] == "Night card Five, can be played"


def test_the_move_log_notes_where_a_round_ended(new_page: NewPage) -> None:
    game = get_game("expeditionen")
    state = game.new(seed=5, options={"rounds": 3, "first": 0})
    moves = []
    while not game.view(state, 0)["finished"]:
        seat = game.to_move(state)
        options = game.legal_actions(state, seat)
        draws = [move for move in options if move.get("source") == "deck"]
        action = draws[0] if draws else options[-1]
        state = game.apply(state, seat, action)
        moves.append({"seat": seat, "action": action})
    end_of_round = len(moves) - 1
    for _ in range(4):  # into round 2
        seat = game.to_move(state)
        action = game.legal_actions(state, seat)[-1]
        state = game.apply(state, seat, action)
        moves.append({"seat": seat, "action": action})
    page = new_page()
    page.goto("/rules/expeditionen")
    notes = page.evaluate(
        """([moves, view]) => import('/static/js/games/expeditionen.js').then(game =>
            game.logNotes(moves, { view }, { name: seat => ['Anna', 'Ben'][seat] })
              .map(note => [note.after, note.content.textContent]))""",
        [moves, game.view(state, 0)],
    )
    scores = game.view(state, 0)["finished"][0]["scores"]
    assert notes == [
        [end_of_round, f"Round 1 is over Anna {number(scores[0])} · Ben {number(scores[1])}"]
    ]


def test_expeditions_and_piles_are_announced_in_words_with_one_card_as_one_card(
    new_page: NewPage,
) -> None:
    game = get_game("expeditionen")
    view = game.view(game.new(seed=1, options={"first": 0}), 0)
    view["expeditions"][0]["S"] = {"cards": ["5S"], "score": -15, "multiplier": 1}
    view["expeditions"][0]["H"] = {"cards": ["JH", "QH", "7H"], "score": -39, "multiplier": 3}
    view["discards"]["D"] = {"top": "4D", "size": 1}
    state = {"seat": 0, "to_move": 0, "view": view, "legal_actions": [], "result": None}
    page = new_page()
    page.goto("/rules/expeditionen")
    labels = page.evaluate(
        """state => import('/static/js/games/expeditionen.js').then(game => {
            const root = document.createElement('div');
            document.querySelector('main').prepend(root);
            const ctx = { seat: 0, readOnly: false, pending: false, ui: {}, recent: [],
              act() {}, name: seat => ['Anna', 'Ben'][seat], rerender() {} };
            game.render(root, state, ctx);
            const label = (selector) => root.querySelector(selector).getAttribute('aria-label');
            return ['S', 'H', 'C'].map(suit => label(`[data-testid=expedition-bottom-${suit}]`))
              .concat([label('[data-testid=discard-D] [aria-label]')]);
        })""",
        state,
    )
    assert labels == [
        "spades expedition: 1 card, −15 points",
        "hearts expedition: 3 cards, 2 wager cards, −39 points",
        "clubs expedition: not started",
        "diamonds discard pile, 1 card, Four of diamonds on top",
    ]
