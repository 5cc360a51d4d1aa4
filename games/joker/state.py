"""Joker's state: every field of a game, and the queries that only read them.

:class:`~games.joker.engine.Joker` moves the state; :mod:`games.joker.views`
and :mod:`games.joker.persistence` read and build it.  They depend on this
module, not on the engine, so the engine is the only module that imports them.
The phases are described in :mod:`games.joker.engine`.
"""

from __future__ import annotations

import enum
from typing import Any

from games.core import Game, Outcome, RulesError
from games.joker.actions import JokerAction
from games.joker.cards import FACE_BIT
from games.joker.rules import JokerRules, schedule, seat_range
from games.joker.scoring import PulkaRecord, SheetRow

__all__ = [
    "FACE",
    "FOLLOW_HIGH",
    "FOLLOW_LOW",
    "LEAD_HIGH",
    "LEAD_TAKES",
    "NOBODY",
    "NORMAL",
    "NO_TRUMP",
    "ONLY",
    "JokerState",
    "Phase",
]

NO_TRUMP = -1
"""``_trump`` of a deal played without trumps."""
ONLY = tuple(frozenset((s,)) for s in range(4))
"""``ONLY[seat]``: the ``to_move()`` of a game waiting on that seat alone."""
NOBODY: frozenset[int] = frozenset()
NORMAL, LEAD_HIGH, LEAD_TAKES, FOLLOW_HIGH, FOLLOW_LOW, FACE = range(6)
"""How a card was played: an ordinary card, a joker's declaration, or a joker
at face value (as the six it replaces, ``FACE_BIT``)."""


class Phase(enum.Enum):
    """What the game waits for; the value is the name views and dumps use."""

    DEAL = "deal"
    TRUMP = "trump"
    BID = "bid"
    PLAY = "play"
    OVER = "over"


_OVER = Phase.OVER
"""``Phase.OVER`` as a global for :meth:`JokerState.outcome`, asked after
every move: Python 3.11 looks up an enum class's attributes slowly."""


