"""Scoundrel's survival chances say what they count and leave with the game; its replay
compares the line played with the best line at the same step and marks where it fell
below the best."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, Route, expect

from tests.browser.conftest import NewPage, screenshot
from tests.browser.players import (
    StateLog,
    act_and_wait,
    choose_language,
    create_room,
    finished_message,
    room_sockets,
)

ESTIMATING = "Estimating from the cards you have not seen"


def answer_chances(page: Page, log: StateLog, chance: float) -> None:
    """The server's estimate, at once: every legal choice gets ``chance``."""

    def chances(route: Route) -> None:
        actions = log.latest["legal_actions"]
        route.fulfill(
            json={"chances": [{"action": a, "chance": chance} for a in actions], "samples": 64}
        )

    page.route("**/hint", chances)


def test_the_estimate_leaves_the_board_when_the_dungeon_ends(new_page: NewPage) -> None:
    page = new_page()
    sockets = room_sockets(page)
    log = StateLog(page)
    page.route("**/hint", lambda route: None)  # still estimating when the game ends
    create_room(page, "scoundrel", "Dana")
    page.get_by_test_id("chances").click()
    expect(page.get_by_test_id("chances-note")).to_have_text(re.compile(ESTIMATING))
    sockets[-1].send(json.dumps(finished_message(log.latest, "scoundrel", {})))
    expect(page.locator("#end")).to_be_visible()
    expect(page.get_by_test_id("chances-note")).to_have_count(0)
    expect(page.locator("#board")).not_to_contain_text("%")


def test_the_chances_say_they_count_getting_out_alive(new_page: NewPage) -> None:
    """A move rated 100 % may leave 1 health: the number is survival, and the line under
    the choices begins by saying so."""
    for locale, toggle, meaning in (
        ("en-US", "Survival chances", "% = the chance to get out of the dungeon alive (not the"),
        ("de-DE", "Überlebenschancen", "% = die Chance, lebend aus dem Verlies zu kommen (nicht"),
    ):
        page = new_page(locale=locale)
        answer_chances(page, StateLog(page), 1.0)
        create_room(page, "scoundrel", "Dana")
        page.get_by_test_id("chances").click()
        expect(page.get_by_test_id("chances")).to_have_text(toggle)
        expect(page.locator("#board [data-testid^='take-']").first).to_contain_text("100\u00a0%")
        expect(page.get_by_test_id("chances-note")).to_have_text(
            re.compile(f"^{re.escape(meaning)}")
        )


def play_to_the_end(page: Page) -> None:
    """Takes the first card offered, again and again: a quick way to die."""
    while not page.locator("#end").is_visible():
        act_and_wait(page, page.locator("#board [data-testid^='take-']").first.click)


def finished_match(page: Page) -> tuple[int, dict[str, Any]]:
    """A Scoundrel match played badly to its end, its id and its analysis."""
    log = StateLog(page)
    create_room(page, "scoundrel", "Dana")
    play_to_the_end(page)
    match_id = log.latest["match_id"]
    # The search is kept: the replay below gets its answer at once.
    response = page.request.get(f"/api/matches/{match_id}/analysis", timeout=50_000)
    assert response.ok
    return match_id, response.json()


def shown(score: int) -> str:
    """A score as the page writes it: a real minus sign."""
    return str(score).replace("-", "\u2212")


def step_label(page: Page) -> Any:
    return expect(page.locator("#step-label"))


def test_switching_lines_in_the_replay_keeps_the_step(new_page: NewPage) -> None:
    page = new_page(motion=False)
    match_id, _analysis = finished_match(page)
    page.goto(f"/matches/{match_id}#2")
    page.wait_for_selector("body[data-ready]")
    expect(page.get_by_test_id("line-best")).to_be_visible()
    step_label(page).to_have_text(re.compile(r"^Move 2 of "))
    page.get_by_test_id("line-best").click()
    expect(page.get_by_test_id("line-best")).to_have_attribute("aria-pressed", "true")
    step_label(page).to_have_text(re.compile(r"^Move 2 of "))
    expect(page.locator("#step-text")).to_contain_text("Best line:")
    page.get_by_test_id("line-yours").click()
    step_label(page).to_have_text(re.compile(r"^Move 2 of "))
    expect(page.locator("#step-text")).to_contain_text("Dana:")


def test_the_replay_marks_where_the_line_played_fell_below_the_best(new_page: NewPage) -> None:
    page = new_page(motion=False)
    match_id, analysis = finished_match(page)
    assert analysis["your_score"] < analysis["best_score"], "played badly, below the best"
    slip = analysis["slip"]
    page.goto(f"/matches/{match_id}#best-0")
    page.wait_for_selector("body[data-ready]")
    marker = page.get_by_test_id("slip")
    expect(marker).to_have_text(f"Fell below the best at move {slip}")
    marker.click()
    expect(page.get_by_test_id("line-yours")).to_have_attribute("aria-pressed", "true")
    step_label(page).to_have_text(re.compile(rf"^Move {slip} of "))
    expect(page.get_by_test_id("slip-here")).to_have_text(
        f"Here the best score ({shown(analysis['best_score'])}) went out of reach."
    )
    screenshot(page, "replay-scoundrel-slip")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_test_id("slip-here")).to_have_count(0)
    page.keyboard.press("End")
    expect(page.locator("#result [data-testid='end-reason']")).to_be_visible()
    choose_language(page, "de")
    expect(page.get_by_test_id("slip")).to_have_text(f"Unter den besten gefallen bei Zug {slip}")
