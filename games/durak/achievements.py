"""Durak's achievements, read from a finished game and its moves.

- ``pogony`` (погоны): the durak is left holding exactly two sixes, which the
  table traditionally "pins on his shoulders".
- ``dry`` (сухим из воды): first out of a game of three or more, never having
  taken a card.
- ``transfer_ring`` (перевод по кругу): at a table of three or more, one
  attack was transferred by every other player in turn until it came back to
  the one who led it; the player who closed the ring gets it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.cards import Rank
from games.durak.state import DurakState

__all__ = ["achievements"]

_LEAD, _TAKE, _TRANSFER = "a", "k", "x"


def achievements(
    game: DurakState, moves: Sequence[tuple[int, str]]
) -> Mapping[int, tuple[str, ...]]:
    found: dict[int, list[str]] = {}
    outcome = game.outcome()
    if outcome is not None and not outcome.draw:
        if len(outcome.losers) == 1:
            (durak,) = outcome.losers
            hand = game.hand(durak)
            if len(hand) == 2 and all(card.rank is Rank.SIX for card in hand):
                found.setdefault(durak, []).append("pogony")
        first = outcome.places[0]
        if game.seats >= 3 and len(first) == 1 and not game.rules.teams:
            (winner,) = first
            if not any(seat == winner and code == _TAKE for seat, code in moves):
                found.setdefault(winner, []).append("dry")
    transfers = 0
    for seat, code in moves:
        if code.startswith(_LEAD):
            transfers = 0
        elif code.startswith(_TRANSFER):
            transfers += 1
            if game.seats >= 3 and transfers == game.seats - 1:
                found.setdefault(seat, []).append("transfer_ring")
    return {seat: tuple(dict.fromkeys(codes)) for seat, codes in found.items()}
