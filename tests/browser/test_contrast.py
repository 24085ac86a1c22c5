"""Text keeps at least 4.5:1 contrast with what lies under it, in the light and the dark theme:
the three tables (your turn and theirs, a chosen card, the last move marked, the move log, the
offline overlay, the settings, the end panel), the home and history pages."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.conftest import NewPage
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

LOW_CONTRAST = (Path(__file__).parent / "contrast.js").read_text()
LAPTOP = {"width": 1280, "height": 800}


def low_contrast(page: Page, where: str) -> list[str]:
    return [f"{where}: {problem}" for problem in page.evaluate(LOW_CONTRAST)]


def in_both_themes(page: Page, where: str) -> list[str]:
    """The page as it is, seen in the light and in the dark theme (the theme follows the
    system's colour scheme at once, so one table serves both)."""
    problems = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        problems += low_contrast(page, f"{scheme}, {where}")
    return problems


def test_the_contrast_check_finds_grey_on_grey(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    page.evaluate(
        """() => { const grey = document.createElement('p');
          grey.textContent = 'hard to read'; grey.style.color = '#b0aca4';
          document.querySelector('main').prepend(grey); }"""
    )
    (problem,) = low_contrast(page, "home")
    assert problem.startswith('home: p. "hard to read": 2.')


def test_text_keeps_its_contrast_in_both_themes(new_page: NewPage) -> None:
    problems: list[str] = []

    def person() -> Page:
        return new_page(viewport=LAPTOP)

    solo = person()
    sockets = room_sockets(solo)
    log = StateLog(solo)
    create_room(solo, "scoundrel", "Dana")
    expect(solo.locator("#board [data-testid^='take-']").first).to_be_visible()
    problems += in_both_themes(solo, "scoundrel")
    act_and_wait(solo, solo.locator("#board [data-testid^='take-']").first.click)
    problems += in_both_themes(solo, "scoundrel after a move")
    solo.locator("#settings-button").click()
    problems += in_both_themes(solo, "settings")
    solo.keyboard.press("Escape")
    sockets[-1].send(json.dumps(finished_message(log.latest, "scoundrel", {})))
    expect(solo.locator("#end")).to_be_visible()
    problems += in_both_themes(solo, "scoundrel at the end")

    for game in ("expeditionen", "pilzwanderung"):
        anna, ben = person(), person()
        join_by_link(ben, create_room(anna, game, "Anna"), "Ben")
        wait_for_state(anna)
        expect(anna.locator("#banner")).to_contain_text(re.compile("turn"))
        mover, other = (anna, ben) if is_my_turn(anna) else (ben, anna)
        problems += in_both_themes(mover, f"{game}, your turn")
        problems += in_both_themes(other, f"{game}, their turn")
        if game == "expeditionen":
            mover.locator("#board button.card[data-testid^='hand-']").first.click()
            problems += in_both_themes(mover, "expeditionen, a card chosen")
            act_and_wait(mover, mover.get_by_test_id("discard").click, (other,))
            act_and_wait(mover, mover.get_by_test_id("draw-deck").click, (other,))
            problems += in_both_themes(other, "expeditionen, the last move marked and logged")
        else:
            act_and_wait(mover, mover.get_by_test_id("take-1").click, (other,))
            expect(other.locator("#board .just-moved").first).to_be_attached()
            problems += in_both_themes(other, "pilzwanderung, the last move marked and logged")
        other.context.set_offline(True)
        expect(other.locator("#offline")).to_be_visible()
        problems += in_both_themes(other, f"{game}, offline")
        other.context.set_offline(False)

    for path in ("/", "/history"):
        solo.goto(path)
        solo.wait_for_selector("body[data-ready]")
        problems += in_both_themes(solo, path)
    assert problems == []
