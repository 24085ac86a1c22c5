"""What a person does in the browser, as small steps the tests can share."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, WebSocketRoute, expect

from engine import get_game

ROOM_SOCKET = re.compile(r"/ws/rooms/")


def room_sockets(page: Page) -> list[WebSocketRoute]:
    """The page's room sockets, passed through to the server; the test may inject messages."""
    sockets: list[WebSocketRoute] = []

    def through(route: WebSocketRoute) -> None:
        route.connect_to_server()
        sockets.append(route)

    page.route_web_socket(ROOM_SOCKET, through)
    return sockets


def create_room(
    page: Page, game: str, name: str, preset: str | None = None, computer: str | None = None
) -> str:
    """From the home page: choose the game (and variant, and a computer opponent's level),
    type a name, create.

    Returns the room's share link."""
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    page.locator(f"label[for='game-{game}']").click()
    if preset is not None:
        choose(page, f"input[name='preset'][value='{preset}']")
    if computer is not None:
        choose(page, f"input[name='opponent'][value='{computer}']")
    page.fill("#player-name", name)
    still_chosen(page, preset)
    page.click("#create-room")
    page.wait_for_url("**/r/**")
    wait_for_state(page)
    return page.url


def still_chosen(page: Page, preset: str | None) -> None:
    """The variant chosen is still the one sent: a full suite run made a 3-round room of
    a "short" one twice, once after `choose` had seen it checked."""
    if preset is not None:
        choose(page, f"input[name='preset'][value='{preset}']")


def choose(page: Page, radio: str) -> None:
    """Clicks a chip (the radio's label) until its radio is checked: a full suite run once
    made a 3-round room of a "short" one, the click having not held."""
    for _ in range(3):
        page.locator(f"{radio} + span").click()
        if page.locator(radio).is_checked():
            return
    expect(page.locator(radio)).to_be_checked()


def create_turn_based_room(
    page: Page, game: str, name: str, days: str, preset: str | None = None
) -> str:
    """From the home page: a turn-based room with `days` per move (its label: "2 days",
    "No limit"), of the game's variant `preset`. Returns the room's share link."""
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    page.locator(f"label[for='game-{game}']").click()
    if preset is not None:
        choose(page, f"input[name='preset'][value='{preset}']")
    choose(page, "input[name='opponent'][value='turn']")
    page.select_option("#move-days", label=days)
    page.fill("#player-name", name)
    still_chosen(page, preset)
    page.click("#create-room")
    page.wait_for_url("**/r/**")
    wait_for_state(page)
    return page.url


def join_by_link(page: Page, url: str, name: str) -> None:
    """Opens a share link, answers the name prompt and waits for the table."""
    page.goto(url)
    page.fill("#join-name", name)
    page.get_by_role("button", name="Take a seat").or_(
        page.get_by_role("button", name="Watch", exact=True)
    ).click()
    wait_for_state(page)


def choose_language(page: Page, lang: str) -> None:
    """The page in ``lang`` ("en", "de"), switched as a player would: in the head bar, or on
    a phone held upright at the table in the settings dialog."""
    if page.locator("html").get_attribute("lang") != lang:
        head = page.locator(f".site-header .lang-switch [data-lang='{lang}']")
        if head.is_visible():
            head.click()
        else:
            page.locator("#settings-button").click()
            page.locator(f"#settings input[name='lang'][value='{lang}'] + span").click()
            page.locator("#settings-close").click()
    expect(page.locator("html")).to_have_attribute("lang", lang)


def watch(page: Page, url: str) -> None:
    """Opens the share link of a room whose seats are taken: the table, no name asked."""
    page.goto(url)
    wait_for_state(page)
    expect(page.locator(".seats")).to_contain_text("You are watching")


def wait_for_state(page: Page) -> None:
    page.wait_for_selector("#board[data-version]")


def version(page: Page) -> tuple[int, int]:
    match, number = page.evaluate(
        "() => { const board = document.querySelector('#board');"
        " return [Number(board?.dataset.match || 0), Number(board?.dataset.version || 0)]; }"
    )
    return int(match), int(number)


