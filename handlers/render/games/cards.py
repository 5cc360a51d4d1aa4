"""Card faces for messages and buttons."""

from __future__ import annotations

from collections.abc import Iterable

from games.cards import Card, Suit

__all__ = ["face", "faces", "suit_symbol"]


def face(code: str) -> str:
    return Card.parse(code).face


def faces(codes: Iterable[str], sep: str = " ") -> str:
    return sep.join(face(c) for c in codes)


def suit_symbol(letter: str) -> str:
    return Suit(letter).symbol
