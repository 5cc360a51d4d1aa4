"""The Daytona engine: a match of races round a track of cards, to a target score.

The rules are in ``docs/rules/daytona.md``; views in :mod:`games.daytona.views`,
the saved state in :mod:`games.daytona.persistence`.

Positions
---------
A car's position is a number: ``0`` before the start/finish card (where cars
start), ``1`` on the start/finish card, ``2`` .. ``15`` on the track's cards in
driving order (``track[position - 2]``), ``16`` finished.  The card *ahead* of
a car is the start/finish card from 0, ``track[position - 1]`` from 1 to 14,
and the start/finish card again (the finish) from 15.

Phases
------
``draw``: the seat on move draws.  ``deuce``: he drew a deuce and says how it
counts.  ``race_over``: the race is scored; any player still in the match starts
the next one.  ``over``: the match is decided.

Events (by ``kind``): ``race`` (value = race number: a new track is laid),
``draw`` (seat, cards = the card drawn, shown to all), ``deuce`` (seat, value =
``"2"`` or ``"joker"``), ``forward`` / ``back`` / ``stay`` (seat, value = the
car's new position), ``pit`` (seat: his car stays, he misses two turns),
``wait`` (seat misses a turn in the pit, value = turns still to miss),
``finish`` (seat, value = place), ``reshuffle`` (value = cards drawn so far,
shuffled into a new stock), ``points`` (seat, value = points of the race),
``time_up`` (value = the turns each car had: the draw limit ended the race),
``tie`` (the top is shared at the target: another race), ``match_over`` (seat =
winner), ``resign`` (seat leaves the match).

The draw limit
--------------
A limit of *L* draws gives each car still in the match *L* // *cars* turns a
race (a turn missed in the pit counts).  The turns are counted in rounds: a
round starts each time the turn comes round to the race's first seat, whether
or not that seat still races.  When the last round is over the race ends, the
cars still racing placed by how near the finish they are, cars on the same
card sharing the better place (``docs/rules/daytona.md`` §4).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar, Self

from games.cards import Card, Rank, shoe
from games.core import Event, GamePackage, IllegalAction, Outcome, Wait, Zone
from games.daytona import persistence, views
from games.daytona.actions import (
    AS_JOKER,
    AS_TWO,
    DRAW,
    NEXT,
    DaytonaAction,
    Deuce,
    Draw,
    Next,
    decode,
)
from games.daytona.rules import DaytonaRules
from games.daytona.state import DaytonaState, DeuceAs, DrawMove, LastDraw, Phase
from games.daytona.track import (
    BEFORE_START,
    FINISHED,
    TRACK_CARDS,
    lay_out,
    value,
)
from games.daytona.views import DaytonaPublicView, DaytonaSeatView

__all__ = ["PLACE_POINTS", "Daytona", "Phase"]

PLACE_POINTS = (10, 5, 2, 0)
PIT_TURNS = 2


_MOVES = {1: DrawMove.FORWARD, -1: DrawMove.BACK, 0: DrawMove.STAY}
"""What a move does, by the sign of the change of position."""


class Daytona(GamePackage[DaytonaPublicView, DaytonaSeatView], DaytonaState):
    """A Daytona match.  See the module docstring."""

    key: ClassVar[str] = "daytona"
    FORMAT: ClassVar[int] = 2
    __slots__ = ()
    _VIEWS = views
    _PERSISTENCE = persistence
    # _track and _last are replaced, never changed in place
    _COPIED = (
        "_stock",
        "_drawn",
        "_positions",
        "_pits",
        "_finished",
        "_out",
        "_scores",
        "_points",
    )

    @classmethod
    def new(
        cls,
        rules: DaytonaRules,
        seats: int,
        rng: random.Random,
        *,
        previous: Outcome | None = None,
    ) -> Self:
        """Lay the first track.  The first race starts with the previous
        match's winner when ``previous`` names one among these seats, else
        with a seat drawn from ``rng``."""
        rules.validate()
        game = cls.__new__(cls)
        game._init(rules, seats, rng.getrandbits(64))
        first = rng.randrange(seats)  # drawn even when the winner starts: the same deals
        winner = None if previous is None else previous.sole_winner(seats)
        game._new_race(first if winner is None else winner, [])
        return game

    @classmethod
    def position(
        cls,
        rules: DaytonaRules,
        track: list[Card],
        start: Card,
        pit: Card,
        stock: list[Card],
        *,
        positions: list[int],
        turn: int = 0,
        pits: list[int] | None = None,
        scores: list[int] | None = None,
        finished: list[int] | None = None,
        round: int = 1,
        seed: int = 0,
    ) -> Self:
        """A race set up card by card, for tests: ``stock`` in the order the
        cards will be drawn; the rest of the two decks lies in the drawn pile
        (shuffled into a new stock when ``stock`` runs out).  The race is in
        its ``round``-th round of turns, started by ``turn``."""
        seats = len(positions)
        game = cls.__new__(cls)
        game._init(rules, seats, seed)
        if len(track) != TRACK_CARDS:
            raise ValueError(f"a track has {TRACK_CARDS} cards")
        rest = shoe()
        for card in [*track, start, pit, *stock]:
            rest.remove(card)
        game._race = 1
        game._track = tuple(track)
        game._start = start
        game._pit = pit
        game._stock = list(reversed(stock))
        game._drawn = rest
        game._positions = list(positions)
        game._pits = list(pits or [0] * seats)
        game._finished = list(finished or [])
        game._scores = list(scores or [0] * seats)
        game._turn = game._first = turn
        game._rounds = game._limit_rounds()
        game._round = round
        return game

    # ------------------------------------------------------------ the contract

    def waits(self) -> Mapping[int, Wait]:
        """The seat on move draws (or says how his deuce counts); after a race
        the players only let the next one come."""
        if self._phase is Phase.RACE_OVER:
            return dict.fromkeys(self.to_move(), Wait.CONSENT)
        return dict.fromkeys(self.to_move(), Wait.DECIDE)

    def legal_actions(self, seat: int) -> list[DaytonaAction]:
        if seat not in self.to_move():
            return []
        if self._phase is Phase.DRAW:
            return [DRAW]
        if self._phase is Phase.DEUCE:
            return [AS_TWO, AS_JOKER]
        return [NEXT]

    def default_action(self, seat: int) -> DaytonaAction:
        """Draw; a deuce counts as whatever takes the car further (as a 2 when
        both do the same); after a race, the next one."""
        if self._phase is Phase.OVER:
            raise IllegalAction("illegal.game_over")
        if seat not in self.to_move():
            raise IllegalAction("illegal.not_your_turn")
        if self._phase is Phase.DEUCE:
            return AS_JOKER if self.deuce_gain(seat) > 0 else AS_TWO
        return NEXT if self._phase is Phase.RACE_OVER else DRAW

    def deuce_gain(self, seat: int) -> int:
        """How much further the car gets with the deuce as a joker than as a 2."""
        at = self._positions[seat]
        return self._moved(at, None) - self._moved(at, 2)

    def apply(self, seat: int, action: DaytonaAction) -> list[Event]:
        phase = self._phase
        if phase is Phase.OVER:
            raise IllegalAction("illegal.game_over")
        if seat not in self.to_move():
            raise IllegalAction("illegal.not_your_turn")
        events: list[Event] = []
        if phase is Phase.RACE_OVER:
            if not isinstance(action, Next):
                raise IllegalAction("illegal.wrong_phase")
            self._new_race(self._next_active(self._first), events)
        elif phase is Phase.DRAW:
            if not isinstance(action, Draw):
                raise IllegalAction("illegal.wrong_phase")
            self._draw(seat, events)
        else:
            if not isinstance(action, Deuce):
                raise IllegalAction("illegal.wrong_phase")
            events.append(Event("deuce", seat=seat, value="joker" if action.joker else "2"))
            assert self._last is not None  # the draw of the deuce
            if action.joker:
                self._move(seat, self._last.card, DeuceAs.JOKER, None, events)
            else:
                self._move(seat, self._last.card, DeuceAs.TWO, 2, events)
        return events

    def resign(self, seat: int) -> list[Event]:
        """``seat`` leaves the match: his car leaves the race, he scores no
        more and is placed last.  With one player left the match is over."""
        if self._phase is Phase.OVER:
            raise IllegalAction("illegal.game_over")
        if not 0 <= seat < self._n or self._out[seat]:
            raise IllegalAction("illegal.not_in_game")
        self._out[seat] = True
        events = [Event("resign", seat=seat)]
        active = [s for s in range(self._n) if not self._out[s]]
        if len(active) == 1:
            self._phase = Phase.OVER
            events.append(Event("match_over", seat=active[0]))
            return events
        if self._phase is not Phase.RACE_OVER:
            racing = self._racing()
            if len(racing) <= 1:
                self._end_race(events)
            elif seat == self._turn:
                self._phase = Phase.DRAW
                self._pass_turn(seat, events)
        return events

    def determinize(self, observer: int, rng: random.Random) -> Self:
        """Only the stock's order is hidden: shuffle it, and re-seed what
        comes after."""
        if not 0 <= observer < self._n:
            raise IndexError(f"no seat {observer}")
        game = self.clone()
        game._stock.sort()  # what the observer knows decides the order, never the real one
        rng.shuffle(game._stock)
        game._seed = rng.getrandbits(64)
        game._shuffles = 0
        return game

    def zones(self) -> list[Zone]:
        drawn = self._drawn
        return [
            Zone("stock", tuple(self._stock), frozenset()),
            Zone("drawn", tuple(drawn[:-1]), frozenset(), remembered=True),
            Zone("last_drawn", tuple(drawn[-1:]), None),
            Zone("track", self._track, None),
            Zone("start", (self._start,), None),
            Zone("pit", (self._pit,), None),
        ]

    def known_cards(self, observer: int) -> dict[int, list[Card]]:
        """Nobody holds cards."""
        return {}

    @classmethod
    def decode_action(cls, text: str) -> DaytonaAction:
        return decode(text)

    # ------------------------------------------------------------------- moves

    def _rng(self) -> random.Random:
        rng = random.Random(self._seed + (self._shuffles << 64))
        self._shuffles += 1
        return rng

    def _new_race(self, first: int, events: list[Event]) -> None:
        self._race += 1
        layout = None
        while layout is None:
            cards = shoe()
            self._rng().shuffle(cards)
            layout = lay_out(cards, back_wins=self.rules.back_wins)
        self._track = tuple(layout.track)
        self._start = layout.start
        self._pit = layout.pit
        self._stock = cards
        self._drawn = []
        self._positions = [BEFORE_START] * self._n
        self._pits = [0] * self._n
        self._finished = []
        self._points = None
        self._last = None
        self._phase = Phase.DRAW
        self._first = self._turn = first
        self._round = 1
        self._rounds = self._limit_rounds()
        events.append(Event("race", seat=first, value=self._race))

    def _draw(self, seat: int, events: list[Event]) -> None:
        if not self._stock:
            pile = self._drawn
            self._drawn = []
            self._rng().shuffle(pile)
            self._stock = pile
            events.append(Event("reshuffle", value=len(pile)))
        card = self._stock.pop()
        self._drawn.append(card)
        events.append(Event("draw", seat=seat, cards=(card,)))
        at = self._positions[seat]
        if card.rank is Rank.TWO:
            self._phase = Phase.DEUCE
            self._last = LastDraw(seat, card, None, DrawMove.CHOOSE, at, None)
            return
        if card.is_joker:
            self._move(seat, card, None, None, events)
        elif value(card) == value(self._pit):
            self._pits[seat] = PIT_TURNS
            self._last = LastDraw(seat, card, None, DrawMove.PIT, at, at)
            events.append(Event("pit", seat=seat, value=PIT_TURNS))
            self._pass_turn(seat, events)
        else:
            self._move(seat, card, None, value(card), events)

    def _move(
        self,
        seat: int,
        card: Card,
        deuce: DeuceAs | None,
        drawn: int | None,
        events: list[Event],
    ) -> None:
        """Move ``seat``'s car for ``card``, which counts ``drawn`` (None: a
        joker; ``deuce``: how a deuce was chosen to count), then finish it, end
        the race or pass the turn."""
        self._phase = Phase.DRAW
        at = self._positions[seat]
        to = self._moved(at, drawn)
        self._positions[seat] = to
        kind = _MOVES[(to > at) - (to < at)]
        events.append(Event(kind.value, seat=seat, value=to))
        if to == FINISHED:
            kind = DrawMove.FINISH
        self._last = LastDraw(seat, card, deuce, kind, at, to)
        if to == FINISHED:
            self._finished.append(seat)
            events.append(Event("finish", seat=seat, value=len(self._finished)))
            if len(self._racing()) <= 1:
                self._end_race(events)
                return
        self._pass_turn(seat, events)

    def _pass_turn(self, seat: int, events: list[Event]) -> None:
        """To the next car still racing; a player in the pit misses his turn.
        Coming round to the race's first seat starts a new round, and past
        the draw limit's last round the race ends."""
        s = seat
        while True:
            s = (s + 1) % self._n
            if s == self._first:
                self._round += 1
                if self._rounds and self._round > self._rounds:
                    self._round = self._rounds
                    events.append(Event("time_up", value=self._rounds))
                    self._end_race(events)
                    return
            if self._out[s] or self._positions[s] == FINISHED:
                continue
            if self._pits[s]:
                self._pits[s] -= 1
                events.append(Event("wait", seat=s, value=self._pits[s]))
                continue
            self._turn = s
            return

    def _end_race(self, events: list[Event]) -> None:
        """Places: in the order the cars finished, then the cars still racing
        by how near the finish they are (one car, when the race runs its
        course; more, when the draw limit ends it), cars on the same card
        sharing the better place and the places after it kept for nobody
        (a dead heat); players who left the match score nothing."""
        racing = sorted(self._racing(), key=lambda s: -self._positions[s])
        points = [0] * self._n
        for s in self._finished:
            place = self._finished.index(s)
            points[s] = PLACE_POINTS[place] if place < len(PLACE_POINTS) else 0
        for s in racing:
            ahead = sum(self._positions[o] > self._positions[s] for o in racing)
            place = len(self._finished) + ahead
            points[s] = PLACE_POINTS[place] if place < len(PLACE_POINTS) else 0
        for s in [*self._finished, *racing]:
            self._scores[s] += points[s]
            events.append(Event("points", seat=s, value=points[s]))
        self._points = points
        self._phase = Phase.RACE_OVER
        active = [s for s in range(self._n) if not self._out[s]]
        top = max(self._scores[s] for s in active)
        if top < self.rules.target:
            return
        leaders = [s for s in active if self._scores[s] == top]
        if len(leaders) > 1:
            events.append(Event("tie", value=top))
            return
        self._phase = Phase.OVER
        events.append(Event("match_over", seat=leaders[0]))