def wait_for_version(page: Page, match: int, number: int) -> None:
    # Longer than the default: on a loaded machine a reconnect after a stalled write (the
    # server closes those after SEND_TIMEOUT_SECONDS, 10) still shows the version.
    try:
        page.wait_for_selector(
            f"#board[data-match='{match}'][data-version='{number}']", timeout=20_000
        )
    except PlaywrightError as error:
        raise AssertionError(
            f"version {match}.{number} never shown; the page: {table_facts(page)}"
        ) from error


def table_facts(page: Page) -> dict[str, Any]:
    """What a page shows about itself, for a failing test's message."""
    return dict(
        page.evaluate(
            """() => ({
              url: location.href,
              version: document.querySelector('#board')?.dataset.version,
              busy: document.querySelector('#board')?.getAttribute('aria-busy'),
              banner: document.querySelector('#banner')?.textContent,
              offline: !document.querySelector('#offline')?.hidden,
              toasts: [...document.querySelectorAll('.toast')].map(e => e.textContent),
              note: document.querySelector('#table-note')?.textContent,
            })"""
        )
    )


def act_and_wait(page: Page, click: Any, others: tuple[Page, ...] = ()) -> None:
    """Clicks a control that sends an action and waits until every page shows the next version."""
    match, number = version(page)
    click()
    for watcher in (page, *others):
        wait_for_version(watcher, match, number + 1)


def is_my_turn(page: Page) -> bool:
    return page.locator("#banner.is-mine").count() == 1


def no_error_toast(page: Page) -> None:
    expect(page.locator(".toast-error")).to_have_count(0)


class StateLog:
    """Every `state` message a page received, read from its websocket frames."""

    def __init__(self, page: Page) -> None:
        self.states: list[dict[str, Any]] = []
        page.on("websocket", lambda socket: socket.on("framereceived", self.frame))

    def frame(self, payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "state":
            self.states.append(message)

    @property
    def latest(self) -> dict[str, Any]:
        return self.states[-1]


@dataclass
class Duel:
    """Two players' pages in one room, with the state messages each page received."""

    anna: Page
    ben: Page
    url: str
    logs: dict[str, StateLog]

    def pages(self) -> tuple[Page, Page]:
        return self.anna, self.ben

    def mover(self) -> tuple[Page, Page]:
        """(the page whose turn it is, the other page)"""
        for page, other in ((self.anna, self.ben), (self.ben, self.anna)):
            if is_my_turn(page):
                return page, other
        raise AssertionError("it is nobody's turn")

    def log(self, page: Page) -> StateLog:
        return self.logs["anna" if page is self.anna else "ben"]

    def state(self, page: Page) -> dict[str, Any]:
        """The latest state message of this page, the one its board shows."""
        log = self.log(page)
        shown = version(page)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if log.states and (log.latest["match_number"], log.latest["version"]) == shown:
                return log.latest
            page.wait_for_timeout(20)
        raise AssertionError(f"no state message for version {shown}")


def finished_message(
    latest: dict[str, Any], game_name: str, options: dict[str, Any]
) -> dict[str, Any]:
    """The page's latest state message turned into the end of a whole match (random legal moves
    from a fixed deal), one version later."""
    game = get_game(game_name)
    state = game.new(seed=5, options=options)
    pick = random.Random(5)
    while not game.is_over(state):
        seat = game.to_move(state)
        state = game.apply(state, seat, pick.choice(game.legal_actions(state, seat)))
    seat = latest["seat"]
    return {
        **latest,
        "version": latest["version"] + 1,
        "to_move": None,
        "view": game.view(state, seat),
        "legal_actions": [],
        "result": game.result(state).to_json(),
        "last_action": None,
    }


def seated_table(
    new_page: Callable[..., Page], game_name: str, viewport: dict[str, int]
) -> tuple[Page, WebSocketRoute, StateLog]:
    """Anna at a new table of the game (Benedikt joins a two-player one), play begun: her page,
    its socket (to send it a hand-made message) and the states it received."""
    page = new_page(viewport=viewport)
    sockets = room_sockets(page)
    log = StateLog(page)
    url = create_room(page, game_name, "Anna")
    if get_game(game_name).seats > 1:
        join_by_link(new_page(), url, "Benedikt")
        expect(page.locator("#banner")).to_contain_text("turn")
    return page, sockets[-1], log
