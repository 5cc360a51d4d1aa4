"""101's state: every field of a match, and the queries that only read them.

:class:`~games.hundred_one.engine.HundredOne` moves the state;
:mod:`games.hundred_one.views`, :mod:`games.hundred_one.persistence` and
:mod:`games.hundred_one.positions` read and build it.  They depend on this
module, not on the engine, so the engine is the only module that imports them.
The phases are described in :mod:`games.hundred_one.engine`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from games.cards import Card, Rank, Suit
from games.core import Game, Outcome, RulesError, View, Zone
from games.hundred_one.actions import HundredOneAction
from games.hundred_one.effects import Effect, effects, master_rank
from games.hundred_one.rules import AceMode, HundredOneRules, seat_range

__all__ = ["ROUND_MOVES", "HundredOneState", "LastRound", "Phase"]

ROUND_MOVES = 1_000
"""A round still under way after so many moves is blocked (see the docs, "a
round too long"): far more than people play in a round, so it ends the ones
that go round, which no rule of the seed ends."""


class Phase(enum.Enum):
    """What the match waits for."""

    PLAY = "play"
    """The seat on move lays a card, draws or passes."""
    ORDER = "order"
    """The seat on move has laid a master card (or, in English durak, a card
    of an ace's suit on the ace) and orders a suit."""
    ROUND_OVER = "round_over"
    """The round is scored; any remaining player deals the next one."""
    OVER = "over"
    """The match is decided."""


@dataclass(frozen=True, slots=True)
class LastRound(View):
    """A scored round (the last one, and each of the match's on its sheet):
    kept by the state as it is shown (it is never changed, so views and
    copies share it)."""

    winner: int
    penalties: tuple[int | None, ...]
    """Per seat; None: not in that round; the winner's entry is his bonus (<= 0)."""
    doubled: bool
    """Jack variant: he finished on a jack."""
    blocked: bool
    """The round was blocked (see the docs); the winner is then the lowest hand."""
    reset: tuple[int, ...]
    """Seats whose total hit the ceiling exactly (set to 0)."""
    eliminated: tuple[int, ...]
    """Seats eliminated by that round."""
    too_long: bool = False
    """It was blocked for lasting :data:`ROUND_MOVES` moves."""
    round: int = 0
    """The round's number (0: scored before rounds were numbered here)."""
    totals: tuple[int, ...] = ()
    """Every seat's total after it, resets done (empty: scored before the
    totals were kept here)."""


class HundredOneState(Game[HundredOneRules, HundredOneAction, Any, Any]):
    """The data half of :class:`~games.hundred_one.engine.HundredOne`
    (abstract: the engine gives the moves; the views it shows are in
    :mod:`games.hundred_one.views`, which imports this module)."""

    __slots__ = (
        "_after",
        "_answer",
        "_discard",
        "_english",
        "_excl",
        "_follow",
        "_forced",
        "_fx",
        "_hands",
        "_last",
        "_last_winner",
        "_leader",
        "_master",
        "_n",
        "_ordered",
        "_out",
        "_phase",
        "_resigned",
        "_round",
        "_round_moves",
        "_rounds",
        "_seed",
        "_shuffles",
        "_stock",
        "_totals",
        "_turn",
        "_turned",
        "_zc",
        "rules",
    )

    rules: HundredOneRules
    _n: int
    _seed: int
    _shuffles: int
    _round: int
    _phase: Phase
    _turn: int
    _leader: int
    _hands: list[list[Card]]
    _stock: list[Card]  # the last card is drawn first
    _discard: list[Card]  # the last card is the top
    _ordered: Suit | None
    _excl: Suit | None
    _follow: Suit | None
    _answer: bool
    _after: tuple[int, bool, bool]
    _totals: list[int]
    _out: list[int]  # round of elimination, 0 while in the match
    _resigned: list[tuple[int, bool]]  # (seat, after the round's scoring), in order
    _last: LastRound | None
    _rounds: tuple[LastRound, ...]  # every scored round, in order (the sheet)
    _last_winner: int
    _forced: list[int]  # positions since the last free choice (see _note_renewal)
    _round_moves: int  # moves made in the round under way (see ROUND_MOVES)
    _turned: int  # during apply(): _TURNED_ONE / _TURNED_MANY bits of stock renewals
    _fx: dict[Card, Effect]
    _master: Rank
    _english: bool
    _zc: list[Zone] | None  # zones() of the current state, dropped on every change

    def _init(self, rules: HundredOneRules, seats: int, seed: int) -> None:
        """Every field, for a match with nothing dealt yet."""
        if seats not in seat_range(rules):
            raise RulesError(f"101 with these rules takes {seat_range(rules)} players")
        self.rules = rules
        self._n = seats
        self._seed = seed
        self._shuffles = 0
        self._round = 1
        self._phase = Phase.PLAY
        self._turn = 0
        self._leader = 0
        self._hands = [[] for _ in range(seats)]
        self._stock = []
        self._discard = []
        self._ordered = None
        self._excl = None
        self._follow = None
        self._answer = False
        self._after = (0, False, False)
        self._totals = [0] * seats
        self._out = [0] * seats
        self._resigned = []
        self._last = None
        self._rounds = ()
        self._last_winner = 0
        self._forced = []
        self._round_moves = 0
        self._turned = 0
        self._prepare()

    def _prepare(self) -> None:
        self._zc = None
        self._fx = effects(self.rules)
        self._master = master_rank(self.rules)
        self._english = self.rules.ace is AceMode.ENGLISH

    @property
    def seats(self) -> int:
        return self._n

    def to_move(self) -> frozenset[int]:
        phase = self._phase
        if phase is Phase.PLAY or phase is Phase.ORDER:
            return frozenset((self._turn,))
        if phase is Phase.ROUND_OVER:
            return frozenset(s for s in range(self._n) if not self._out[s])
        return frozenset()

    def outcome(self) -> Outcome | None:
        if self._phase is not Phase.OVER:
            return None
        winner = next(s for s in range(self._n) if not self._out[s])
        when = self._gone()
        totals = self._totals
        gone = sorted(when, key=lambda s: (-when[s][0], -when[s][1], -when[s][2], totals[s]))
        places: list[tuple[int, ...]] = [(winner,)]
        previous: tuple[tuple[int, int, int], int] | None = None
        for s in gone:
            key = (when[s], totals[s])
            if key == previous:
                places[-1] = (*places[-1], s)
            else:
                places.append((s,))
            previous = key
        first_out = min(when.values())
        return Outcome(
            places=tuple(places),
            winners=frozenset((winner,)),
            losers=frozenset(s for s in gone if when[s] == first_out),
            scores=tuple(totals),
        )

    def _gone(self) -> dict[int, tuple[int, int, int]]:
        """When each eliminated seat left the match, earliest smallest: the
        round, then 0 resigned during it / 1 eliminated by its score / 2
        resigned after its scoring, then the order of resigning."""
        out = self._out
        when = {s: (out[s], 1, 0) for s in range(self._n) if out[s]}
        for i, (s, scored) in enumerate(self._resigned):
            when[s] = (out[s], 2 if scored else 0, i)
        return when

    # ---------------------------------------------------------------- queries

    def _next(self, seat: int) -> int:
        """The next seat clockwise still in the match."""
        n = self._n
        out = self._out
        s = (seat + 1) % n
        while out[s]:
            s = (s + 1) % n
        return s

    def _drawable(self, seat: int) -> bool:
        """Whether ``seat`` could draw a card now (see :meth:`_take`)."""
        return bool(self._stock) or len(self._discard) > 1

    def _fits(self, card: Card) -> bool:
        """Whether ``card`` may be laid in an ordinary turn now."""
        discard = self._discard
        if not discard:
            return True
        if card.rank is self._master:
            return True
        if self._ordered is not None:
            return card.suit is self._ordered
        top = discard[-1]
        if top.rank is Rank.QUEEN and self._master is Rank.JACK:
            return card.rank is Rank.KING and card.suit is top.suit
        if card.suit is top.suit:
            return True
        if self.rules.suit_only:
            return top.rank is Rank.SIX and card.rank is Rank.SIX
        return card.rank is top.rank

    def _allowed(self, card: Card) -> bool:
        if self._answer:
            return card.rank is Rank.ACE
        if self._follow is not None:
            return card.suit is self._follow
        return self._fits(card)

    def _playable(self) -> list[Card]:
        hand = self._hands[self._turn]
        if self._answer:
            return [c for c in hand if c.rank is Rank.ACE]
        follow = self._follow
        if follow is not None:
            return [c for c in hand if c.suit is follow]
        return [c for c in hand if self._fits(c)]
