"""A worker keeps each computer player's bot for the match, so that what its seat saw at
earlier turns (the Pilzwanderung bot's notebook) is not forgotten between moves."""

from __future__ import annotations

from app.computer import thinking
from engine import get_game


def test_a_computer_player_keeps_its_bot_between_moves() -> None:
    first = thinking.bot_for(("room", 1, 1, "strong"), "pilzwanderung", "strong", 0.01)
    again = thinking.bot_for(("room", 1, 1, "strong"), "pilzwanderung", "strong", 0.01)
    assert again is first


def test_a_new_match_or_seat_gets_a_new_bot() -> None:
    first = thinking.bot_for(("room", 1, 1, "strong"), "pilzwanderung", "strong", 0.01)
    assert thinking.bot_for(("room", 2, 1, "strong"), "pilzwanderung", "strong", 0.01) is not first
    assert thinking.bot_for(("room", 1, 0, "strong"), "pilzwanderung", "strong", 0.01) is not first


def test_the_bot_remembers_the_views_it_was_shown() -> None:
    game = get_game("pilzwanderung")
    state = game.new(seed=3, options={})
    seat = game.to_move(state)
    assert seat is not None
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    action = thinking.choose(("memo", 1, seat), "pilzwanderung", "strong", 0.01, view, legal, [], 5)
    assert action in legal
    bot = thinking.bot_for(("memo", 1, seat, "strong"), "pilzwanderung", "strong", 0.01)
    assert bot.notebook.views == {0: view}  # type: ignore[attr-defined]


def test_only_the_most_recent_bots_are_kept() -> None:
    for number in range(thinking.KEPT_BOTS + 5):
        thinking.bot_for(("many", number, 0, "easy"), "pilzwanderung", "easy", 0.01)
    assert len(thinking._bots) == thinking.KEPT_BOTS
    assert ("many", 0, 0, "easy") not in thinking._bots
