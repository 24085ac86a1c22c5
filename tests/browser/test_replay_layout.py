"""The replay of a finished Expeditionen match at every size, in both themes: both players'
rows keep their height, their names show, and the cards stay in their own row instead of
lying over the revealed hands. The match is played by the engine and stored in this module's
own server, which is quicker than playing it in two browsers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from app.storage.db import create_db_engine
from app.storage.models import Match, Room, Seat
from app.storage.repositories import ActionWrite, Finish, Store
from engine import get_game
from tests.browser.conftest import SCREENSHOTS, NewPage, serve, shoot
from tests.browser.layout import SIZES

MATCH_ID = 1
NAMES = ("Anna", "Benedikt")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own, with one finished short match of Expeditionen."""
    folder = tmp_path_factory.mktemp("replay-server")
    with serve(folder, PUBLIC_HISTORY="true") as url:
        store_finished_match(folder / "kartenrunde.db")
        yield url


def store_finished_match(database: Path) -> None:
    """A one-round match (a player plays a card whenever one fits, else discards, and always
    draws from the draw pile), stored as the table would."""
    game = get_game("expeditionen")
    options = {"rounds": 1, "first": 0}
    state = game.new(seed=5, options=options)
    moves = []
    while game.result(state) is None:
        seat = game.to_move(state)
        legal = game.legal_actions(state, seat)
        wanted = [move for move in legal if move["type"] == "play" or move.get("source") == "deck"]
        action = (wanted or legal)[0]
        moves.append((seat, action))
        state = game.apply(state, seat, action)
    result = game.result(state)
    assert result is not None
    now = datetime.now(UTC)
    store = Store(create_db_engine(f"sqlite:///{database}"))
    store.create_room(
        Room(id="replay", game="expeditionen", options=options, created_at=now, last_active_at=now),
        Match(
            id=MATCH_ID,
            room_id="replay",
            number=1,
            game="expeditionen",
            seed=5,
            options=options,
            first_seat=0,
            status="playing",
            started_at=now,
        ),
        [Seat(room_id="replay", seat=n, name=name, player_id=name) for n, name in enumerate(NAMES)],
    )
    finish = Finish(result=result.to_json(), winner=result.winner, at=now)
    store.record_actions(
        [
            ActionWrite(MATCH_ID, ply, seat, action, now, finish if ply == len(moves) else None)
            for ply, (seat, action) in enumerate(moves, start=1)
        ]
    )
    store.close()
    store.engine.dispose()


def row_problems(page: Page) -> list[str]:
    """What is wrong with the two players' rows: no height, a name out of sight, a card of a
    row lying over the revealed hands."""
    return page.evaluate(
        """() => {
            const problems = [];
            for (const row of document.querySelectorAll('.ex-side')) {
                const box = row.getBoundingClientRect();
                const where = row.classList.contains('ex-top') ? 'top' : 'bottom';
                if (box.height < 60) problems.push(`${where} row is ${box.height} px high`);
                const name = row.querySelector('.ex-who-name');
                name.scrollIntoView({ block: 'center' });
                const seen = name.getBoundingClientRect();
                const at = document.elementFromPoint(seen.x + 2, seen.y + seen.height / 2);
                if (seen.width < 20 || !name.contains(at))
                    problems.push(`${where} name "${name.textContent}" is not seen`);
                const hands = document.querySelector('.ex-hand-zone').getBoundingClientRect();
                for (const card of row.querySelectorAll('.card')) {
                    const c = card.getBoundingClientRect();
                    const across = c.right > hands.left + 1 && c.left < hands.right - 1;
                    if (across && c.bottom > hands.top + 1 && c.top < hands.bottom - 1) {
                        problems.push(`a card of the ${where} row lies over the hands`);
                        break;
                    }
                }
            }
            return problems;
        }"""
    )


def test_the_replay_keeps_both_rows_and_their_names_at_every_size(new_page: NewPage) -> None:
    """In both themes (the theme follows the system's colour scheme at once)."""
    page = new_page()
    page.goto(f"/matches/{MATCH_ID}")
    page.wait_for_selector("body[data-ready]")
    problems = []
    for step in ("0", "last"):
        if step == "last":
            page.get_by_role("button", name="Last").click()
        expect(page.locator(".ex-who-name")).to_have_text(list(reversed(NAMES)))
        for label, size in SIZES.items():
            page.set_viewport_size(size)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                page.evaluate(
                    "() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))"
                )
                shot = SCREENSHOTS / f"replay-layout-expeditionen-{step}-{label}-{scheme}.png"
                shoot(page, shot, full_page=True, animations="disabled")
                problems += [f"move {step}, {label}, {scheme}: {p}" for p in row_problems(page)]
    assert problems == [], "; ".join(problems)


def test_the_replay_lists_every_move_and_a_move_clicked_is_shown(new_page: NewPage) -> None:
    """Issue 53: the replay had no move list to click (lichess's is the model)."""
    page = new_page()
    page.goto(f"/matches/{MATCH_ID}")
    page.wait_for_selector("body[data-ready]")
    moves = page.get_by_test_id("replay-moves").locator("button")
    last = int(page.locator("#slider").get_attribute("max") or 0)
    expect(moves).to_have_count(last + 1)
    expect(moves.first).to_have_attribute("aria-current", "step")
    expect(moves.first).to_contain_text("The deal")
    expect(moves.nth(1)).to_have_text(re.compile(rf"^1\s*({NAMES[0]}|{NAMES[1]}):"))
    moves.nth(5).click()
    expect(page.locator("#step-label")).to_have_text(f"Move 5 of {last}")
    expect(page).to_have_url(re.compile("#5$"))
    expect(moves.nth(5)).to_have_attribute("aria-current", "step")
    expect(page.locator("#moves [aria-current]")).to_have_count(1)
    page.keyboard.press("End")
    expect(moves.last).to_have_attribute("aria-current", "step")
    expect(moves.last).to_be_in_viewport()  # the list keeps the move shown in sight
    for label in ("phone", "phone-landscape", "laptop"):
        page.set_viewport_size(SIZES[label])
        page.get_by_test_id("replay-moves").scroll_into_view_if_needed()
        shoot(page, SCREENSHOTS / f"replay-moves-{label}.png")
