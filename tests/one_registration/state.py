"""High card's state: every field of a game, and the queries that only read
them.  :class:`~tests.one_registration.engine.HighCard` moves it;
:mod:`~tests.one_registration.views` and
:mod:`~tests.one_registration.persistence` read and build it."""

from __future__ import annotations

import enum

from games.cards import Card
from games.core import Game, Outcome, RulesError
from tests.one_registration.actions import Play
from tests.one_registration.rules import HighCardRules, seat_range

__all__ = ["HighCardState", "Phase"]

DECK = 36


class Phase(enum.Enum):
    PLAY = "play"
    OVER = "over"


class HighCardState(Game[HighCardRules, Play, object, object]):
    """The data half of the engine (abstract: the engine gives the moves)."""

    __slots__ = (
        "_hands",
        "_leader",
        "_out",
        "_phase",
        "_pile",
        "_resigned",
        "_scores",
        "_stock",
        "_taken",
        "_trick",
        "_turn",
        "rules",
    )

    rules: HighCardRules
    _phase: Phase
    _hands: list[list[Card]]
    _stock: list[Card]  # the last card is drawn first
    _trick: list[tuple[int, Card]]  # (seat, card) in the order played
    _taken: int | None  # who took the trick still on the table (None: it is under way)
    _pile: list[Card]  # tricks taken, face down: everybody saw each card played
    _resigned: list[Card]  # hands of players who left, face down, never seen
    _out: list[bool]
    _scores: list[int]
    _leader: int
    _turn: int

    def _init(self, rules: HighCardRules, seats: int) -> None:
        if seats not in seat_range(rules):
            raise RulesError(f"High card takes {seat_range(rules)} players")
        self.rules = rules
        self._phase = Phase.PLAY
        self._hands = [[] for _ in range(seats)]
        self._stock = []
        self._trick = []
        self._taken = None
        self._pile = []
        self._resigned = []
        self._out = [False] * seats
        self._scores = [0] * seats
        self._leader = 0
        self._turn = 0

    @property
    def seats(self) -> int:
        return len(self._hands)

    def to_move(self) -> frozenset[int]:
        return frozenset() if self._phase is Phase.OVER else frozenset((self._turn,))

    def outcome(self) -> Outcome | None:
        if self._phase is not Phase.OVER:
            return None
        active = sorted(self._active(), key=lambda s: -self._scores[s])
        places: list[tuple[int, ...]] = []
        for s in active:
            if places and self._scores[places[-1][0]] == self._scores[s]:
                places[-1] = (*places[-1], s)
            else:
                places.append((s,))
        gone = tuple(s for s in range(self.seats) if self._out[s])
        if gone:
            places.append(gone)
        losers = frozenset(places[-1]) if len(places) > 1 else frozenset()
        return Outcome(tuple(places), frozenset(places[0]), losers, scores=tuple(self._scores))

    def _active(self) -> list[int]:
        return [s for s in range(self.seats) if not self._out[s]]

    def _next_active(self, seat: int) -> int:
        s = (seat + 1) % self.seats
        while self._out[s]:
            s = (s + 1) % self.seats
        return s
