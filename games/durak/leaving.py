"""A player leaves a game that goes on without him (see
:meth:`~games.durak.engine.Durak.resign`): three or more in play, each for
himself.

A function over the engine's state; :meth:`Durak.resign` calls it only then.
"""

from __future__ import annotations

from games.core import Event
from games.durak.state import DurakState

__all__ = ["leave"]


def leave(game: DurakState, seat: int) -> list[Event]:
    """``seat``'s cards are set aside face down, out of play, and the round
    closes up; the bout goes on without him, or ends abandoned when it cannot
    (he defended, or he attacked against face-down covers)."""
    game._aside |= game._hands[seat]
    game._hands[seat] = 0
    game._known[seat] = 0
    game._out |= 1 << seat
    game._left.append(seat)
    game._passed &= ~(1 << seat)
    game._tm = None
    events = [Event("resign", seat)]
    if not game._att:  # a lead is due: from the next player if it was his
        game._start_bout(game._next_active(seat) if seat == game._attacker else game._apos)
    elif seat == game._defender or (game._face_down and seat == game._attacker):
        game._taking = False
        game._close(events, abandoned=True)
    elif game._taking or not game._unbeaten:
        game._maybe_close(events)  # he may have been the last one to throw in
    return events
