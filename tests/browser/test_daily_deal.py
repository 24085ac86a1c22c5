"""The daily deal in the browser (issue 37): two players play each game's daily, one of
them on two devices; a second attempt is refused; the board and the text to share are
right and show no line while the day runs; the replays open once it is over.

The browser does what it is for: the home page's entries, the table of a daily, the
board, the copy button, the history and the replay page. The long matches against the
strong computer (Expeditionen, Pilzwanderung) are played by a script on the player's own
cookie, random legal moves over the websocket, against a computer that thinks 20 ms."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from websockets.sync.client import connect

from tests.browser.conftest import NewPage, screenshot, serve
from tests.browser.players import act_and_wait, wait_for_state

PHONE = {"width": 390, "height": 844}
CARD = re.compile(r"\b(?:10|[2-9JQKA])[SHDC]\b")  # a card code: no board may show one


@pytest.fixture(scope="module")
def clock(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's TEST_CLOCK_FILE: seconds by which its clock runs ahead."""
    return tmp_path_factory.mktemp("daily-clock") / "clock"


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory, clock: Path) -> Iterator[str]:
    """A server of this module's own: the computer answers at once after 20 ms of thought."""
    with serve(
        tmp_path_factory.mktemp("daily-server"),
        BOT_MOVE_DELAY_SECONDS="0",
        BOT_THINK_SECONDS="0.02",
        MESSAGES_PER_SECOND="1000",
        TEST_CLOCK_FILE=str(clock),
    ) as url:
        yield url


def cookie_of(context: BrowserContext) -> str:
    (cookie,) = [c["value"] for c in context.cookies() if c["name"] == "kr_player"]
    return cookie


def play_out(base_url: str, room_id: str, cookie: str, seed: int) -> None:
    """The seated player sends random legal actions until the match ends."""
    rng = random.Random(seed)
    address = base_url.replace("http", "ws", 1) + f"/ws/rooms/{room_id}"
    headers = {"cookie": f"kr_player={cookie}", "origin": base_url}
    with connect(address, additional_headers=headers) as socket:
        while True:
            message = json.loads(socket.recv(timeout=30))
            if message["type"] != "state":
                continue
            if message["result"] is not None:
                return
            if message["to_move"] == message["seat"]:
                action = rng.choice(message["legal_actions"])
                socket.send(
                    json.dumps({"type": "action", "version": message["version"], "action": action})
                )


def play_out_away(page: Page, base_url: str, room_id: str, seed: int) -> None:
    """The script plays the match while the page is away (a page that drew its 300 states
    cost more than the rest of the test), then the page shows its end."""
    page.goto("/games")
    play_out(base_url, room_id, cookie_of(page.context), seed)
    page.goto(f"/r/{room_id}")
    expect(page.locator("#end")).to_be_visible()
    expect(page.get_by_test_id("daily-board")).to_be_visible()  # its board, no rematch
    expect(page.locator("#rematch")).to_have_count(0)


def start_on_home_page(page: Page, game: str) -> str:
    """Clicks the home page's "Play" of a game's daily; the room it opens."""
    page.goto("/")
    page.wait_for_selector("body[data-ready='true']")
    page.fill("#player-name", page.evaluate("localStorage.getItem('kr_name')") or "Ada")
    page.get_by_test_id(f"daily-play-{game}").click()
    page.wait_for_url("**/r/**")
    wait_for_state(page)
    return page.url.rsplit("/r/", 1)[1]


def play_to_the_end(page: Page) -> None:
    """Scoundrel: takes the first card offered, again and again (a quick way to die)."""
    while not page.locator("#end").is_visible():
        act_and_wait(page, page.locator("#board [data-testid^='take-']").first.click)


def signed(score: int) -> str:
    return f"−{abs(score)}" if score < 0 else str(score)


def api(page: Page, path: str) -> Any:
    response = page.request.get(path)
    assert response.ok, response.text()
    return response.json()


def with_par(page: Page, path: str) -> Any:
    """A Scoundrel board once its par is searched (a worker process, off the request)."""
    for _ in range(100):
        board = api(page, path)
        if board["par"] is not None:
            return board
        page.wait_for_timeout(100)
    raise AssertionError("no par")


