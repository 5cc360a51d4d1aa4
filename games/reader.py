"""One validating reader for the engines' saved states.

A state comes back from the database (or from a file someone edited), so every
value is checked before an engine trusts it: each helper takes the raw JSON
value and the key it came from, and raises :class:`StateFormatError` naming
that key.  :func:`read_state` checks the game and format and turns any other
slip (a missing key, a wrong type deep inside) into the same error.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from games.cards import Card, CardParseError, Suit
from games.core import JSON, Game, RulesError, StateFormatError, check_format

__all__ = [
    "array",
    "boolean",
    "card",
    "cards",
    "choice",
    "integer",
    "integers",
    "read_state",
    "suit",
]

G = TypeVar("G", bound=Game[Any, Any, Any, Any])
E = TypeVar("E", bound=enum.Enum)


def read_state(cls: type[G], data: Mapping[str, JSON], read: Callable[[], G]) -> G:
    """``read()`` the state ``data`` of game ``cls``, every failure a
    :class:`StateFormatError`."""
    check_format(cls, data)
    try:
        return read()
    except StateFormatError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, CardParseError, RulesError) as exc:
        raise StateFormatError(f"bad {cls.key} state: {exc!r}") from exc


def boolean(value: JSON, key: str) -> bool:
    if not isinstance(value, bool):
        raise StateFormatError(f"{key}: expected a boolean")
    return value


def integer(value: JSON, key: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise StateFormatError(f"{key}: expected an integer in {lo}..{hi}")
    return value


def array(value: JSON, key: str, length: int | None = None) -> list[JSON]:
    if not isinstance(value, list):
        raise StateFormatError(f"{key}: expected a list")
    if length is not None and len(value) != length:
        raise StateFormatError(f"{key}: expected {length} entries")
    return value


def integers(value: JSON, key: str, lo: int, hi: int, length: int | None = None) -> list[int]:
    return [integer(v, key, lo, hi) for v in array(value, key, length)]


def card(value: JSON, key: str) -> Card:
    if not isinstance(value, str):
        raise StateFormatError(f"{key}: expected a card code")
    return Card.parse(value)


def cards(value: JSON, key: str) -> list[Card]:
    return [card(code, key) for code in array(value, key)]


def suit(value: JSON, key: str) -> Suit | None:
    """A suit letter, or None."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise StateFormatError(f"{key}: expected a suit letter")
    return Suit(value)


def choice(value: JSON, key: str, kind: type[E]) -> E:
    """A member of the enum ``kind``, by its value."""
    try:
        return kind(value)
    except ValueError:
        raise StateFormatError(f"{key}: {value!r} is not a {kind.__name__}") from None
