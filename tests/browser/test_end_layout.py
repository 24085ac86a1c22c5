"""The end of a match fits every screen (tests/browser/layout.py says what that means), for
every registered game."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from engine import games
from tests.browser.conftest import NewPage
from tests.browser.layout import SIZES, check_fits, needed
from tests.browser.players import finished_message, seated_table


@pytest.mark.parametrize("game_name", [game.name for game in games()])
def test_the_end_of_a_match_keeps_rematch_on_every_screen(
    new_page: NewPage, game_name: str
) -> None:
    """Once a match is over, its end panel (who won, rematch) is the current step: the board
    below it no longer needs to be on screen."""
    page, socket, log = seated_table(new_page, game_name, SIZES["phone-landscape"])
    socket.send(json.dumps(finished_message(log.latest, game_name, {})))
    expect(page.locator("#end")).to_be_visible()
    assert needed(page) == set()
    expect(page.locator("#end [data-needed='rematch']")).to_be_visible()
    check_fits(page, f"{game_name}-end")
