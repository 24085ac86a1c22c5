"""Computer opponents beside the engine: per game, an ``easy`` heuristic and a ``strong``
search; ``random`` for every game.

    from engine.bots import get_bot
    bot = get_bot("expeditionen", "strong", seconds=1.0)
    action = bot.choose(view, legal, history, seat, rng)

A bot sees what its seat sees (``view``), the legal actions and the public history
``[(seat, action), ...]``; never the state. A bot may keep the views it was shown during
one match (Pilzwanderung's strong bot does: an action names a forest position, not the
card there), so use one bot object per seat for a whole match; a fresh one still plays
legally, knowing only the view of the moment and the history. See ``base.py`` for the contract and
``search.py`` for the generic strong bot.

Bots for another game live in ``engine/bots/<game>.py`` and are
imported below: what a seat knows from its view and the history, a ``sampler`` dealing
the unseen cards into full states consistent with it, a rollout policy, a horizon and a
reward (``search.SearchRules``), an easy heuristic, and two ``register_bot`` lines.
"""

from engine.bots.base import Bot, History, RandomBot, bot_levels, get_bot, register_bot

# Importing a game's bots registers them.
from engine.bots import expeditionen, pilzwanderung  # noqa: E402,F401,I001  isort: skip

__all__ = ["Bot", "History", "RandomBot", "bot_levels", "get_bot", "register_bot"]
