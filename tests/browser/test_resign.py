"""Ending a match early at the table, two people in their own browsers: aborting before each
has made two moves, resigning after a confirmation, leaving a room that waits. The buttons
sit beside the turn banner, never over the board; on a phone upright, at the head of the
move log's sheet, so that the banner keeps its width."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import DESKTOP, PHONE, SCREENSHOTS, NewPage, shoot
from tests.browser.players import create_room, join_by_link, wait_for_version


def tool(page: Page, name: str) -> Locator:
    """The tool where this screen shows it: beside the banner, or in the move log's sheet."""
    beside = page.locator(f"#{name}")
    if beside.is_visible():
        return beside
    toggle = page.locator("#log-toggle")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    return page.locator(f"#log-{name}")


def confirm(page: Page, name: str) -> None:
    tool(page, name).click()
    dialog = page.locator("#confirm-panel")
    expect(dialog).to_be_visible()
    dialog.locator("#confirm-yes").click()
    expect(dialog).to_be_hidden()


def tools_clear_of_the_board(page: Page, name: str) -> None:
    """At a phone's and a desktop's size: the board as large as without the tools; on the
    desktop every tool on screen beside the banner, none over the board; on the phone none
    beside the banner, and all three (abort, resign, pause) at the head of the move log's
    sheet."""
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        shoot(page, SCREENSHOTS / f"{name}-{label}.png", animations="disabled")
        board = page.locator("#board").bounding_box()
        assert board is not None
        beside = page.locator(".turn-line .match-tool:visible").all()
        assert len(beside) == (0 if label == "phone" else 3), label
        for button in beside:
            box = button.bounding_box()
            assert box is not None
            assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (label, box)
            assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (label, box)
            assert box["y"] + box["height"] <= board["y"], f"{label}: a tool over the board"
        page.locator("#match-tools").evaluate("tools => { tools.hidden = true; }")
        assert page.locator("#board").bounding_box() == board, f"{label}: tools cost room"
        page.locator("#match-tools").evaluate("tools => { tools.hidden = false; }")
    page.set_viewport_size(PHONE)
    page.locator("#log-toggle").click()
    expect(page.locator("#log-tools .match-tool")).to_have_count(3)
    for button in page.locator("#log-tools .match-tool").all():
        expect(button).to_be_in_viewport()
    shoot(page, SCREENSHOTS / f"{name}-phone-log.png", animations="disabled")
    page.locator("#log-close").click()


def test_a_player_aborts_then_the_other_resigns_after_a_confirmation(new_page: NewPage) -> None:
    anna, ben = new_page(viewport=PHONE), new_page(viewport=PHONE)
    join_by_link(ben, create_room(anna, "expeditionen", "Anna", preset="short"), "Ben")
    for page in (anna, ben):
        expect(page.locator("#abort")).to_have_count(1)
        expect(page.locator("#resign")).to_have_count(1)
    tools_clear_of_the_board(anna, "resign-tools")
    anna.set_viewport_size(PHONE)

    confirm(anna, "abort")
    for page in (anna, ben):
        expect(page.locator("#end h2")).to_have_text("Match aborted by Anna")
        expect(page.locator("#end")).to_contain_text("An aborted match counts for nothing.")
        expect(page.locator(".match-tool")).to_have_count(0)
        # Nothing to review and no score: an aborted match counts for nothing (issue 53).
        expect(page.locator("#end a", has_text="Review")).to_have_count(0)
        expect(page.locator(".ex-score-line")).not_to_contain_text("Final score")
    shoot(anna, SCREENSHOTS / "abort-end-phone.png", full_page=True, animations="disabled")

    for page in (anna, ben):
        page.locator("#rematch").click()
    for page in (anna, ben):
        wait_for_version(page, 2, 0)
    tool(ben, "resign").click()
    expect(ben.locator("#confirm-text")).to_have_text(
        "Anna wins, and it counts in this room's tally."
    )
    shoot(ben, SCREENSHOTS / "resign-confirm-phone.png", animations="disabled")
    ben.locator("#confirm-no").click()  # a second thought: nothing happens
    expect(ben.locator("#confirm-panel")).to_be_hidden()
    expect(ben.locator("#end")).to_be_hidden()
    confirm(ben, "resign")
    expect(ben.locator("#end h2")).to_have_text("You resigned")
    expect(anna.locator("#end h2")).to_have_text("Ben resigned")
    expect(anna.locator("#end")).to_contain_text("Anna wins by resignation.")
    expect(anna.locator("#end")).to_contain_text("Wins: Anna 1 · Ben 0")
    shoot(anna, SCREENSHOTS / "resign-end-phone.png", animations="disabled")

    anna.locator("#end a", has_text="Review").click()
    expect(anna.get_by_test_id("end-reason")).to_have_text("Ben resigned")
    anna.goto("/history")
    expect(anna.locator(".match-item").first).to_contain_text("Ben resigned · won: Anna")
    expect(anna.locator(".match-item").nth(1)).to_contain_text("aborted by Anna")


def test_the_only_player_leaves_a_waiting_room_and_it_closes(new_page: NewPage) -> None:
    anna = new_page(viewport=PHONE)
    url = create_room(anna, "expeditionen", "Anna")
    expect(anna.locator("#resign")).to_have_count(0)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        anna.set_viewport_size(size)
        shoot(anna, SCREENSHOTS / f"leave-{label}.png", animations="disabled")
        leave, board = anna.locator("#leave").bounding_box(), anna.locator("#board").bounding_box()
        assert leave is not None and board is not None
        assert leave["y"] + leave["height"] <= min(board["y"], size["height"]), label
    confirm(anna, "leave")
    anna.wait_for_url("**/")
    anna.goto(url)
    expect(anna.locator(".not-found h1")).to_be_visible()
