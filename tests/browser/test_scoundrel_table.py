"""One person plays Scoundrel in the browser, from the home page to the end of the dungeon."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import NewPage, screenshot
from tests.browser.players import (
    StateLog,
    act_and_wait,
    create_room,
    no_error_toast,
    wait_for_version,
)

TAKES = "#board [data-testid^='take-']"
SOLVER_WAIT = 120_000  # ms: the deal is random and a rare one takes the solver long


ESTIMATED = "shuffled orders"  # the hint's note once its chances have come


def shown_number(text: str) -> int:
    return int(text.replace("−", "-"))


def as_shown(number: int) -> str:
    """A score as the page writes it: a real minus sign."""
    return f"−{abs(number)}" if number < 0 else str(number)


def offered(page: Page) -> list[dict[str, object]]:
    """The actions the page offers as buttons, in the shape of legal_actions."""
    ids = page.locator("#board [data-testid^='take-'], #board [data-testid='avoid']").evaluate_all(
        "buttons => buttons.map(b => b.dataset.testid)"
    )
    actions: list[dict[str, object]] = []
    for test_id in ids:
        if test_id == "avoid":
            actions.append({"type": "avoid"})
        else:
            _, card, how = test_id.split("-")
            actions.append({"type": "take", "card": card, "weapon": how == "weapon"})
    return actions


def sort_key(action: dict[str, object]) -> str:
    return repr(sorted(action.items()))


def take_something(page: Page) -> None:
    """Fights with the weapon when it can, otherwise takes the first card offered."""
    weapon = page.locator("#board [data-testid$='-weapon']")
    button = weapon.first if weapon.count() else page.locator(TAKES).first
    act_and_wait(page, button.click)


def test_a_whole_scoundrel_game_is_played_by_clicking_legal_moves(new_page: NewPage) -> None:
    page = new_page(motion=False)
    log = StateLog(page)
    create_room(page, "scoundrel", "Dana")
    expect(page.get_by_test_id("health")).to_have_text("20")
    expect(page.get_by_test_id("dungeon-count")).to_have_text("40")
    expect(page.locator(".sc-room .card")).to_have_count(4)
    screenshot(page, "scoundrel-start")
    while not page.locator("#end").is_visible():
        assert sorted(offered(page), key=sort_key) == sorted(
            log.latest["legal_actions"], key=sort_key
        )
        if page.locator(".sc-slain").count() and not page.locator("[data-shot]").count():
            page.locator("#board").evaluate("board => board.dataset.shot = 'yes'")
            screenshot(page, "scoundrel-table")
        take_something(page)
    result = log.latest["result"]
    expect(page.locator("#end h2")).to_have_text(
        re.compile(r"You made it out|You fell in the dungeon")
    )
    score = result["scores"][0]
    expect(page.get_by_test_id("final-score")).to_have_text(as_shown(score))
    expect(page.locator("#board [data-testid^='take-']")).to_have_count(0)
    no_error_toast(page)
    expect(page.get_by_test_id("best-score")).to_be_visible(timeout=SOLVER_WAIT)
    best_score = shown_number(page.get_by_test_id("best-score").inner_text())
    assert best_score >= score
    screenshot(page, "scoundrel-end")

    page.get_by_role("link", name="Review the match").click()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#step-label")).to_have_text(re.compile(r"^Move 0 of \d+$"))
    expect(page.locator(".sc-revealed .card")).to_have_count(40)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-label")).to_have_text(re.compile(r"^Move 1 of "))
    expect(page.locator("#step-text")).to_contain_text("Dana:")
    expect(page.locator("#board button")).to_have_count(0)
    page.keyboard.press("End")
    expect(page.get_by_test_id("final-score")).to_have_text(as_shown(score))
    screenshot(page, "replay-scoundrel")
    page.keyboard.press("Home")
    page.get_by_test_id("line-best").click()
    expect(page.get_by_test_id("line-best")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#step-label")).to_have_text(re.compile(r"^Move 0 of \d+$"))
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-text")).to_contain_text("Best line:")
    page.keyboard.press("End")
    expect(page.get_by_test_id("final-score")).to_have_text(as_shown(best_score))
    screenshot(page, "replay-scoundrel-best")
    page.keyboard.press("Home")
    page.get_by_test_id("line-yours").click()
    expect(page.locator("#step-label")).to_have_text(re.compile(r"^Move 0 of \d+$"))
    expect(page.locator(".replay-keys")).to_be_visible()
    phone = new_page(viewport={"width": 390, "height": 844}, touch=True)
    phone.goto(page.url)
    phone.wait_for_selector("body[data-ready]")
    expect(phone.locator(".replay-keys")).to_be_hidden()  # no arrow keys on a phone
    page.go_back()
    page.wait_for_selector("#end:not([hidden])")
    page.get_by_test_id("best-line-link").click()
    page.wait_for_selector("body[data-ready]")
    expect(page.get_by_test_id("line-best")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#step-label")).to_have_text(re.compile(r"^Move 0 of \d+$"))
    page.go_back()
    page.wait_for_selector("#end:not([hidden])")

    page.get_by_role("button", name="Play again").click()
    wait_for_version(page, 2, 0)
    expect(page.locator("#end")).to_be_hidden()
    expect(page.get_by_test_id("health")).to_have_text("20")
    expect(page.get_by_test_id("dungeon-count")).to_have_text("40")


def test_avoid_is_offered_only_when_the_rules_allow_it(new_page: NewPage) -> None:
    page = new_page()
    create_room(page, "scoundrel", "Dana")
    page.locator(".sc-room .card").first.click()
    expect(page.locator("#table-note")).to_have_text("Use the buttons under the card to take it.")
    room = page.locator(".sc-room .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    act_and_wait(page, page.get_by_test_id("avoid").click)
    expect(page.get_by_test_id("avoid")).to_have_count(0)
    expect(page.get_by_test_id("dungeon-count")).to_have_text("40")
    assert (
        page.locator(".sc-room .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
        != room
    )
    expect(page.get_by_test_id("last-move")).to_contain_text("avoided the room")
    take_something(page)
    expect(page.get_by_test_id("avoid")).to_have_count(0)
    while not page.locator("#end").is_visible() and page.locator(".sc-room .card").count() < 4:
        take_something(page)
    if not page.locator("#end").is_visible():
        expect(page.get_by_test_id("avoid")).to_be_visible()


def test_the_table_speaks_german(new_page: NewPage) -> None:
    page = new_page(locale="de-DE")
    create_room(page, "scoundrel", "Dana")
    expect(page.locator("#banner")).to_contain_text("Du bist dran")
    expect(page.get_by_test_id("avoid")).to_have_text("Raum meiden")
    expect(page.locator(".sc-health .zone-label")).to_have_text("Lebenspunkte")
    screenshot(page, "scoundrel-german")


def test_the_win_chances_show_beside_each_choice(new_page: NewPage) -> None:
    page = new_page()
    create_room(page, "scoundrel", "Dana")
    page.get_by_test_id("chances").click()
    expect(page.get_by_test_id("chances")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("chances-note")).to_contain_text(ESTIMATED, timeout=SOLVER_WAIT)
    for button in page.locator(f"{TAKES}, #board [data-testid='avoid']").all():
        expect(button).to_have_text(re.compile(r" · \d+\u00a0%$"))
    no_error_toast(page)
    screenshot(page, "scoundrel-chances")
    take_something(page)
    expect(page.get_by_test_id("chances-note")).to_contain_text(ESTIMATED, timeout=SOLVER_WAIT)
    page.get_by_test_id("chances").click()
    expect(page.locator(TAKES).first).not_to_contain_text("%")
