"""The chat at a table, two people in their own browsers: a line and a quick reaction reach
the other, an unread count shows on the phone's toggle until the sheet opens, and a muted
person's lines are hidden in this browser only. Text is shown as typed, never as markup."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import DESKTOP, PHONE, SCREENSHOTS, NewPage, shoot
from tests.browser.layout import SIZES, resize
from tests.browser.players import create_room, join_by_link


def say(page: Page, text: str) -> None:
    page.locator("#chat-input").fill(text)
    page.locator("#chat-input").press("Enter")


def test_two_players_chat_react_and_mute(new_page: NewPage) -> None:
    anna, ben = new_page(viewport=DESKTOP), new_page(viewport=PHONE)
    join_by_link(ben, create_room(anna, "expeditionen", "Anna", preset="short"), "Ben")

    say(anna, "Viel Glück! <b>fett</b> https://example.org")
    unread = ben.get_by_test_id("chat-unread")
    expect(unread).to_have_text("1")
    anna.locator(".chat-reaction[data-reaction='good_move']").click()
    expect(unread).to_have_text("2")
    board = ben.locator("#board").bounding_box()
    toggle = ben.locator("#chat-toggle").bounding_box()
    assert board is not None and toggle is not None
    assert toggle["y"] + toggle["height"] <= board["y"], "the chat's toggle over the board"
    assert toggle["x"] + toggle["width"] <= PHONE["width"]

    ben.locator("#chat-toggle").click()
    expect(unread).to_be_hidden()
    lines = ben.locator("#chat-list .chat-text")
    expect(lines).to_have_text(["Viel Glück! <b>fett</b> https://example.org", "Good move!"])
    expect(ben.locator("#chat-list b")).to_have_count(0)
    ben.locator(".chat-reaction[data-reaction='thanks']").click()
    expect(anna.locator("#chat-list .chat-text").last).to_have_text("Thanks!")
    for sheet in (ben.locator("#chat").bounding_box(),):
        assert sheet is not None
        assert sheet["y"] >= 0 and sheet["y"] + sheet["height"] <= PHONE["height"]
    shoot(ben, SCREENSHOTS / "chat-phone.png", animations="disabled")
    shoot(anna, SCREENSHOTS / "chat-desktop.png", animations="disabled")
    resize(ben, SIZES["phone-landscape"])  # issue 53: its messages got 18 px there
    messages = ben.locator("#chat-list").bounding_box()
    sheet = ben.locator("#chat").bounding_box()
    assert messages is not None and sheet is not None
    assert messages["height"] >= 90, f"the messages get {messages['height']} px on its side"
    assert sheet["y"] >= 0 and sheet["y"] + sheet["height"] <= SIZES["phone-landscape"]["height"]
    expect(ben.locator("#chat-list .chat-text").last).to_be_in_viewport()
    shoot(ben, SCREENSHOTS / "chat-phone-landscape.png", animations="disabled")
    resize(ben, PHONE)

    # Issue 53: a 24 px "⊘" keyed by the name shown; now a labelled control of 44 px, and
    # the person muted, not the name (a rename no longer escapes it).
    mute = ben.locator(".chat-mute").first
    expect(mute).to_have_accessible_name("Mute Anna (in this browser)")
    expect(mute).to_contain_text("Mute")
    box = mute.bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44, box
    mute.click()  # mute Anna, in Ben's browser only
    expect(ben.locator("#chat-list .chat-text")).to_have_text(["Thanks!"])
    expect(ben.locator("#chat-muted")).to_contain_text("Anna")
    ben.locator("#chat-close").click()
    say(anna, "Hallo?")
    expect(anna.locator("#chat-list .chat-text").last).to_have_text("Hallo?")
    renamed = anna.evaluate(
        """() => fetch('/api/me/name', {method: 'PUT', credentials: 'same-origin',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name: 'Annika'})}).then(r => r.status)"""
    )
    assert renamed == 204
    say(anna, "Ich bin's, Annika")
    expect(anna.locator("#chat-list .chat-text").last).to_have_text("Ich bin's, Annika")
    expect(unread).to_be_hidden()
    ben.locator("#chat-toggle").click()
    expect(ben.locator("#chat-list .chat-text")).to_have_text(["Thanks!"])
    expect(ben.locator("#chat-muted .chat-unmute")).to_have_text(["Annika ✕"])
    shoot(ben, SCREENSHOTS / "chat-muted-phone.png", animations="disabled")
    ben.locator("#chat-muted .chat-unmute").click()
    expect(ben.locator("#chat-list .chat-text")).to_have_count(5)
