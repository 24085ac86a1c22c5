"""Pure game rules, no I/O. Every game registers here by name.

from engine import get_game, IllegalAction
game = get_game("scoundrel")
state = game.new(seed=7)
game.legal_actions(state, 0)
"""

from engine.base import (
    AnyGame,
    BestLine,
    BestLineSearch,
    ErrorCode,
    Game,
    Hint,
    HintSearch,
    IllegalAction,
    InvalidAction,
    Option,
    Outcome,
    OutcomeJson,
    OutOfBudget,
    Preset,
    Reason,
    SlipSearch,
    Takeback,
    Unseen,
    replay,
    resolve_options,
)
from engine.registry import games, get_game, register

# Importing a game module registers it.
from engine import scoundrel  # noqa: E402,F401,I001  isort: skip
from engine import expeditionen  # noqa: E402,F401  isort: skip
from engine import pilzwanderung  # noqa: E402,F401  isort: skip

__all__ = [
    "AnyGame",
    "BestLine",
    "BestLineSearch",
    "ErrorCode",
    "Game",
    "Hint",
    "HintSearch",
    "IllegalAction",
    "InvalidAction",
    "Option",
    "Outcome",
    "OutcomeJson",
    "OutOfBudget",
    "Preset",
    "Reason",
    "SlipSearch",
    "Takeback",
    "Unseen",
    "games",
    "get_game",
    "register",
    "replay",
    "resolve_options",
]