def test_two_players_play_each_daily_and_the_board_shows_scores_without_lines(
    new_page: NewPage, base_url: str, clock: Path
) -> None:
    # Ada on her phone starts the Scoundrel daily from the home page.
    phone = new_page(viewport=PHONE, touch=True)
    phone.goto("/")
    phone.evaluate("localStorage.setItem('kr_name', 'Ada')")
    room_id = start_on_home_page(phone, "scoundrel")

    # Her laptop, signed in as her by a link, continues the same room and plays it out.
    link = phone.request.post("/api/me/links", data={"next": "/"}).json()["url"]
    laptop = new_page()
    laptop.goto(link)
    laptop.get_by_role("button", name="Sign in").click()
    laptop.wait_for_url(re.compile(r"/$"))
    laptop.wait_for_selector("body[data-ready='true']")
    laptop.get_by_test_id("daily-continue-scoundrel").click()
    laptop.wait_for_url(f"**/r/{room_id}")
    wait_for_state(laptop)
    expect(laptop.locator("#share")).to_be_hidden()  # nobody to invite to a daily
    # No hint while it is played: its board compares the players alone (issue 53).
    expect(laptop.locator("#board [data-testid^='take-']").first).to_be_visible()
    expect(laptop.get_by_test_id("chances")).to_have_count(0)
    play_to_the_end(laptop)
    expect(laptop.get_by_test_id("daily-link")).to_be_visible()  # no best line today
    expect(laptop.locator("#end")).to_contain_text("Daily deal #")
    expect(laptop.locator("#rematch")).to_have_count(0)

    # A second attempt is refused, also from the phone; its home page offers the board.
    refused = phone.request.post("/api/daily/scoundrel", data={"name": "Ada"})
    assert refused.status == 409 and refused.json()["detail"]["code"] == "daily_played"
    phone.goto("/")
    phone.wait_for_selector("body[data-ready='true']")
    expect(phone.get_by_test_id("daily-play-scoundrel")).to_have_count(0)
    expect(phone.get_by_test_id("daily-scoundrel")).to_contain_text("done: ")
    screenshot(phone, "daily-home")

    # Ada plays the dailies for two: started in the browser, played out by a script.
    for number, game in enumerate(("expeditionen", "pilzwanderung")):
        room = start_on_home_page(phone, game)
        expect(phone.locator(".seat[data-seat='1'] .seat-level")).to_have_text("(strong)")
        play_out_away(phone, base_url, room, number)

    # Bo on his own device plays all three (Scoundrel in the browser).
    bo = new_page(locale="de-DE")
    bo.goto("/")
    bo.evaluate("localStorage.setItem('kr_name', 'Bo')")
    start_on_home_page(bo, "scoundrel")
    play_to_the_end(bo)
    for number, game in enumerate(("expeditionen", "pilzwanderung"), start=2):
        play_out_away(bo, base_url, start_on_home_page(bo, game), number)

    # The boards: both players, best first, the shared text, and no card or line.
    today = api(bo, "/api/daily")
    day, daily_number = today["day"], today["number"]
    assert today["streak"] == 1 and {g["status"] for g in today["games"]} == {"done"}
    bo.context.grant_permissions(["clipboard-read", "clipboard-write"])
    for game, title in (
        ("scoundrel", "Scoundrel"),
        ("expeditionen", "Expeditionen"),
        ("pilzwanderung", "Pilzwanderung"),
    ):
        board = api(bo, f"/api/daily/{day}/{game}")
        assert {entry["name"] for entry in board["entries"]} == {"Ada", "Bo"}
        mine = next(entry for entry in board["entries"] if entry["you"])
        bo.goto(f"/daily/{day}/{game}")
        bo.wait_for_selector("body[data-ready='true']")
        expect(bo.get_by_test_id("daily-entry")).to_have_count(2)
        if game == "scoundrel":
            board = with_par(bo, f"/api/daily/{day}/{game}")
            scores = [entry["score"] for entry in board["entries"]]
            assert scores == sorted(scores, reverse=True)
            told = f"{signed(mine['score'])}/{signed(board['par'])}"
        else:
            mark = {"win": "✓", "draw": "=", "loss": "✗"}[mine["outcome"]]
            told = f"{signed(mine['score'])}:{signed(mine['opponent_score'])} {mark}"
        # The board's minus sign, and a link to the day's board (issue 53).
        shared = f"{title} #{daily_number}: {told} {base_url}/daily/{day}/{game}"
        expect(bo.get_by_test_id("share-text")).to_have_text(shared)
        bo.get_by_role("button", name="Kopieren").click()
        assert bo.evaluate("navigator.clipboard.readText()") == shared
        assert not CARD.search(bo.locator("main").inner_text())
        expect(bo.locator("main .card, main [data-testid^='take-']")).to_have_count(0)
    screenshot(bo, "daily-board")

    # No replay while the day runs: the history shows when it opens, the page refuses.
    phone.goto("/history")
    expect(phone.locator(".match-item.is-held")).to_have_count(3)
    expect(phone.locator(".match-item a[href^='/matches/']")).to_have_count(0)
    match_id = api(phone, "/api/matches")[0]["match_id"]
    assert phone.goto(f"/matches/{match_id}").status == 403  # type: ignore[union-attr]
    expect(phone.locator("h1")).to_have_text("This daily's replay opens tomorrow")

    # Once the day is over in the server's time zone, the replays open.
    ends = datetime.fromisoformat(api(phone, f"/api/daily/{day}/scoundrel")["ends_at"])
    clock.write_text(str((ends - datetime.now(ends.tzinfo)).total_seconds() + 60))
    phone.goto("/history")
    expect(phone.locator(".match-item a[href^='/matches/']")).to_have_count(3)
    assert phone.goto(f"/matches/{match_id}").status == 200  # type: ignore[union-attr]
    phone.goto(f"/daily/{day}/scoundrel")
    expect(phone.locator("#no-lines")).to_contain_text("The day is over")
