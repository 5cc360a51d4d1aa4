"""Daytona's state: every field of a match, and the queries that only read them.

:class:`~games.daytona.engine.Daytona` moves the state;
:mod:`games.daytona.views` and :mod:`games.daytona.persistence` read and build
it.  They depend on this module, not on the engine, so the engine is the only
module that imports them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from games.cards import Card
from games.core import Game, Outcome, RulesError, View
from games.daytona.actions import DaytonaAction
from games.daytona.rules import DaytonaRules, seat_range
from games.daytona.track import BEFORE_START, FINISHED, LAST_CARD, ON_START, moved, value

__all__ = ["DaytonaState", "DeuceAs", "DrawMove", "LastDraw", "Phase"]


class Phase(enum.Enum):
    """What the match waits for (see :mod:`games.daytona.engine`)."""

    DRAW = "draw"
    DEUCE = "deuce"
    RACE_OVER = "race_over"
    OVER = "over"


class DrawMove(enum.Enum):
    """What the last draw did to the car."""

    CHOOSE = "choose"
    """A deuce: its player is choosing how it counts."""
    FORWARD = "forward"
    BACK = "back"
    STAY = "stay"
    PIT = "pit"
    """The pit stop's value: the car stays and misses turns."""
    FINISH = "finish"


class DeuceAs(enum.Enum):
    """How a deuce counted."""

    TWO = "two"
    JOKER = "joker"


@dataclass(frozen=True, slots=True)
class LastDraw(View):
    """The last draw and what it did: kept by the state as it is shown (it is
    never changed, so views and copies share it)."""

    seat: int
    """Who drew."""
    card: Card
    """What he drew (the drawn pile's top)."""
    counted_as: DeuceAs | None
    """A deuce once chosen: how it counted (None: not a deuce, or not yet)."""
    move: DrawMove
    before: int
    """The car's position before the draw."""
    after: int | None
    """Its position after (None while the deuce is being chosen)."""


class DaytonaState(Game[DaytonaRules, DaytonaAction, Any, Any]):
    """The data half of :class:`~games.daytona.engine.Daytona` (abstract: the
    engine gives the moves; the views it shows are in
    :mod:`games.daytona.views`, which imports this module)."""

    __slots__ = (
        "_drawn",
        "_finished",
        "_first",
        "_last",
        "_n",
        "_out",
        "_phase",
        "_pit",
        "_pits",
        "_points",
        "_positions",
        "_race",
        "_round",
        "_rounds",
        "_scores",
        "_seed",
        "_shuffles",
        "_start",
        "_stock",
        "_track",
        "_turn",
        "rules",
    )

    rules: DaytonaRules
    _n: int
    _seed: int
    _shuffles: int
    _race: int
    _phase: Phase
    _track: tuple[Card, ...]
    _start: Card
    _pit: Card
    _stock: list[Card]  # the last card is drawn first
    _drawn: list[Card]  # drawn this race, the last one on top
    _positions: list[int]
    _pits: list[int]  # turns each seat still misses in the pit
    _finished: list[int]  # seats in the order they finished this race
    _out: list[bool]  # left the match
    _turn: int
    _first: int  # who moved first this race
    _round: int  # the round of turns under way this race, from 1
    _rounds: int  # rounds this race may last under the draw limit (0: no limit)
    _scores: list[int]
    _points: list[int] | None  # the last race's points per seat
    _last: LastDraw | None

    def _init(self, rules: DaytonaRules, seats: int, seed: int) -> None:
        """Every field, for a match with no track laid yet."""
        if seats not in seat_range(rules):
            raise RulesError(f"Daytona takes {seat_range(rules)} players")
        self.rules = rules
        self._n = seats
        self._seed = seed
        self._shuffles = 0
        self._race = 0
        self._phase = Phase.DRAW
        self._track = ()
        self._stock = []
        self._drawn = []
        self._positions = [BEFORE_START] * seats
        self._pits = [0] * seats
        self._finished = []
        self._out = [False] * seats
        self._turn = 0
        self._first = 0
        self._round = 1
        self._rounds = 0
        self._scores = [0] * seats
        self._points = None
        self._last = None

    @property
    def seats(self) -> int:
        return self._n

    def to_move(self) -> frozenset[int]:
        if self._phase is Phase.RACE_OVER:
            return frozenset(s for s in range(self._n) if not self._out[s])
        if self._phase is Phase.OVER:
            return frozenset()
        return frozenset((self._turn,))

    def outcome(self) -> Outcome | None:
        if self._phase is not Phase.OVER:
            return None
        active = [s for s in range(self._n) if not self._out[s]]
        gone = [s for s in range(self._n) if self._out[s]]
        ranked = sorted(active, key=lambda s: -self._scores[s])
        places: list[tuple[int, ...]] = []
        for s in ranked:
            if places and self._scores[places[-1][0]] == self._scores[s]:
                places[-1] = (*places[-1], s)
            else:
                places.append((s,))
        if gone:
            places.append(tuple(gone))
        winners = frozenset(places[0])
        losers = frozenset(places[-1]) if len(places) > 1 else frozenset()
        return Outcome(
            places=tuple(places),
            winners=winners,
            losers=losers,
            scores=tuple(self._scores),
        )

    # ----------------------------------------------------------------- queries

    def ahead(self, position: int) -> Card | None:
        """The card a car at ``position`` moves onto next (None: finished)."""
        if position in (BEFORE_START, LAST_CARD):
            return self._start
        if position >= FINISHED:
            return None
        return self._track[position - 1]

    def under(self, position: int) -> Card | None:
        """The card a car at ``position`` stands on (None: before the start, or
        finished)."""
        if position == ON_START:
            return self._start
        if ON_START < position < FINISHED:
            return self._track[position - 2]
        return None

    def _moved(self, at: int, drawn: int | None) -> int:
        """Where a car at ``at`` goes with a drawn value (None: a joker)."""
        track = [value(c) for c in self._track]
        return moved(track, value(self._start), at, drawn, back_wins=self.rules.back_wins)

    def _racing(self) -> list[int]:
        """Seats whose cars are still on the track."""
        return [s for s in range(self._n) if not self._out[s] and self._positions[s] != FINISHED]

    def _limit_rounds(self) -> int:
        """Rounds of turns a race may last: the draw limit shared among the
        cars that start it (0: no limit)."""
        cars = sum(not out for out in self._out)
        return self.rules.draw_limit.draws // cars

    def _next_active(self, seat: int) -> int:
        s = (seat + 1) % self._n
        while self._out[s]:
            s = (s + 1) % self._n
        return s
