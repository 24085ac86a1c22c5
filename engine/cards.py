"""Card codes as the rules define them: rank then suit (``10H``, ``QS``)."""

from __future__ import annotations

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
RANK_VALUE = {rank: value for value, rank in enumerate(RANKS, start=2)}


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def value(card: str) -> int:
    """2..10 by number, J 11, Q 12, K 13, A 14."""
    return RANK_VALUE[rank(card)]
