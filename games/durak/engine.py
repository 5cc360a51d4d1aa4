"""The Durak state machine: dealing, bouts, refills, going out.

A game is a sequence of *bouts*.  A bout opens with the attacker's lead (one
card or several of one rank) against the defender, the next active player
clockwise.  Then, in any order, the defender beats cards, takes, or (in
perevodnoy, while nothing is beaten) transfers, and every other player holding
cards throws in cards whose rank is on the table, up to the bout's cap.  Once
every attack card is beaten, or the defender has said "take", each player who
could still throw in must throw or pass; the bout closes when all of them have
passed since the last new card, when the cap is reached, or when the defender
has no cards left.  A player who leaves the game (:meth:`Durak.resign`) goes
out of it, his cards set aside, while three or more were in play; otherwise he
is its durak and ends it at once.  See ``docs/rules/durak.md`` for the full
rules.

The variants are the axes of :class:`~games.durak.rules.DurakRules`: the
engine reads them through the tables built from them (what beats what in
:mod:`games.durak.beating`; leads, transfers, throwers and refill orders in
:mod:`games.durak.tables`) and through a few flags.  The moves of a variant
live in its own module (blind, face_down, refusal, teams, leaving), called
only when its flag is on; this module keeps the dispatch, the core moves and
the bout flow, and the state and its queries are in :mod:`games.durak.state`.

Illegal actions raise :class:`~games.core.IllegalAction` with one of these
reasons: ``illegal.game_over``, ``illegal.no_such_seat``,
``illegal.unknown_action``, ``illegal.not_your_turn``, ``illegal.not_defender``,
``illegal.no_bout``, ``illegal.bout_in_progress``, ``illegal.not_in_hand``,
``illegal.mixed_ranks``, ``illegal.mixed_suits``, ``illegal.over_cap`` (param ``cap``),
``illegal.cap_reached``, ``illegal.rank_not_on_table``,
``illegal.not_on_table``, ``illegal.already_beaten``, ``illegal.cannot_beat``,
``illegal.already_taking``, ``illegal.nothing_to_take``,
``illegal.already_passed``, ``illegal.defence_in_progress``,
``illegal.nothing_to_throw``, ``illegal.no_transfer``,
``illegal.transfer_locked``, ``illegal.transfer_after_beat``,
``illegal.wrong_rank``, ``illegal.transfer_too_many``,
``illegal.cover_face_down``, ``illegal.covers_face_up``, ``illegal.no_verdict``,
``illegal.no_such_position``; :meth:`Durak.resign` raises
``illegal.game_over`` or ``illegal.not_in_game`` (the seat is out).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Self

from games.cards import Card, Suit
from games.core import (
    Event,
    GamePackage,
    IllegalAction,
    Outcome,
    RulesError,
)
from games.durak import blind, dealing, face_down, persistence, teams, views
from games.durak.actions import (
    BEATS,
    BLIND_LEADS,
    NAMES,
    PASS,
    TAKE,
    THROWS,
    Attack,
    Beat,
    Believe,
    BlindBeat,
    BlindLead,
    BlindThrow,
    BlindTransfer,
    Cover,
    Doubt,
    DurakAction,
    NameTrump,
    Pass,
    Take,
    Throw,
    Transfer,
    decode,
    same_rank_mask,
    same_suit_mask,
)
from games.durak.beating import CARD_BY_ORDER, RANK_BITS
from games.durak.determinize import determinize
from games.durak.leaving import leave
from games.durak.refusal import refuse
from games.durak.rules import HAND_SIZE, DurakRules, seat_range
from games.durak.state import NOBODY, DurakState
from games.durak.tables import DECKS, transfer_list
from games.durak.views import DurakPublicView, DurakSeatView

__all__ = ["Durak"]


class Durak(GamePackage[DurakPublicView, DurakSeatView], DurakState):
    """One game of podkidnoy or perevodnoy durak."""

    key: ClassVar[str] = "durak"
    FORMAT: ClassVar[int] = 3
    _VIEWS = views
    _PERSISTENCE = persistence
    _COPIED = (
        "_stock",
        "_hands",
        "_known",
        "_att",
        "_beaten",
        "_dfn",
        "_out_order",
        "_bout_out",
        "_left",
        "_ctl",
        "_arrival",
    )

    # ------------------------------------------------------------------ setup

    @classmethod
    def new(
        cls,
        rules: DurakRules,
        seats: int,
        rng: random.Random,
        *,
        previous: Outcome | None = None,
    ) -> Self:
        if seats not in seat_range(rules):
            raise RulesError(f"{rules.deck_size} cards: {seats} players is not allowed")
        pack = list(DECKS[rules.deck_size])
        rng.shuffle(pack)
        return dealing.dealt(cls, rules, seats, pack, previous)

    @classmethod
    def deal(
        cls,
        rules: DurakRules,
        seats: int,
        pack: Sequence[Card | str] | str,
        *,
        previous: Outcome | None = None,
    ) -> Self:
        """Deal from ``pack`` exactly as :meth:`new` deals a shuffled deck.

        ``pack[0]`` is the top card.  The dealer (the previous game's loser,
        else seat 0) deals one card at a time clockwise starting on his left
        until everybody has six; the next card is turned up as trump and lies
        under the rest, which form the stock (``pack[6 * seats + 1]`` is drawn
        first, the trump card last).  With no card left (6 x 36, 4 x 24) the
        dealer's last card shows the trump and stays in his hand.
        """
        cards = dealing.checked_pack(rules, seats, pack)
        return dealing.dealt(cls, rules, seats, cards, previous)

    @classmethod
    def position(
        cls,
        rules: DurakRules,
        hands: Sequence[Iterable[Card | str] | str],
        *,
        attacker: int,
        trump: Suit | str | None = None,
        trump_card: Card | str | None = None,
        stock: Iterable[Card | str] | str = (),
        dealer: int = 0,
        first_bout: bool = False,
        transfer_locked: bool = False,
        out_order: Sequence[Sequence[int]] = (),
    ) -> Self:
        """A position at the start of a bout, for tests and puzzles: see
        :func:`games.durak.dealing.set_up`."""
        return dealing.set_up(
            cls,
            rules,
            hands,
            attacker=attacker,
            trump=trump,
            trump_card=trump_card,
            stock=stock,
            dealer=dealer,
            first_bout=first_bout,
            transfer_locked=transfer_locked,
            out_order=out_order,
        )

    # ------------------------------------------------------------- queries

    def legal_actions(self, seat: int) -> list[DurakAction]:
        if self._over or not 0 <= seat < self._n:
            return []
        if self._naming:
            return list(NAMES.values()) if seat == self._dealer else []
        att = self._att
        if not att:
            return self._lead_actions() if seat == self._attacker else []
        out: list[DurakAction] = []
        if self._face_down:
            return face_down.actions(self, seat)
        if self._blind:
            return blind.actions(self, seat)
        if seat == self._defender:
            if self._taking or not self._unbeaten:
                return out
            hand = self._hands[seat]
            table = self._beaters
            for a, c in zip(att, self._dfn, strict=False):
                if c < 0:
                    m = hand & table[a]
                    row = a << 6
                    while m:
                        low = m & -m
                        out.append(BEATS[row | (low.bit_length() - 1)])
                        m ^= low
            if self._transfers:
                _, room = self._transfer_room()
                if room > 0:
                    out.extend(transfer_list(hand, att[0] >> 2, room))
            out.append(TAKE)
            return out
        if len(att) >= self._cap or seat not in self._thrower_table[self._defender]:
            return out
        settled = self._taking or not self._unbeaten
        if settled and self._passed >> seat & 1:
            return out
        m = self._hands[seat] & self._table_ranks
        while m:
            low = m & -m
            out.append(THROWS[low.bit_length() - 1])
            m ^= low
        if out and settled:
            out.append(PASS)
        return out

    def _lead_actions(self) -> list[DurakAction]:
        if self._blind:
            return list(BLIND_LEADS[: self._hands[self._attacker].bit_count()])
        return self._leads(self._hands[self._attacker], self._cap)

    # -------------------------------------------------------------- moves

    def apply(self, seat: int, action: DurakAction) -> list[Event]:
        if self._over:
            raise IllegalAction("illegal.game_over")
        if not 0 <= seat < self._n:
            raise IllegalAction("illegal.no_such_seat", seat=seat)
        if self._naming or type(action) is NameTrump:
            return self._name_trump(seat, action)
        handler = (_BLIND_GAME_HANDLERS if self._blind else _HANDLERS).get(type(action))
        if handler is None:
            raise IllegalAction("illegal.unknown_action")
        events = handler(self, seat, action)
        self._tm = None
        return events

    def _name_trump(self, seat: int, action: DurakAction) -> list[Event]:
        """The dealer names the trump (``spade_named``); then the first bout
        starts as it would have with that trump turned."""
        if not self._naming:
            raise IllegalAction("illegal.trump_named")
        if not isinstance(action, NameTrump):
            raise IllegalAction("illegal.trump_not_named")
        if seat != self._dealer:
            raise IllegalAction("illegal.not_your_turn")
        dealing.name_trump(self, action.suit)
        self._tm = None
        return [Event("trump_named", seat, value=action.suit.value)]

    def resign(self, seat: int) -> list[Event]:
        """``seat`` leaves the game (removed by an admin, or absent at a table
        that removes absentees).

        With three or more players in play, each for himself, the game goes on
        without him: his cards are set aside face down, out of play (never
        drawn: nobody may learn or use them), and the round closes up.  Cards
        he put on the table stay in the bout; if he was defending, the bout is
        over and its cards go to the discard, as if beaten off (after the
        refill the player after him leads); believe / don't believe with him
        the attacker: his covers are believed.  When he was one of the last
        two, or in teams, he is the durak (his team loses): the game ends at
        once, everybody else winning; the seats out keep their places, the
        others still holding cards share the place above him.  See
        ``docs/rules/durak.md``.  A trump still to be named (``spade_named``)
        is named first as the timer would name it."""
        if self._over:
            raise IllegalAction("illegal.game_over")
        if not 0 <= seat < self._n or self._out >> seat & 1:
            raise IllegalAction("illegal.not_in_game")
        events: list[Event] = []
        if self._naming:  # the trump is named first, as the timer names it
            events += self._name_trump(self._dealer, self.default_action(self._dealer))
        if not self._teams and self._n - self._out.bit_count() >= 3:
            return events + leave(self, seat)
        if self._bout_out:  # they went out in this bout: their place is settled now
            group = tuple(sorted(self._bout_out))
            self._out_order.append(group)
            self._bout_out = []
            place = len(self._out_order)
            events.extend(Event("out", s, value=place) for s in group)
        events.append(Event("resign", seat))
        self._end()
        self._taking = False
        self._passed = 0
        self._tm = None
        if self._teams:
            self._losing_team = seat & 1
            events.append(Event("game_over", value=f"team{self._losing_team}"))
        else:
            self._durak = seat
            events.append(Event("game_over", seat, value="durak"))
        return events

    def _attack(self, seat: int, action: Attack) -> list[Event]:
        if self._att:
            raise IllegalAction("illegal.bout_in_progress")
        if seat != self._attacker:
            raise IllegalAction("illegal.not_your_turn")
        cards = action.cards
        if len(cards) == 1:
            o = cards[0].order
            mask, ranks = 1 << o, RANK_BITS[o >> 2]
        elif self._suit_leads:
            mask, ranks = same_suit_mask(cards)
        else:
            mask, rank = same_rank_mask(cards)
            ranks = RANK_BITS[rank]
        hand = self._hands[seat]
        if hand & mask != mask:
            raise IllegalAction("illegal.not_in_hand")
        if len(cards) > self._cap:
            raise IllegalAction("illegal.over_cap", cap=self._cap)
        hand ^= mask
        self._hands[seat] = hand
        self._known[seat] &= hand
        self._att = [c.order for c in cards]
        self._dfn = [NOBODY] * len(cards)
        self._unbeaten = len(cards)
        self._table_ranks = ranks
        if self._beaten:
            self._discard |= self._beaten_mask
            self._beaten = []
            self._beaten_mask = 0
        self._passed = 0
        if not hand:
            self._check_out(seat)
        key = (mask << 6) | (seat << 3) | self._defender
        event = _ATTACK_EVENTS.get(key)
        if event is None:
            event = _ATTACK_EVENTS[key] = Event("attack", seat, cards, self._defender)
        return [event]

    def _throw(self, seat: int, action: Throw) -> list[Event]:
        att = self._att
        if not att:
            raise IllegalAction("illegal.no_bout")
        if seat == self._defender or seat not in self._throwers():
            raise IllegalAction("illegal.not_your_turn")
        settled = self._taking or not self._unbeaten
        if settled and self._passed >> seat & 1:
            raise IllegalAction("illegal.already_passed")
        card = action.card
        o = card.order
        hand = self._hands[seat]
        if not hand >> o & 1:
            raise IllegalAction("illegal.not_in_hand")
        if not self._table_ranks >> o & 1:
            raise IllegalAction("illegal.rank_not_on_table")
        if len(att) >= self._cap:
            raise IllegalAction("illegal.cap_reached")
        hand ^= 1 << o
        self._hands[seat] = hand
        self._known[seat] &= hand
        att.append(o)
        self._dfn.append(NOBODY)
        self._passed = 0
        if not self._taking:
            self._unbeaten += 1
        if not hand:
            self._check_out(seat)
        key = (o << 6) | (seat << 3) | self._defender
        event = _THROW_EVENTS.get(key)
        if event is None:
            event = _THROW_EVENTS[key] = Event("throw", seat, (card,), self._defender)
        events = [event]
        if self._taking:
            self._maybe_close(events)
        return events

    def _beat(self, seat: int, action: Beat) -> list[Event]:
        i = self._open_attack(seat, action.attack)
        a = action.attack.order
        c = action.cover.order
        hand = self._hands[seat]
        if not hand >> c & 1:
            raise IllegalAction("illegal.not_in_hand")
        if self._face_down:
            raise IllegalAction("illegal.cover_face_down")
        if not self._beaters[a] >> c & 1:
            raise IllegalAction("illegal.cannot_beat")
        hand ^= 1 << c
        self._hands[seat] = hand
        self._known[seat] &= hand
        self._dfn[i] = c
        self._unbeaten -= 1
        self._table_ranks |= RANK_BITS[c >> 2]
        self._passed = 0
        if not hand:
            self._check_out(seat)
        key = (a << 9) | (c << 3) | seat
        event = _BEAT_EVENTS.get(key)
        if event is None:
            event = _BEAT_EVENTS[key] = Event("beat", seat, (action.attack, action.cover))
        events = [event]
        if not self._unbeaten:
            self._maybe_close(events)
        return events

    def _transfer(self, seat: int, action: Transfer) -> list[Event]:
        att = self._att
        if not self._transfers:
            raise IllegalAction("illegal.no_transfer")
        if not att or seat != self._defender:
            raise IllegalAction("illegal.not_defender")
        if self._taking:
            raise IllegalAction("illegal.already_taking")
        if self._locked:
            raise IllegalAction("illegal.transfer_locked")
        if self._unbeaten != len(att):
            raise IllegalAction("illegal.transfer_after_beat")
        mask, rank = same_rank_mask(action.cards)
        if rank != att[0] >> 2:
            raise IllegalAction("illegal.wrong_rank")
        hand = self._hands[seat]
        if hand & mask != mask:
            raise IllegalAction("illegal.not_in_hand")
        target, room = self._transfer_room()
        if len(action.cards) > room:
            raise IllegalAction("illegal.transfer_too_many")
        hand ^= mask
        self._hands[seat] = hand
        self._known[seat] &= hand
        if self._refusal and self._refusable():
            return refuse(self, seat, action)
        orders = [c.order for c in action.cards]
        att.extend(orders)
        self._dfn.extend([NOBODY] * len(orders))
        self._unbeaten += len(orders)
        self._apos = self._dpos
        self._dpos = target
        self._attacker = seat
        d = self._defender = self._ctl[target]
        self._cap = min(self._limit(), self._hands[d].bit_count())
        self._passed = 0
        if not hand:
            self._check_out(seat)
        return [Event("transfer", seat, action.cards, d)]

    def _take(self, seat: int, action: Take) -> list[Event]:
        if not self._att or seat != self._defender:
            raise IllegalAction("illegal.not_defender")
        if self._taking:
            raise IllegalAction("illegal.already_taking")
        if not self._unbeaten:
            raise IllegalAction("illegal.nothing_to_take")
        self._taking = True
        self._passed = 0
        events = [_TAKE_EVENTS[seat]]
        self._maybe_close(events)
        return events

    def _pass(self, seat: int, action: Pass) -> list[Event]:
        if not self._att:
            raise IllegalAction("illegal.no_bout")
        if seat == self._defender or seat not in self._throwers():
            raise IllegalAction("illegal.not_your_turn")
        if not (self._taking or not self._unbeaten):
            raise IllegalAction("illegal.defence_in_progress")
        if self._passed >> seat & 1:
            raise IllegalAction("illegal.already_passed")
        if len(self._att) >= self._cap or not self._hands[seat] & self._throwable():
            raise IllegalAction("illegal.nothing_to_throw")
        self._passed |= 1 << seat
        events = [_PASS_EVENTS[seat]]
        self._maybe_close(events)
        return events

    # ----------------------------------------------------------- bout flow

    def _check_out(self, seat: int) -> None:
        """``seat`` has just emptied his hand: out if nothing is left to draw."""
        if not self._stock and not self._trump_in_stock:
            self._out |= 1 << seat
            self._bout_out.append(seat)

    def _maybe_close(self, events: list[Event]) -> None:
        """Close the bout if nobody may add to it any more (the table is settled:
        everything beaten, or the defender takes)."""
        if self._unbeaten and not self._taking:
            return
        if (self._taking or self._hands[self._defender]) and len(self._att) < self._cap:
            ranks = self._throwable()
            passed = self._passed
            hands = self._hands
            for s in self._throwers():
                if hands[s] & ranks and not passed >> s & 1:
                    return
        self._close(events)

    def _close(self, events: list[Event], *, taker: int = NOBODY, abandoned: bool = False) -> None:
        """End the bout: the defender takes the table (he said "take"), or it
        is beaten off, or ``taker`` takes it (believe / don't believe: the
        attacker; blind durak: whoever played a wrong card), or it is
        ``abandoned`` (a player it cannot go on without left the game: its
        cards go to the discard, face-down covers set aside unseen); then
        refill, see who is out, and lead the next bout."""
        d = self._defender
        if taker == NOBODY and self._taking:
            taker = d
        taken = taker == d
        att = self._att
        dfn = self._dfn
        mask = 0
        shown = [_CARD[o] for o in att]
        for o in att:
            mask |= 1 << o
        covers = 0
        for o in dfn:
            if o >= 0:
                covers |= 1 << o
                if not (abandoned and self._face_down):
                    shown.append(_CARD[o])
        if abandoned:
            if self._face_down:  # nobody but the defender saw them
                self._aside |= covers
            else:
                mask |= covers
            self._discard |= self._beaten_mask | mask
            self._beaten = []
            self._beaten_mask = 0
            events.append(Event("bout_beaten", d, tuple(shown)))
        elif taker != NOBODY:
            mask |= covers
            self._hands[taker] |= mask
            if self._blind:
                self._arrive(att + [o for o in dfn if o >= 0])
            self._known[taker] |= mask
            if taker in self._bout_out:  # he led his last cards: back in play
                self._bout_out.remove(taker)
                self._out &= ~(1 << taker)
            events.append(Event("bout_taken", taker, tuple(shown)))
        else:
            mask |= covers
            self._discard |= self._beaten_mask
            self._beaten = att + dfn
            self._beaten_mask = mask
            events.append(Event("bout_beaten", d, tuple(shown)))
        self._att = []
        self._dfn = []
        self._seen_covers = 0
        self._unbeaten = 0
        self._table_ranks = 0
        self._taking = False
        self._passed = 0
        defended = self._dpos
        if self._stock or self._trump_in_stock:
            self._refill(events)
            if self._stock or self._trump_in_stock:
                # Everybody holds six again: nobody can be out.
                self._first_bout = False
                self._locked = False
                gone = self._out >> defended & 1  # he left the game
                self._start_bout(self._next_place(defended) if taken or gone else defended)
                return
        if not self._stock and not self._trump_in_stock:
            hands = self._hands
            for s in range(self._n):
                if not hands[s] and not self._out >> s & 1:
                    self._out |= 1 << s
                    self._bout_out.append(s)
        if self._bout_out:
            group = tuple(sorted(self._bout_out))
            self._out_order.append(group)
            self._bout_out = []
            place = len(self._out_order)
            events.extend(Event("out", s, value=place) for s in group)
        if self._teams:
            if teams.team_over(self, events):
                return
        elif self._n - self._out.bit_count() <= 1:
            active = [s for s in range(self._n) if not self._out >> s & 1]
            self._over = True
            self._durak = active[0] if active else NOBODY
            self._end()
            if active:
                events.append(Event("game_over", self._durak, value="durak"))
            else:
                events.append(Event("game_over", value="draw"))
            return
        self._first_bout = False
        self._locked = False
        if taken or (not self._teams and self._out >> defended & 1):
            self._start_bout(self._next_place(defended))
        else:
            self._start_bout(defended)

    def _end(self) -> None:
        self._over = True
        self._attacker = self._defender = self._apos = self._dpos = NOBODY
        self._cap = 0

    def _refill(self, events: list[Event]) -> None:
        """Draw up to six: the attacker of the final defender first, then the
        others clockwise, the defender last; the trump card comes last."""
        stock = self._stock
        hands = self._hands
        out = self._out
        for s in self._refill_table[self._attacker][self._defender]:
            if out >> s & 1:
                continue
            hand = hands[s]
            need = HAND_SIZE - hand.bit_count()
            if need <= 0:
                continue
            got = 0
            while got < need and stock:
                o = stock.pop()
                hand |= 1 << o
                got += 1
                if self._seen_in_stock >> o & 1:  # everybody saw where it lay
                    self._seen_in_stock ^= 1 << o
                    self._known[s] |= 1 << o
                if self._blind:
                    self._arrive((o,))
            if got < need and self._trump_in_stock:
                bit = 1 << self._trump_card
                hand |= bit
                self._known[s] |= bit
                self._trump_in_stock = False
                got += 1
                if self._blind:
                    self._arrive((self._trump_card,))
            hands[s] = hand
            events.append(_DRAW_EVENTS[s][got])
            if not stock and not self._trump_in_stock:
                break

    def _start_bout(self, place: int) -> None:
        """A bout led from ``place`` against the next place."""
        self._apos = place
        self._dpos = self._next_place(place)
        self._attacker = self._ctl[place]
        d = self._defender = self._ctl[self._dpos]
        cap = self._hands[d].bit_count()
        if cap > HAND_SIZE:
            cap = HAND_SIZE
        if cap > 5 and self._first_bout and self.rules.first_bout_five:
            cap = 5
        self._cap = cap
        self._tm = None

    def determinize(self, observer: int, rng: random.Random) -> Self:
        """See :func:`games.durak.determinize.determinize`."""
        return determinize(self, observer, rng)

    @classmethod
    def decode_action(cls, text: str) -> DurakAction:
        return decode(text)

    def __repr__(self) -> str:
        return f"<Durak {self._n} seats {self.phase.value}>"


_Handlers = dict[type[DurakAction], Callable[[Durak, int, Any], list[Event]]]
_HANDLERS: _Handlers = {
    Beat: Durak._beat,
    Cover: face_down.cover,
    Believe: face_down.believe,
    Doubt: face_down.doubt,
    Throw: Durak._throw,
    Pass: Durak._pass,
    Take: Durak._take,
    Attack: Durak._attack,
    Transfer: Durak._transfer,
}
_BLIND_GAME_HANDLERS: _Handlers = {
    BlindLead: blind.lead,
    BlindBeat: blind.beat,
    BlindThrow: blind.throw,
    BlindTransfer: blind.transfer,
    Take: Durak._take,
    Pass: Durak._pass,
}
"""A blind player names positions, never cards: the moves that name a card
are not his."""
# Events are immutable and cost a microsecond or two to build, so the common
# ones are shared (the caches are bounded by the number of distinct events).
_TAKE_EVENTS = tuple(Event("take", s) for s in range(6))
_PASS_EVENTS = tuple(Event("pass", s) for s in range(6))
_CARD: list[Card] = [CARD_BY_ORDER.get(o, CARD_BY_ORDER[8]) for o in range(64)]
"""Cards by ``Card.order`` (a list: quicker than the dict)."""
_ATTACK_EVENTS: dict[int, Event] = {}
_THROW_EVENTS: dict[int, Event] = {}
_BEAT_EVENTS: dict[int, Event] = {}
_DRAW_EVENTS = tuple(
    tuple(Event("draw", s, value=k) for k in range(HAND_SIZE + 1)) for s in range(6)
)
