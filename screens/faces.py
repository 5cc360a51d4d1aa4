"""Card faces for messages and buttons."""

from __future__ import annotations

import functools
from collections.abc import Iterable

from games.cards import Card, Suit

__all__ = ["face", "faces", "suit_symbol"]

EMOJI = "\ufe0f"
"""Variation selector 16: shows a suit as an emoji, so that hearts and diamonds
are red on phones and desktops alike (``♥`` alone is often drawn black)."""


@functools.cache  # a few dozen codes, asked for on every screen
def face(code: str) -> str:
    """``10♥️``: a card as players read it."""
    card = Card.parse(code)
    return card.face + (EMOJI if card.suit is not None else "")


def faces(codes: Iterable[str], sep: str = " ") -> str:
    return sep.join(face(c) for c in codes)


def suit_symbol(letter: str) -> str:
    return Suit(letter).symbol + EMOJI
