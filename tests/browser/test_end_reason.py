"""The end screen says why the match ended, from the reason the engine gives, in English
and German, for every registered game."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from engine import Reason, games, get_game
from engine.scoundrel_solver import solve
from tests.browser.conftest import NewPage
from tests.browser.layout import SIZES
from tests.browser.players import choose_language, finished_message, seated_table

GAMES = Path(__file__).resolve().parents[2] / "static" / "js" / "games"
# Why each game ends, as its end screen says it (English, then German).
WHY = {
    "survived": ("emptied the last room", "letzten Raum des Verlieses"),
    "slain": ("Your health ran out", "Lebenspunkte sind aufgebraucht"),
    "higher_score": ("The forest ran out of cards", "Der Wald ist leer"),
    "more_mushrooms_cooked": ("The forest ran out of cards", "Der Wald ist leer"),
    "tied": ("The forest ran out of cards", "Der Wald ist leer"),
    "higher_total": ("The draw pile ran out in round", "ist der Nachziehstapel leer"),
    "won_tiebreak": ("a tie-break round", "einer Entscheidungsrunde"),
    "tied_after_tiebreaks": ("the last tie-break round", "der letzten Entscheidungsrunde"),
}


def reasons(game_name: str) -> list[Reason]:
    """Every member of the game's Reason, found from the module that defines the game."""
    module = importlib.import_module(type(get_game(game_name)).__module__)
    kinds = [k for k in vars(module).values() if isinstance(k, type) and issubclass(k, Reason)]
    return [member for kind in kinds if kind is not Reason for member in kind]


@pytest.mark.parametrize("game_name", [game.name for game in games()])
def test_every_reason_of_the_engine_has_its_sentence_in_both_languages(game_name: str) -> None:
    strings = (GAMES / f"{game_name}.strings.js").read_text()
    for reason in reasons(game_name):
        assert reason in WHY, f"{game_name}: say why {reason!r} ends the game"
        assert len(re.findall(rf'\.reason\.{reason}":', strings)) == 2, (game_name, reason)


def says_why(page: Page, reason: str) -> None:
    english, german = WHY[reason]
    why = page.get_by_test_id("end-reason")
    expect(why).to_contain_text(english)
    choose_language(page, "de")
    expect(why).to_contain_text(german)
    choose_language(page, "en")


@pytest.mark.parametrize("game_name", [game.name for game in games()])
def test_the_end_screen_says_why_the_match_ended(new_page: NewPage, game_name: str) -> None:
    page, socket, log = seated_table(new_page, game_name, SIZES["laptop"])
    ended = finished_message(log.latest, game_name, {})
    socket.send(json.dumps(ended))
    expect(page.locator("#end")).to_be_visible()
    says_why(page, ended["result"]["reason"])


def test_the_end_screen_says_the_dungeon_was_cleared(new_page: NewPage) -> None:
    game = get_game("scoundrel")
    page, socket, log = seated_table(new_page, "scoundrel", SIZES["laptop"])
    state = game.new(seed=16, options={})
    for action in solve(state).line:
        state = game.apply(state, 0, action)
    ended = {
        **finished_message(log.latest, "scoundrel", {}),
        "view": game.view(state, 0),
        "result": game.result(state).to_json(),
    }
    socket.send(json.dumps(ended))
    expect(page.get_by_test_id("end-reason")).to_have_text(
        f"You emptied the last room of the dungeon with {state.health} health left."
    )
    says_why(page, "survived")
