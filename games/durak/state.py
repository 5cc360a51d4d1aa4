"""Durak's state: every field of a game, and the queries that only read them.

:class:`~games.durak.engine.Durak` moves the state; :mod:`games.durak.views`
and :mod:`games.durak.persistence` read and build it.  They depend on this
module, not on the engine, so the engine is the only module that imports them.

Internally a card is its ``Card.order`` and a set of cards an ``int`` bit mask
(:mod:`games.durak.beating`), which keeps move generation cheap.

Teams (seed 003): the round goes by *places* (seats in the order they sit).
When a player goes out, his partner plays his place as well as his own, so the
attacker and the defender are places, each played by a seat (``_ctl``); outside
teams every place is played by its own seat.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable
from typing import Self

from games.cards import Card, Suit
from games.core import Event, Game, IllegalAction
from games.durak.actions import Attack, Beat, DurakAction, Throw, Transfer
from games.durak.beating import Beating, cards_of
from games.durak.rules import HAND_SIZE, Covers, DurakRules, Shape, Transfers
from games.durak.tables import Leads, leads_for, refill_orders, throwers_by_defender

__all__ = ["NOBODY", "DurakState"]

NOBODY = -1


class DurakState(Game[DurakRules, DurakAction]):
    """The data half of :class:`~games.durak.engine.Durak` (abstract: the
    engine gives the moves)."""

    rules: DurakRules
    _n: int
    _trump: Suit
    _beating: Beating
    _beaters: tuple[int, ...]  # _beating.table
    _trump_card: int  # the turned card (the suit's lowest card when none is turned)
    _trump_in_stock: bool  # the turned card lies under the stock, drawn last
    _stock: list[int]  # the next card drawn is _stock[-1]
    _hands: list[int]
    _known: list[int]  # per seat, the cards of his hand everybody has seen
    _discard: int
    _beaten: list[int]  # the bout just beaten off: its attack cards, then their covers
    _beaten_mask: int
    _att: list[int]
    _dfn: list[int]  # NOBODY where the attack card is unbeaten
    _unbeaten: int
    _table_ranks: int  # RANK_BITS of every rank on the table
    _dealer: int
    _attacker: int  # the seat attacking (whose cards lead and throw)
    _defender: int  # the seat defending
    _apos: int  # the attacker's place in the round (its seat, but in teams)
    _dpos: int  # the defender's place
    _ctl: list[int]  # per place, the seat playing it: itself, or in teams a partner
    _teams: bool
    _losing_team: int  # teams: the team that lost (NOBODY: none yet, or a draw)
    _taking: bool
    _passed: int  # seat bits
    _cap: int
    _first_bout: bool
    _locked: bool  # no transfer in this bout ("под дурака" first cards)
    _out: int  # seat bits
    _out_order: list[tuple[int, ...]]
    _bout_out: list[int]
    _left: list[int]  # seats that left the game (resigned) while it went on, in order
    _aside: int  # the cards they held, face down out of play
    _durak: int
    _over: bool
    _tm: frozenset[int] | None  # to_move, cached until the next move
    _thrower_table: tuple[tuple[int, ...], ...]
    _refill_table: tuple[tuple[tuple[int, ...], ...], ...]
    _transfers: bool
    _refusal: bool
    _leads: Leads
    _suit_leads: bool  # Akulina: a lead of several cards is of one suit
    _face_down: bool  # believe / don't believe: covers lie face down
    _blind: bool  # blind durak: nobody sees his own hand
    _arrival: list[int]  # blind: per card order, when it came into its hand
    _arrivals: int  # blind: cards that have come into hands so far

    @classmethod
    def _blank(cls, rules: DurakRules, seats: int, trump: Suit) -> Self:
        """A game with nothing dealt yet."""
        game = cls.__new__(cls)
        game.rules = rules
        game._n = seats
        game._trump = trump
        game._beating = Beating(trump, rules.spades_by_spades, rules.unbeatable_queen)
        game._beaters = game._beating.table
        game._trump_card = 0
        game._trump_in_stock = False
        game._stock = []
        game._hands = [0] * seats
        game._known = [0] * seats
        game._discard = 0
        game._beaten = []
        game._beaten_mask = 0
        game._att = []
        game._dfn = []
        game._unbeaten = 0
        game._table_ranks = 0
        game._dealer = 0
        game._attacker = NOBODY
        game._defender = NOBODY
        game._apos = NOBODY
        game._dpos = NOBODY
        game._ctl = list(range(seats))
        game._teams = rules.teams
        game._losing_team = NOBODY
        game._taking = False
        game._passed = 0
        game._cap = 0
        game._first_bout = False
        game._locked = False
        game._out = 0
        game._out_order = []
        game._bout_out = []
        game._left = []
        game._aside = 0
        game._durak = NOBODY
        game._over = False
        game._tm = None
        game._thrower_table = throwers_by_defender(seats, rules.throw_in)
        game._refill_table = refill_orders(seats)
        game._transfers = rules.transfer is not Transfers.NONE
        game._refusal = rules.transfer is Transfers.REFUSAL
        game._leads = leads_for(rules.shape, rules.deck_size)
        game._suit_leads = rules.shape is Shape.SUIT
        game._face_down = rules.covers is Covers.FACE_DOWN
        game._blind = rules.blind
        game._arrival = [0] * 64
        game._arrivals = 0
        return game

    @property
    def seats(self) -> int:
        return self._n

    @property
    def trump(self) -> Suit:
        return self._trump

    @property
    def beating(self) -> Beating:
        return self._beating

    def hand(self, seat: int) -> list[Card]:
        """The cards in ``seat``'s hand, lowest ``Card.order`` first."""
        return cards_of(self._hands[seat])

    def hand_size(self, seat: int) -> int:
        return self._hands[seat].bit_count()

    def _arrive(self, orders: Iterable[int]) -> None:
        """Blind durak: cards come into a hand, after those it holds (a blind
        player names his cards by the order they came in)."""
        arrival = self._arrival
        for o in orders:
            arrival[o] = self._arrivals
            self._arrivals += 1

    def in_order(self, seat: int) -> list[int]:
        """Blind durak: ``seat``'s cards (as orders) by position."""
        held = []
        mask = self._hands[seat]
        while mask:
            low = mask & -mask
            held.append(low.bit_length() - 1)
            mask ^= low
        held.sort(key=self._arrival.__getitem__)
        return held

    @property
    def phase(self) -> str:
        """``attack`` (a lead is due), ``defend`` (some attack card is unbeaten
        and the defender has not taken), ``verdict`` (every attack card has a
        face-down cover: believe or not), ``throw`` (everything is beaten or
        the defender takes: throwers add or pass) or ``over``."""
        if self._over:
            return "over"
        if not self._att:
            return "attack"
        if self._unbeaten and not self._taking:
            return "defend"
        if self._face_down and not self._taking:
            return "verdict"
        return "throw"

    def _limit(self) -> int:
        return 5 if self._first_bout and self.rules.first_bout_five else HAND_SIZE

    # ------------------------------------------------ queries the moves share

    def _next_active(self, seat: int) -> int:
        """The next seat clockwise still in play (``seat`` itself if none)."""
        n = self._n
        out = self._out
        s = (seat + 1) % n
        while out >> s & 1 and s != seat:
            s = (s + 1) % n
        return s

    def _next_place(self, place: int) -> int:
        """The place clockwise after ``place`` in the round: in teams every
        place stays in it (a partner plays it) until the game ends."""
        if self._teams:
            return (place + 1) % self._n
        return self._next_active(place)

    def _throwable(self) -> int:
        """The cards a thrower must hold to be asked to throw in: of a rank on
        the table; in blind durak any card (he cannot see which he holds)."""
        return -1 if self._blind else self._table_ranks

    def _throwers(self) -> tuple[int, ...]:
        """Seats that may throw in under the current defender."""
        return self._thrower_table[self._defender]

    def _transfer_room(self) -> tuple[int, int]:
        """``(target, room)``: the place the defender could transfer to now, and
        how many cards he may add; room 0 when no transfer is possible."""
        d = self._dpos
        if not self._transfers or self._locked or self._taking or self._unbeaten != len(self._att):
            return d, 0
        if self._refusal and self._refusable():
            return self._apos, self._limit() - len(self._att)
        target = self._next_place(d)
        if target == d:
            return d, 0
        room = min(self._limit(), self._hands[self._ctl[target]].bit_count()) - len(self._att)
        return target, max(room, 0)

    def _refusable(self) -> bool:
        """With refusal: the attacker has just played his last cards against
        the only other player left, who may send them back."""
        a = self._attacker
        return a in self._bout_out and not self._hands[a] and self._n - self._out.bit_count() == 1

    def _open_attack(self, seat: int, attack: Card) -> int:
        """Where ``attack`` lies on the table, if ``seat`` may cover it now
        (he defends, has not taken, and it is not covered yet); raises
        otherwise."""
        if not self._att or seat != self._defender:
            raise IllegalAction("illegal.not_defender")
        if self._taking:
            raise IllegalAction("illegal.already_taking")
        try:
            i = self._att.index(attack.order)
        except ValueError:
            raise IllegalAction("illegal.not_on_table") from None
        if self._dfn[i] >= 0:
            raise IllegalAction("illegal.already_beaten")
        return i

    # ---------------------------------------------- the moves, from the engine
    # The variant modules (blind, face_down, refusal, teams, leaving) are
    # functions over this state that end in the core bout flow.

    @abstractmethod
    def _attack(self, seat: int, action: Attack) -> list[Event]: ...

    @abstractmethod
    def _beat(self, seat: int, action: Beat) -> list[Event]: ...

    @abstractmethod
    def _throw(self, seat: int, action: Throw) -> list[Event]: ...

    @abstractmethod
    def _transfer(self, seat: int, action: Transfer) -> list[Event]: ...

    @abstractmethod
    def _maybe_close(self, events: list[Event]) -> None: ...

    @abstractmethod
    def _close(
        self, events: list[Event], *, taker: int = NOBODY, abandoned: bool = False
    ) -> None: ...

    @abstractmethod
    def _start_bout(self, place: int) -> None: ...

    @abstractmethod
    def _end(self) -> None: ...
