"""Durak's state: every field of a game, and the queries that only read them.

:class:`~games.durak.engine.Durak` moves the state; :mod:`games.durak.views`
and :mod:`games.durak.persistence` read and build it, and the variants' moves
(:mod:`~games.durak.blind`, :mod:`~games.durak.face_down`,
:mod:`~games.durak.refusal`, :mod:`~games.durak.teams`,
:mod:`~games.durak.leaving`), :mod:`~games.durak.dealing` and
:mod:`~games.durak.determinize` are functions over it.  They depend on this
module, not on the engine, so the engine is the only module that imports them;
the core moves they end in are declared here, abstract, and the engine gives
them.

Internally a card is its ``Card.order`` and a set of cards an ``int`` bit mask
(:mod:`games.durak.beating`), which keeps move generation cheap.

Teams (seed 003): the round goes by *places* (seats in the order they sit).
When a player goes out, his partner plays his place as well as his own, so the
attacker and the defender are places, each played by a seat (``_ctl``); outside
teams every place is played by its own seat.
"""

from __future__ import annotations

import enum
from abc import abstractmethod
from collections.abc import Hashable, Iterable, Mapping
from typing import Any, Self

from games.cards import Card, Suit
from games.core import Event, Game, IllegalAction, Outcome, Wait, Zone
from games.durak.actions import (
    ATTACKS,
    BELIEVE,
    BLIND_LEADS,
    NAMES,
    PASS,
    TAKE,
    Attack,
    Beat,
    DurakAction,
    Throw,
    Transfer,
)
from games.durak.beating import CARD_BY_ORDER, SUIT_BITS, Beating, cards_of
from games.durak.rules import HAND_SIZE, Covers, DurakRules, Shape, Transfers
from games.durak.tables import SEAT_SETS, Leads, leads_for, refill_orders, throwers_by_defender

__all__ = ["NOBODY", "DurakState", "Phase"]

NOBODY = -1


class Phase(enum.Enum):
    """What the bout waits for (:attr:`DurakState.phase`)."""

    NAME = "name"
    """Before the first bout (diamonds durak, a spade turned, ``trump``
    ``spade_named``): the dealer names the trump."""
    ATTACK = "attack"
    """The table is empty: the attacker leads."""
    DEFEND = "defend"
    """Some attack card is unbeaten and the defender has not taken (others
    may throw in meanwhile)."""
    VERDICT = "verdict"
    """Believe / don't believe: every attack card has a face-down cover; the
    attacker believes or doubts."""
    THROW = "throw"
    """Everything is beaten or the defender takes: the throwers add or pass."""
    OVER = "over"
    """The game has ended."""


# Python 3.11 looks up an enum class's attributes slowly; views ask every move.
_NAME, _ATTACK, _DEFEND, _VERDICT, _THROW, _OVER = Phase


