"""Perevodnoy with refusal (seed 003): when the attacker has just played his
last cards against the only other player left, that player may send them
back (a transfer onto the attacker), who must then take the table.

A function over the engine's state; :meth:`Durak._transfer` calls it only
under ``Transfers.REFUSAL`` when :meth:`DurakState._refusable` says so.
"""

from __future__ import annotations

from games.core import Event
from games.durak.actions import Transfer
from games.durak.state import NOBODY, DurakState

__all__ = ["refuse"]


def refuse(game: DurakState, seat: int, action: Transfer) -> list[Event]:
    """The cards go back to the attacker, who has none and must take the
    table; he is back in play (``seat`` has already given up the cards)."""
    a = game._attacker
    game._out &= ~(1 << a)
    game._bout_out.remove(a)
    for card in action.cards:
        game._att.append(card.order)
        game._dfn.append(NOBODY)
    game._unbeaten = len(game._att)
    game._attacker = game._apos = seat
    game._defender = game._dpos = a
    game._taking = True
    events = [Event("refuse", seat, action.cards, a)]
    game._close(events)
    return events
