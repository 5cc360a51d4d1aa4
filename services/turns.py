"""Turns and absence: the turn timer's rules, as pure functions of a table, its
game and the time.

**A turn.** A seat's turn begins when the game starts waiting on it
(:meth:`games.core.Game.waits`) and goes on while the game still waits on it to
decide and nobody else has moved: moves the seat makes itself without losing
the move (101: a draw, then the play or the pass; a card that lets him move
again; Durak: a defender beating one attack card of several; Joker: a player
whose card takes the trick and who leads the next) stay within the turn, and
its deadline is not renewed.  A move by anybody else (a thrower's card, the
next player's) begins a new turn, with the full time, for every seat the game
then waits on.  No game waits on two seats' decisions at once.

**A timed-out turn.** When the deadline comes, the timer makes the seat's safe
default move, and goes on making them at once while the turn is still his, so
that one timeout plays out one whole turn.  A seat whose silence is consent (a
Durak thrower who may still throw in, "next round") passes, and that is no
timeout.

**Absence.** A timed-out turn marks the player away when he has pressed
nothing at the table since his previous timed-out turn or, at his first, since
the game was dealt.  So a player who never presses holds the table for one
turn's time, one who leaves mid-game for two of his turns, and one who is slow
but presses something between his timeouts is never marked away.  The seat
keeps the count in ``timeouts``: timed-out turns since the player last
pressed, where the deal counts as one (:data:`DEALT`).  Any press of his brings
him back.  An away seat is played by a computer (or he leaves the game, if the
table chose so): it has no deadline, since nobody waits for a person there.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.core import Game, Wait
from storage import LOBBY_SEAT, DeadlineRow, OnAbsence, SeatRow, Status, TableRow

__all__ = [
    "ABSENT_AFTER",
    "DEALT",
    "LOBBY_TIMEOUT",
    "WARN_AT",
    "Presence",
    "deadlines",
    "dealt",
    "may_keep_deadlines",
    "played_by_computer",
    "pressed",
    "timed_out",
    "turn_goes_on",
    "with_presence",
]

LOBBY_TIMEOUT = 30 * 60.0
"""A lobby nobody starts closes after this many seconds without a change."""
ABSENT_AFTER = 2
"""Timed-out turns without a press in between (the deal counting as one) that
mark a player away."""
DEALT = 1
"""A human seat's count at the deal: he has pressed nothing in this game yet."""
WARN_AT = 1 / 3
"""A player is warned when this share of his turn time is left."""


def played_by_computer(table: TableRow, seat: int) -> bool:
    """A computer moves this seat: a computer's own, or an away player's where
    the table lets a computer stand in."""
    row = table.seats[seat]
    return not row.is_human or (row.absent and table.on_absence is OnAbsence.COMPUTER)


def turn_goes_on(game: Game[Any, Any, Any, Any], seat: int) -> bool:
    """After ``seat``'s own move, it is still his turn: the game waits on him to
    decide again."""
    return game.waits().get(seat) is Wait.DECIDE


def may_keep_deadlines(table: TableRow, game: Game[Any, Any, Any, Any], mover: int | None) -> bool:
    """Some seat may keep the deadline it had (so :func:`deadlines` needs the
    running ones): nobody moved, or the mover's turn goes on and he has a clock."""
    return mover is None or (turn_goes_on(game, mover) and not played_by_computer(table, mover))


def deadlines(
    table: TableRow,
    game: Game[Any, Any, Any, Any] | None,
    now: float,
    *,
    before: Mapping[int, DeadlineRow] | None = None,
    mover: int | None = None,
) -> list[DeadlineRow]:
    """The deadlines a table has in the state it is now in.

    ``before`` are the deadlines it had; ``mover`` is the seat whose move
    brought it here (None: nobody moved, e.g. a player came back, and every
    seat still waited on keeps its deadline).  A seat still deciding after a
    move of its own keeps its deadline (the turn goes on, see the module's
    docstring); every other seat waited on gets the full time."""
    if table.status is Status.LOBBY:
        return [DeadlineRow(table.id, LOBBY_SEAT, now + LOBBY_TIMEOUT, None, False)]
    if table.status is not Status.PLAYING or game is None or not table.turn_seconds:
        return []
    turn = float(table.turn_seconds)
    kept = before or {}
    rows = []
    for seat, wait in sorted(game.waits().items()):
        if played_by_computer(table, seat):
            continue  # computers do not dawdle, and nobody waits for an away player
        consent = wait is Wait.CONSENT
        old = kept.get(seat)
        goes_on = mover is None or (mover == seat and not consent)
        if old is not None and old.consent == consent and goes_on:
            rows.append(old)
            continue
        warn_at = None if consent else now + turn * (1 - WARN_AT)
        rows.append(DeadlineRow(table.id, seat, now + turn, warn_at, consent))
    return rows


@dataclass(frozen=True, slots=True)
class Presence:
    """A seat's standing, as the deal, a press, a timed-out turn or ``/leave``
    leaves it."""

    timeouts: int
    absent: bool
    leaves: bool
    """He has just been marked away at a table where absentees leave the game."""


def dealt(row: SeatRow) -> Presence | None:
    """A seat's standing when its game is dealt: a person has pressed nothing in
    it yet (None: a computer's seat, which has no standing)."""
    return Presence(DEALT, False, False) if row.is_human else None


def pressed(row: SeatRow) -> Presence | None:
    """``row``'s player pressed something of his at the table: he is here, his
    count starts again (None: nothing to change)."""
    if not row.timeouts and not row.absent:
        return None
    return Presence(0, False, False)


def with_presence(table: TableRow, seat: int, presence: Presence) -> TableRow:
    """``table`` with ``seat``'s standing changed (as written to the database)."""
    seats = list(table.seats)
    seats[seat] = replace(seats[seat], timeouts=presence.timeouts, absent=presence.absent)
    return replace(table, seats=tuple(seats))


def gone(table: TableRow, removed: Collection[int]) -> frozenset[int]:
    """The seats whose people are no longer at the game: away (``/leave``, or
    timed out and never back), or out of it (``removed``: by /kick or for
    being away)."""
    return frozenset(s.seat for s in table.seats if s.absent or s.seat in removed)


def left(table: TableRow, row: SeatRow) -> Presence:
    """``row``'s player said he leaves the running game (``/leave``): he is
    away at once, as his timed-out turns would make him."""
    timeouts = max(row.timeouts, ABSENT_AFTER)
    leaves = not row.absent and table.on_absence is OnAbsence.REMOVE
    return Presence(timeouts, True, leaves)


def timed_out(table: TableRow, row: SeatRow) -> Presence:
    """``row``'s turn timed out (a decision, not a consent)."""
    timeouts = row.timeouts + 1
    absent = row.absent or timeouts >= ABSENT_AFTER
    leaves = absent and not row.absent and table.on_absence is OnAbsence.REMOVE
    return Presence(timeouts, absent, leaves)