class JokerState(Game[JokerRules, JokerAction, Any, Any]):
    """The data half of :class:`~games.joker.engine.Joker` (abstract: the
    engine gives the moves; it names the view types, which this module cannot
    import)."""

    __slots__ = (
        "_bids",
        "_cards",
        "_chooser",
        "_deal",
        "_dealer",
        "_done",
        "_draw",
        "_hands",
        "_lead_high",
        "_lead_suit",
        "_n",
        "_phase",
        "_pulka_of",
        "_pulkas",
        "_resigned",
        "_rows",
        "_seed",
        "_stock",
        "_taken",
        "_tm",
        "_totals",
        "_trick",
        "_tricks",
        "_trump",
        "_trump_card",
        "_turn",
        "_void",
        "rules",
    )

    rules: JokerRules
    _n: int
    _seed: int
    _cards: tuple[int, ...]  # cards per hand, deal by deal
    _pulka_of: tuple[int, ...]  # pulka index, deal by deal
    _deal: int  # the deal being played (in the deal phase: the next one)
    _phase: Phase
    _dealer: int
    _turn: int
    _hands: list[int]
    _stock: list[int]  # undealt cards; the next one dealt is the last
    _trump: int  # suit index, NO_TRUMP
    _trump_card: int  # the turned card's bit, -1 when none was turned
    _chooser: int  # who names the trump in the trump phase, else -1
    _bids: list[int]  # -1: not yet
    _tricks: list[int]
    _trick: list[tuple[int, int, int, int]]  # (seat, card bit, mode, declared suit or -1)
    _done: bool  # the trick on the table is complete (waits for the next lead)
    _lead_suit: int
    _lead_high: bool
    _taken: int  # the tricks taken this deal, face down
    _void: list[int]  # per seat, bits of the suits he has shown he lacks
    _draw: list[tuple[int, int]]  # the first-dealer draw: (seat, card bit); seat -1: the middle
    # The score sheet, a row per deal played, and a record per finished pulka:
    # tuples of frozen rows, replaced by a longer tuple, never changed, so
    # clones and views share them.
    _rows: tuple[SheetRow, ...]
    _pulkas: tuple[PulkaRecord, ...]
    _totals: list[int]
    _resigned: int
    _tm: frozenset[int]

    def _init(self, rules: JokerRules, seats: int, seed: int) -> None:
        """Every field, for a game with nothing dealt yet."""
        if seats not in seat_range(rules):
            raise RulesError(f"joker is played by {seat_range(rules)} players, not {seats}")
        self.rules = rules
        self._n = seats
        self._seed = seed
        plan = schedule(rules.deals)
        self._cards = tuple(c for pulka in plan for c in pulka)
        self._pulka_of = tuple(p for p, pulka in enumerate(plan) for _ in pulka)
        self._deal = 0
        self._phase = Phase.DEAL
        self._dealer = 0
        self._turn = 0
        self._hands = [0] * seats
        self._stock = []
        self._trump = NO_TRUMP
        self._trump_card = -1
        self._chooser = -1
        self._bids = [-1] * seats
        self._tricks = [0] * seats
        self._trick = []
        self._done = False
        self._lead_suit = -1
        self._lead_high = False
        self._taken = 0
        self._void = [0] * seats
        self._draw = []
        self._rows = ()
        self._pulkas = ()
        self._totals = [0] * seats
        self._resigned = -1
        self._tm = NOBODY

    @property
    def seats(self) -> int:
        return self._n

    def to_move(self) -> frozenset[int]:
        return self._tm

    def forbidden_bid(self) -> int | None:
        """The bid the dealer may not make now (None outside his bid)."""
        if self._phase is not Phase.BID or self._turn != self._dealer:
            return None
        cards = self._cards[self._deal]
        forbidden = cards - sum(b for s, b in enumerate(self._bids) if s != self._dealer and b > 0)
        return forbidden if 0 <= forbidden <= cards else None

    def trick_taker(self) -> int:
        """Who takes the complete trick on the table (the engine, as it is
        complete; the views, while it stays shown, even after the deal's end
        has passed the turn to the next dealer)."""
        trick = self._trick
        high = [e for e in trick if e[2] == FOLLOW_HIGH]
        if high:
            if trick[0][2] == LEAD_HIGH:
                high.insert(0, trick[0])
            return (high[0] if self.rules.first_joker_wins else high[-1])[0]
        if any(e[2] == FACE for e in trick):  # a joker at face value is its six
            trick = [(e[0], FACE_BIT[e[1]], NORMAL, -1) if e[2] == FACE else e for e in trick]
        trump = self._trump
        best_trump = -1
        winner = -1
        if trump >= 0:
            lo, hi = trump * 9, trump * 9 + 9
            for seat, bit, _, _ in trick:
                if lo <= bit < hi and bit > best_trump:
                    best_trump, winner = bit, seat
        lead = trick[0]
        if lead[2] == LEAD_HIGH:
            if winner >= 0 and lead[3] != trump:
                return winner
            return lead[0]
        if winner >= 0:
            return winner
        led = self._lead_suit
        lo, hi = led * 9, led * 9 + 9
        best = -1
        winner = lead[0]  # a joker led as "takes" wins if nobody follows its suit
        for seat, bit, _, _ in trick:
            if lo <= bit < hi and bit > best:
                best, winner = bit, seat
        return winner

    def outcome(self) -> Outcome | None:
        if self._phase is not _OVER:
            return None
        totals = self._totals
        playing = [s for s in range(self._n) if s != self._resigned]
        ranked = sorted(playing, key=lambda s: (-totals[s], s))
        places: list[tuple[int, ...]] = []
        for s in ranked:
            if places and totals[places[-1][0]] == totals[s]:
                places[-1] = (*places[-1], s)
            else:
                places.append((s,))
        if self._resigned >= 0:
            places.append((self._resigned,))
        winners = frozenset(places[0])
        losers = frozenset(places[-1]) if len(places) > 1 else frozenset()
        return Outcome(
            places=tuple(places),
            winners=winners,
            losers=losers,
            draw=len(places) == 1,
            scores=tuple(totals),
        )