class DurakState(Game[DurakRules, DurakAction, Any, Any]):
    """The data half of :class:`~games.durak.engine.Durak` (abstract: the
    engine gives the moves; the engine names the view types, which this
    module cannot import)."""

    rules: DurakRules
    _n: int
    _trump: Suit
    _beating: Beating
    _beaters: tuple[int, ...]  # _beating.table
    _trump_card: int  # the turned card (the suit's lowest card when none is turned)
    _trump_in_stock: bool  # the turned card lies under the stock, drawn last
    _stock: list[int]  # the next card drawn is _stock[-1]
    _seen_in_stock: int  # turned spades everybody saw put into the stock (option 5.a)
    _hands: list[int]
    _known: list[int]  # per seat, the cards of his hand everybody has seen
    _discard: int
    _beaten: list[int]  # the bout just beaten off: its attack cards, then their covers
    _beaten_mask: int
    _att: list[int]
    _dfn: list[int]  # NOBODY where the attack card is unbeaten
    _seen_covers: int  # believe: known cards of the defender's he laid face down
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
    _naming: bool  # the dealer is to name the trump before the first bout

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
        game._seen_in_stock = 0
        game._hands = [0] * seats
        game._known = [0] * seats
        game._discard = 0
        game._beaten = []
        game._beaten_mask = 0
        game._att = []
        game._dfn = []
        game._seen_covers = 0
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
        game._naming = False
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
    def phase(self) -> Phase:
        """What the bout waits for (see :class:`Phase`)."""
        if self._over:
            return _OVER
        if self._naming:
            return _NAME
        if not self._att:
            return _ATTACK
        if self._unbeaten and not self._taking:
            return _DEFEND
        if self._face_down and not self._taking:
            return _VERDICT
        return _THROW

    def strongest_suit(self, seat: int) -> Suit:
        """The suit other than spades ``seat`` holds most of (ties: the higher
        top card)."""
        hand = self._hands[seat]
        return max(NAMES, key=lambda s: ((hand & SUIT_BITS[s]).bit_count(), hand & SUIT_BITS[s]))

    def _limit(self) -> int:
        return 5 if self._first_bout and self.rules.first_bout_five else HAND_SIZE

    # ------------------------------------------------ queries the moves share

    def to_move(self) -> frozenset[int]:
        tm = self._tm
        if tm is None:
            tm = self._tm = self._compute_to_move()
        return tm

    def _compute_to_move(self) -> frozenset[int]:
        if self._over:
            return SEAT_SETS[0]
        if self._naming:
            return SEAT_SETS[1 << self._dealer]
        att = self._att
        if not att:
            return SEAT_SETS[1 << self._attacker]
        if self._face_down and not self._unbeaten and not self._taking:
            return SEAT_SETS[1 << self._attacker]  # believe or not
        settled = self._taking or not self._unbeaten
        acc = 0 if settled else 1 << self._defender
        if len(att) < self._cap:
            ranks = self._throwable()
            passed = self._passed if settled else 0
            hands = self._hands
            for s in self._thrower_table[self._defender]:
                if hands[s] & ranks and not passed >> s & 1:
                    acc |= 1 << s
        return SEAT_SETS[acc]

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

    # ------------------------------------- results, timers, what each seat sees

    def outcome(self) -> Outcome | None:
        if not self._over:
            return None
        everyone = frozenset(range(self._n))
        if self._teams:
            if self._losing_team == NOBODY:
                return Outcome((tuple(range(self._n)),), frozenset(), frozenset(), draw=True)
            losers = tuple(range(self._losing_team, self._n, 2))
            winners = tuple(range(1 - self._losing_team, self._n, 2))
            return Outcome((winners, losers), frozenset(winners), frozenset(losers))
        places = list(self._out_order)
        durak = self._durak
        left: list[tuple[int, ...]] = [(s,) for s in reversed(self._left)]  # first to leave last
        gone = frozenset(self._left)
        if durak == NOBODY:
            return Outcome(tuple(places + left), frozenset(), frozenset(), draw=True)
        out = self._out
        rest = tuple(s for s in range(self._n) if not out >> s & 1 and s != durak)
        if rest:  # the durak resigned while they still held cards
            places.append(rest)
        places.append((durak,))
        return Outcome(tuple(places + left), everyone - gone - {durak}, frozenset({durak}))

    def zones(self) -> list[Zone]:
        """``stock`` (nobody; in draw order), ``trump`` (everybody: the turned-up
        card while it lies under the stock), ``table`` (everybody: attack cards,
        then defence cards; believe / don't believe: the attack cards, the
        face-down covers being ``covers``, the defender's alone), ``beaten``
        (everybody: the bout just beaten off, until the next lead sends it to
        the discard), ``discard`` (nobody), and
        per seat ``hand{s}`` (seat s: the cards the others do not know) and
        ``known{s}`` (everybody: cards of that hand everybody has seen go in —
        picked up from the table, or the trump card).  In blind durak the rest
        of a hand (``hand{s}``) is seen by everybody but its holder."""
        nobody: frozenset[int] = frozenset()
        table = [CARD_BY_ORDER[o] for o in self._att]
        covers = [CARD_BY_ORDER[o] for o in self._dfn if o >= 0]
        trump = (CARD_BY_ORDER[self._trump_card],) if self._trump_in_stock else ()
        zones = []
        if self._face_down:
            defender = frozenset({self._defender}) if self._defender >= 0 else frozenset()
            zones.append(Zone("covers", tuple(covers), defender))
        else:
            table.extend(covers)
        zones += [
            Zone("stock", tuple(CARD_BY_ORDER[o] for o in reversed(self._stock)), nobody),
            Zone("trump", trump, None),
            Zone("table", tuple(table), None),
            Zone("beaten", tuple(CARD_BY_ORDER[o] for o in self._beaten), None),
            Zone("discard", tuple(cards_of(self._discard)), nobody, remembered=True),
            Zone("aside", tuple(cards_of(self._aside)), nobody),
        ]
        everyone = frozenset(range(self._n))
        for s, (h, k) in enumerate(zip(self._hands, self._known, strict=True)):
            # Blind durak: a hand is seen by everybody but its holder.
            holder = everyone - {s} if self._blind else frozenset({s})
            zones.append(Zone(f"hand{s}", tuple(cards_of(h & ~k)), holder))
            zones.append(Zone(f"known{s}", tuple(cards_of(k)), None))
        return zones

    def known_cards(self, observer: int) -> dict[int, list[Card]]:
        """Cards other seats picked up from the table, or the trump card they
        drew (or were dealt), while still in their hands."""
        return {s: cards_of(k) for s, k in enumerate(self._known) if k and s != observer}

    def position_key(self) -> Hashable:
        """Every field that can change in play (the rules and the tables
        derived from them cannot): a tuple, built without the dump's codes."""
        return (
            tuple(self._stock),
            self._seen_in_stock,
            tuple(self._hands),
            tuple(self._known),
            self._discard,
            tuple(self._beaten),
            tuple(self._att),
            tuple(self._dfn),
            self._seen_covers,
            self._trump_in_stock,
            self._dealer,
            self._attacker,
            self._defender,
            self._apos,
            self._dpos,
            tuple(self._ctl),
            self._losing_team,
            self._taking,
            self._passed,
            self._cap,
            self._first_bout,
            self._locked,
            self._out,
            tuple(self._out_order),
            tuple(self._bout_out),
            tuple(self._left),
            self._aside,
            self._durak,
            self._over,
            self._naming,
            self._trump,
            tuple(tuple(self.in_order(s)) for s in range(self._n)) if self._blind else (),
        )

    def waits(self) -> Mapping[int, Wait]:
        """The leader decides a lead; the defender decides while some attack
        card is unbeaten and he has not taken (throwers may throw meanwhile,
        but nobody waits on them); once everything is beaten or taken, the
        throwers still asked consent: their silence is a pass."""
        if self._over:
            return {}
        if self._naming:
            return {self._dealer: Wait.DECIDE}
        if not self._att:
            return {self._attacker: Wait.DECIDE}
        if self._unbeaten and not self._taking:
            return {self._defender: Wait.DECIDE}
        if self._face_down:
            return {self._attacker: Wait.DECIDE}  # believe or not
        return dict.fromkeys(self.to_move(), Wait.CONSENT)

    def default_action(self, seat: int) -> DurakAction:
        """Leader: his lowest card alone (the lowest non-trump by rank, else
        the lowest trump).  Defender: take.  Thrower: pass.  An attacker facing
        face-down covers: believe.  A dealer naming the trump: the suit he
        holds most of (not spades; ties: the higher top card)."""
        if self._over:
            raise IllegalAction("illegal.game_over")
        if self._naming:
            if seat != self._dealer:
                raise IllegalAction("illegal.not_your_turn")
            return NAMES[self.strongest_suit(seat)]
        if not self._att:
            if seat == self._attacker and self._blind:
                return BLIND_LEADS[0]
            if seat == self._attacker:
                hand = self._hands[seat]
                low = hand & ~SUIT_BITS[self._trump] or hand
                o = (low & -low).bit_length() - 1
                return ATTACKS[((o >> 2) << 4) | (1 << (o & 3))]
        elif seat == self._defender and self._unbeaten and not self._taking:
            return TAKE
        elif self._face_down:
            if seat == self._attacker and not self._unbeaten and not self._taking:
                return BELIEVE
        elif (self._taking or not self._unbeaten) and seat in self.to_move():
            return PASS
        raise IllegalAction("illegal.not_your_turn")

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
