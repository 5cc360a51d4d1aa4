"""The High card engine: a trick game for two to four players, 36 cards.

Each player holds a hand (three or five cards); the rest is the stock, face
down.  The leader plays any card, then each other player in turn; the highest
rank takes the trick (of equal ranks the one played first), a point for its
taker, who leads the next.  After each trick the players draw a card each,
the taker first, while the stock has one for everybody (what is left stays
in it, unseen).  A trick taken stays face up on the table until the next card
is played, so that everybody sees the card that completed it.  When the hands
are empty the most points win.  A player who leaves is placed last; his hand
goes face down out of the game, and a card he played into the trick under way
takes nothing.

Events: ``play`` (seat, cards = the card), ``trick`` (seat = taker, cards =
the trick), ``draw`` (value = cards each player drew), ``over``, ``resign``
(seat).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar, Self

from games.cards import Card, deck
from games.core import Event, GamePackage, IllegalAction, Outcome, Wait, Zone
from tests.one_registration import persistence, views
from tests.one_registration.actions import Play, decode
from tests.one_registration.rules import HighCardRules
from tests.one_registration.state import DECK, HighCardState, Phase
from tests.one_registration.views import HighCardSeat, HighCardTable

__all__ = ["HighCard"]


class HighCard(GamePackage[HighCardTable, HighCardSeat], HighCardState):
    key: ClassVar[str] = "highcard"
    FORMAT: ClassVar[int] = 1
    __slots__ = ()
    _VIEWS = views
    _PERSISTENCE = persistence
    _COPIED = ("_stock", "_trick", "_pile", "_resigned", "_out", "_scores")
    _COPIED_TWICE = ("_hands",)

    @classmethod
    def new(
        cls,
        rules: HighCardRules,
        seats: int,
        rng: random.Random,
        *,
        previous: Outcome | None = None,
    ) -> Self:
        """Deal; the previous game's single winner leads, else a seat drawn
        from ``rng``."""
        rules.validate()
        game = cls.__new__(cls)
        game._init(rules, seats)
        cards = deck(DECK)
        rng.shuffle(cards)
        for seat in range(seats):
            game._hands[seat] = sorted(cards[seat * rules.hand : (seat + 1) * rules.hand])
        game._stock = cards[seats * rules.hand :]
        first = rng.randrange(seats)
        if previous is not None and len(previous.winners) == 1:
            (winner,) = previous.winners
            first = winner if 0 <= winner < seats else first
        game._leader = game._turn = first
        return game

    def waits(self) -> Mapping[int, Wait]:
        return dict.fromkeys(self.to_move(), Wait.DECIDE)

    def legal_actions(self, seat: int) -> list[Play]:
        if seat not in self.to_move():
            return []
        return [Play(card) for card in self._hands[seat]]

    def default_action(self, seat: int) -> Play:
        """The lowest card."""
        if self._phase is Phase.OVER:
            raise IllegalAction("illegal.game_over")
        if seat not in self.to_move():
            raise IllegalAction("illegal.not_your_turn")
        return Play(min(self._hands[seat]))

    def apply(self, seat: int, action: Play) -> list[Event]:
        if self._phase is Phase.OVER:
            raise IllegalAction("illegal.game_over")
        if seat not in self.to_move():
            raise IllegalAction("illegal.not_your_turn")
        if not isinstance(action, Play) or action.card not in self._hands[seat]:
            raise IllegalAction("illegal.not_in_hand")
        self._clear_taken()
        self._hands[seat].remove(action.card)
        self._trick.append((seat, action.card))
        events = [Event("play", seat=seat, cards=(action.card,))]
        self._go_on(seat, events)
        return events

    def resign(self, seat: int) -> list[Event]:
        if self._phase is Phase.OVER:
            raise IllegalAction("illegal.game_over")
        if not 0 <= seat < self.seats or self._out[seat]:
            raise IllegalAction("illegal.not_in_game")
        self._clear_taken()
        self._out[seat] = True
        self._resigned += self._hands[seat]
        self._hands[seat] = []
        events = [Event("resign", seat=seat)]
        if len(self._active()) == 1:
            self._end(events)
        elif seat == self._turn:
            self._go_on(seat, events)
        return events

    def determinize(self, observer: int, rng: random.Random) -> Self:
        """The other hands, the stock and the cards of players who left are
        dealt anew from the cards the observer has not seen."""
        if not 0 <= observer < self.seats:
            raise IndexError(f"no seat {observer}")
        game = self.clone()
        unseen = sorted(
            [c for s in range(self.seats) if s != observer for c in self._hands[s]]
            + self._stock
            + self._resigned
        )
        rng.shuffle(unseen)
        for s in range(self.seats):
            if s != observer:
                size = len(self._hands[s])
                game._hands[s] = sorted(unseen[:size])
                del unseen[:size]
        game._stock = unseen[: len(self._stock)]
        game._resigned = sorted(unseen[len(self._stock) :])
        return game

    def zones(self) -> list[Zone]:
        hands = [
            Zone(f"hand{s}", tuple(self._hands[s]), frozenset((s,))) for s in range(self.seats)
        ]
        return [
            *hands,
            Zone("stock", tuple(self._stock), frozenset()),
            Zone("trick", tuple(card for _, card in self._trick), None),
            Zone("pile", tuple(self._pile), frozenset(), remembered=True),
            Zone("resigned", tuple(self._resigned), frozenset()),
        ]

    def known_cards(self, observer: int) -> dict[int, list[Card]]:
        """Nobody shows a card before playing it."""
        return {}

    @classmethod
    def decode_action(cls, text: str) -> Play:
        return decode(text)

    # ------------------------------------------------------------------- moves

    def _clear_taken(self) -> None:
        """A trick taken goes face down to the pile."""
        if self._taken is not None:
            self._pile += [c for _, c in self._trick]
            self._trick = []
            self._taken = None

    def _go_on(self, seat: int, events: list[Event]) -> None:
        """The next player who has not played to the trick, else the trick is
        taken."""
        played = {s for s, _ in self._trick}
        waiting = [s for s in self._active() if s not in played]
        if waiting:
            self._turn = min(waiting, key=lambda s: (s - seat) % self.seats)
        else:
            self._take(events)

    def _take(self, events: list[Event]) -> None:
        counted = [(s, c) for s, c in self._trick if not self._out[s]]
        taker, _ = max(counted, key=lambda sc: (sc[1].rank, -counted.index(sc)))
        self._scores[taker] += 1
        cards = tuple(c for _, c in self._trick)
        events.append(Event("trick", seat=taker, cards=cards))
        self._taken = taker
        active = self._active()
        if len(self._stock) >= len(active):
            for offset in range(self.seats):
                s = (taker + offset) % self.seats
                if not self._out[s]:
                    self._hands[s].append(self._stock.pop())
                    self._hands[s].sort()
            events.append(Event("draw", value=1))
        if not self._hands[taker]:
            self._end(events)
            return
        self._leader = self._turn = taker

    def _end(self, events: list[Event]) -> None:
        self._phase = Phase.OVER
        events.append(Event("over"))
