"""High card's one move: ``p`` and a card's code (``p7s``), a card played
from the hand to the trick."""

from __future__ import annotations

from dataclasses import dataclass

from games.cards import Card, CardParseError
from games.core import Action, ActionParseError

__all__ = ["Play", "decode"]


@dataclass(frozen=True, slots=True)
class Play(Action):
    card: Card

    def encode(self) -> str:
        return "p" + self.card.code


def decode(text: str) -> Play:
    if not isinstance(text, str) or not text.startswith("p"):
        raise ActionParseError(f"not a High card action: {text!r}")
    try:
        card = Card.parse(text[1:])
    except CardParseError:
        raise ActionParseError(f"not a High card action: {text!r}") from None
    if card.is_joker:
        raise ActionParseError(f"no jokers in High card: {text!r}")
    return Play(card)
