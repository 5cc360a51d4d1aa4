"""The 101 engine: a whole match, round after round, until one player is left.

The rules are in ``docs/rules/101.md``; this docstring describes the data the
bot renders from.

Phases
------
``play``
    ``turn`` lays a card, draws or passes.  Only ``turn`` may act.
``order``
    ``turn`` has just laid the master card (or, in English durak, a card of an
    ace's suit on the ace) and orders a suit.  Only ``turn`` may act.
``round_over``
    The round has been scored; the hands left are shown to everybody.  Every
    remaining (not eliminated) player may act with "next round"; the first such
    action deals the next round, led by the last round's winner (or, if he
    has left the match since, the next player still in it).
``over``
    The match is decided.  Nobody acts.

A player may leave the match at any time but the end (:meth:`HundredOne.resign`):
he is eliminated at once, as if over the ceiling (see ``docs/rules/101.md``).

Actions (see :mod:`games.hundred_one.actions`): ``p<card>`` play, ``o<suit>``
order, ``d`` draw, ``x`` pass, ``n`` next round.

Views: see :mod:`games.hundred_one.views`; the saved state:
:mod:`games.hundred_one.persistence`.

Zones: ``stock`` (nobody), ``discard_top`` and ``discard`` (the cards under it;
everybody, they were all seen being played), ``hand<seat>`` (its owner; everybody
in the ``round_over``/``over`` phases, when hands are shown for counting).

Events (by ``kind``): ``deal`` (seat = leader, value = round), ``play``
(seat, cards), ``order`` (seat, value = suit), ``draw`` (seat, value = count;
never the cards), ``pass`` (seat), ``skip`` (seat that misses his turn),
``again`` (seat that moves again), ``penalty_draw`` (seat that draws, value =
count), ``reshuffle`` (value = cards turned into the new stock), ``blocked``
(the round cannot end, or has lasted ``ROUND_MOVES`` moves, value
``"too_long"``, and is stopped, see the docs; seat = who was on move),
``round_over`` (one per player of the round: seat, target = the round's winner,
who leads the next one, value = his points for the round, cards = his hand
shown), ``reset`` (seat, total hit the ceiling exactly), ``eliminated`` (seat,
value = total), ``match_over`` (seat = winner), ``resign`` (seat that leaves the
match; ``eliminated`` follows, then ``match_over`` if one player is left).

Illegal actions raise :class:`~games.core.IllegalAction` with one of the
reasons ``illegal.game_over``, ``illegal.not_your_turn``,
``illegal.wrong_phase``, ``illegal.no_such_card``, ``illegal.card_does_not_fit``,
``illegal.must_play`` (drawing while a card fits, or facing an ace),
``illegal.nothing_to_draw``, ``illegal.cannot_pass`` (passing while a card fits
or something can be drawn), ``illegal.suit_not_allowed`` (English durak: the
ace's suit may not be ordered); :meth:`HundredOne.resign` raises
``illegal.game_over`` or ``illegal.not_in_game`` (the seat is eliminated).
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Self

from games.cards import SUITS, Card, Rank, Suit, deck
from games.core import Event, GamePackage, IllegalAction, Outcome, Wait, Zone
from games.hundred_one import persistence, positions, views
from games.hundred_one.actions import (
    DRAW,
    NEXT_ROUND,
    ORDERS,
    PASS,
    Draw,
    HundredOneAction,
    NextRound,
    Order,
    Pass,
    Play,
    decode,
    play_of,
)
from games.hundred_one.effects import (
    card_points,
    effect,
    queen_credit,
)
from games.hundred_one.rules import DrawMode, HundredOneRules, Scoring
from games.hundred_one.state import ROUND_MOVES, HundredOneState, LastRound, Phase
from games.hundred_one.views import HundredOnePublicView, HundredOneSeatView

__all__ = ["HundredOne", "Phase", "card_points", "effect", "queen_credit"]

_ORDER = operator.attrgetter("order")
_PHASE_NUMBER = {phase: n for n, phase in enumerate(Phase)}
_SUIT_NUMBER: dict[Suit | None, int] = {None: -1} | {s: n for n, s in enumerate(SUITS)}
_TURNED_ONE = 1
"""A one-card pile was turned into the stock (nothing shuffled)."""
_TURNED_MANY = 2
"""A pile of two or more cards was shuffled into the stock."""
_FINGERPRINT_BITS = (1 << 63) - 1
"""Fingerprints are kept positive and within 63 bits (JSON, SQLite)."""


class HundredOne(GamePackage[HundredOnePublicView, HundredOneSeatView], HundredOneState):
    """A 101 match.  See the module docstring for views, zones and events."""

    key: ClassVar[str] = "101"
    FORMAT: ClassVar[int] = 2
    __slots__ = ()
    _VIEWS = views
    _PERSISTENCE = persistence
    # _zc, _last and _rounds are replaced, never changed in place;
    # _turned is reset by every apply()
    _COPIED = ("_stock", "_discard", "_totals", "_out", "_resigned", "_forced")
    _COPIED_TWICE = ("_hands",)

    @classmethod
    def new(
        cls,
        rules: HundredOneRules,
        seats: int,
        rng: random.Random,
        *,
        previous: Outcome | None = None,
    ) -> Self:
        """Deal the first round.  Its leader is the previous match's winner when
        ``previous`` names exactly one winner among these seats, else drawn from
        ``rng``."""
        rules.validate()
        game = cls.__new__(cls)
        game._init(rules, seats, rng.getrandbits(64))
        leader = rng.randrange(seats)  # drawn even when the winner leads: the same deals
        winner = None if previous is None else previous.sole_winner(seats)
        game._deal(leader if winner is None else winner, [])
        return game

    @classmethod
    def position(
        cls,
        rules: HundredOneRules,
        hands: Sequence[str | Iterable[Card]],
        **setup: Any,
    ) -> Self:
        """A play-phase position with explicit cards, for tests and puzzles
        (see :func:`games.hundred_one.positions.build`)."""
        return positions.build(cls, rules, hands, **setup)

    # ------------------------------------------------------------ the contract

    def legal_actions(self, seat: int) -> list[HundredOneAction]:
        phase = self._phase
        if phase is Phase.PLAY:
            if seat != self._turn:
                return []
            actions: list[HundredOneAction] = [play_of(c) for c in self._playable()]
            if self._answer:
                actions.append(PASS)
            elif not actions:
                actions.append(DRAW if self._drawable(seat) else PASS)
            return actions
        if phase is Phase.ORDER:
            if seat != self._turn:
                return []
            return [ORDERS[s] for s in SUITS if s is not self._excl]
        if phase is Phase.ROUND_OVER and 0 <= seat < self._n and not self._out[seat]:
            return [NEXT_ROUND]
        return []

    def apply(self, seat: int, action: HundredOneAction) -> list[Event]:
        self._zc = None
        in_round = self._phase is Phase.PLAY or self._phase is Phase.ORDER
        # Only a record kept since the last choice needs to know of this one.
        free = bool(self._forced) and in_round and self._has_choice(seat)
        shuffles = self._shuffles
        self._turned = 0
        events = self._apply(seat, action)
        if in_round and (self._phase is Phase.PLAY or self._phase is Phase.ORDER):
            turned = self._turned
            if free or turned & _TURNED_MANY:
                self._forced = []
            self._round_moves += 1
            if turned == _TURNED_ONE and self._note_renewal():
                self._end_blocked(events)
            elif self._round_moves >= ROUND_MOVES:
                self._end_blocked(events, too_long=True)
        elif self._shuffles != shuffles:
            self._forced = []  # a new round was dealt
        return events

    def _has_choice(self, seat: int) -> bool:
        """Whether ``seat`` (on move) has more than one legal action, as
        :meth:`legal_actions` would list them, without building them."""
        if self._phase is Phase.ORDER or seat != self._turn:
            return self._phase is Phase.ORDER
        fits = len(self._playable())
        return fits + self._answer > 1

    def _note_renewal(self) -> bool:
        """Record the position after a move that turned a one-card pile into
        the stock; True when it was met before since the last free choice.

        Then nobody has chosen anything since, and no shuffle could change the
        order of the cards (a free choice or a shuffle of two or more cards
        clears the record), so the same moves come round for ever: the round
        cannot end (see the docs, "a blocked round").  Every endless loop
        turns the pile: cards only come back to a hand through the stock."""
        position = self._position_key()
        if position in self._forced:
            return True
        self._forced.append(position)
        return False

    def _apply(self, seat: int, action: HundredOneAction) -> list[Event]:
        phase = self._phase
        if phase is Phase.OVER:
            raise IllegalAction("illegal.game_over")
        if not 0 <= seat < self._n or self._out[seat]:
            raise IllegalAction("illegal.not_your_turn")
        events: list[Event] = []
        if phase is Phase.ROUND_OVER:
            if not isinstance(action, NextRound):
                raise IllegalAction("illegal.wrong_phase")
            self._round += 1
            leader = self._last_winner
            if self._out[leader]:  # he left the match after winning the round
                leader = self._next(leader)
            self._deal(leader, events)
            return events
        if seat != self._turn:
            raise IllegalAction("illegal.not_your_turn")
        if phase is Phase.ORDER:
            if not isinstance(action, Order):
                raise IllegalAction("illegal.wrong_phase")
            if action.suit is self._excl:
                raise IllegalAction("illegal.suit_not_allowed", suit=action.suit.value)
            self._order(seat, action.suit, events)
            return events
        # play phase
        if isinstance(action, Play):
            card = action.card
            if card not in self._hands[seat]:
                raise IllegalAction("illegal.no_such_card", card=card.code)
            if not self._allowed(card):
                raise IllegalAction("illegal.card_does_not_fit", card=card.code)
            self._play(seat, card, events)
        elif isinstance(action, Draw):
            if self._answer or self._playable():
                raise IllegalAction("illegal.must_play")
            if not self._drawable(seat):
                raise IllegalAction("illegal.nothing_to_draw")
            self._draw(seat, events)
        elif isinstance(action, Pass):
            if self._answer:
                self._answer = False
                events.append(Event("skip", seat=seat))
                self._turn = self._next(seat)
            elif self._playable() or self._drawable(seat):
                raise IllegalAction("illegal.cannot_pass")
            else:
                events.append(Event("pass", seat=seat))
                self._follow = None
                self._turn = self._next(seat)
        else:
            raise IllegalAction("illegal.wrong_phase")
        return events

    def waits(self) -> Mapping[int, Wait]:
        """The seat on move decides; between rounds every remaining player
        only has to let the next round come (anyone may deal it)."""
        phase = self._phase
        if phase is Phase.PLAY or phase is Phase.ORDER:
            return {self._turn: Wait.DECIDE}
        if phase is Phase.ROUND_OVER:
            return dict.fromkeys(self.to_move(), Wait.CONSENT)
        return {}

    def default_action(self, seat: int) -> HundredOneAction:
        """Play: the lowest card that may be laid (by rank, then suit order),
        else draw, else pass.  Order: the suit he holds most of (ties: suit
        order), among the suits he may order.  Between rounds: next round."""
        phase = self._phase
        if phase is Phase.OVER:
            raise IllegalAction("illegal.game_over")
        if phase is Phase.ROUND_OVER:
            if 0 <= seat < self._n and not self._out[seat]:
                return NEXT_ROUND
        elif seat == self._turn:
            if phase is Phase.ORDER:
                counts = dict.fromkeys(SUITS, 0)
                for card in self._hands[seat]:
                    if card.suit is not None:
                        counts[card.suit] += 1
                best: Suit | None = None
                for suit in SUITS:
                    if suit is not self._excl and (best is None or counts[suit] > counts[best]):
                        best = suit
                assert best is not None
                return ORDERS[best]
            playable = self._playable()
            if playable:
                return play_of(min(playable, key=_ORDER))
            if not self._answer and self._drawable(seat):
                return DRAW
            return PASS
        raise IllegalAction("illegal.not_your_turn")

    def resign(self, seat: int) -> list[Event]:
        """``seat`` leaves the match: eliminated at once, as if over the
        ceiling.  During a round his hand goes face down under the stock, an
        effect waiting for him lapses, and if he was on move (or about to
        order) the turn passes to the next player with nothing ordered.  With
        one player left the match is over and he wins."""
        phase = self._phase
        if phase is Phase.OVER:
            raise IllegalAction("illegal.game_over")
        if not 0 <= seat < self._n or self._out[seat]:
            raise IllegalAction("illegal.not_in_game")
        self._zc = None
        scored = phase is Phase.ROUND_OVER
        on_move = not scored and seat == self._turn
        if not scored:
            hand = self._hands[seat]
            self._stock[:0] = hand
            self._hands[seat] = []
            if (
                phase is Phase.ORDER
                and not on_move
                and not self._after[2]
                and self._next(self._turn) == seat
            ):
                self._after = (0, False, False)  # the effect the order was to bring him
        self._out[seat] = self._round
        self._resigned.append((seat, scored))
        # One event: "eliminated" beside it would tell the group twice.
        events = [Event("resign", seat=seat)]
        players = self._players()
        if len(players) <= 1:
            self._phase = Phase.OVER
            self._clear_effects()
            events.append(Event("match_over", seat=players[0]))
        elif on_move:
            self._phase = Phase.PLAY
            self._clear_effects()
            self._turn = self._next(seat)
        return events

    def _clear_effects(self) -> None:
        self._ordered = None
        self._excl = None
        self._follow = None
        self._answer = False
        self._after = (0, False, False)

    def determinize(self, observer: int, rng: random.Random) -> Self:
        """Deal anew what ``observer`` cannot see: during a round the other
        hands and the stock (sizes kept), between rounds and at the end only
        the stock (the hands are shown).  Later stock renewals and deals get a
        new seed from ``rng``."""
        if not 0 <= observer < self._n:
            raise IndexError(f"no seat {observer}")
        game = self.clone()
        game._zc = None
        game._seed = rng.getrandbits(64)
        game._shuffles = 0
        pool = game._stock
        if self._phase is Phase.PLAY or self._phase is Phase.ORDER:
            hands = game._hands
            seats = [s for s in range(self._n) if s != observer and hands[s]]
            for s in seats:
                pool.extend(hands[s])
            pool.sort()  # what the observer knows decides the deal, never where cards lie
            rng.shuffle(pool)
            for s in seats:
                k = len(hands[s])
                hands[s] = pool[-k:]
                del pool[-k:]
        else:
            pool.sort()
            rng.shuffle(pool)
        return game

    def zones(self) -> list[Zone]:
        zones = self._zc
        if zones is None:
            shown = self._phase is Phase.ROUND_OVER or self._phase is Phase.OVER
            discard = self._discard
            zones = [
                Zone("stock", tuple(self._stock), frozenset()),
                Zone("discard_top", tuple(discard[-1:]), None),
                Zone("discard", tuple(discard[:-1]), None),
            ]
            for seat, hand in enumerate(self._hands):
                seen = None if shown else frozenset((seat,))
                zones.append(Zone(f"hand{seat}", tuple(hand), seen))
            self._zc = zones
        return zones[:]

    def hand_size(self, seat: int) -> int:
        return len(self._hands[seat])

    def known_cards(self, observer: int) -> dict[int, list[Card]]:
        """Nobody knows another's cards during a round; between rounds (and at
        the end) the hands left are shown to everybody."""
        if self._phase is not Phase.ROUND_OVER and self._phase is not Phase.OVER:
            return {}
        return {s: list(h) for s, h in enumerate(self._hands) if s != observer and h}

    @classmethod
    def decode_action(cls, text: str) -> HundredOneAction:
        return decode(text)

    # ----------------------------------------------------------------- moves

    def _rng(self) -> random.Random:
        rng = random.Random(self._seed + (self._shuffles << 64))
        self._shuffles += 1
        return rng

    def _deal(self, leader: int, events: list[Event]) -> None:
        """Deal a round: one card at a time from the leader's left, the leader
        (who acts as dealer) last."""
        self._zc = None
        cards = deck(self.rules.deck)
        self._rng().shuffle(cards)
        n = self._n
        order = [(leader + i) % n for i in range(1, n + 1)]
        order = [s for s in order if not self._out[s]]
        self._hands = [[] for _ in range(n)]
        for _ in range(self.rules.hand):
            for s in order:
                self._hands[s].append(cards.pop())
        self._stock = cards
        self._discard = []
        self._forced = []
        self._round_moves = 0
        self._phase = Phase.PLAY
        self._turn = leader
        self._leader = leader
        self._ordered = None
        self._excl = None
        self._follow = None
        self._answer = False
        self._after = (0, False, False)
        events.append(Event("deal", seat=leader, value=self._round))
        if self.rules.dealer_upcard:
            self._play(leader, self._hands[leader][-1], events)

    def _take(self, events: list[Event]) -> Card | None:
        """Take the stock's top card, turning the discard pile (all but its top
        card) into a new stock first when the stock is empty."""
        if not self._stock:
            discard = self._discard
            if len(discard) <= 1:
                return None
            pile = discard[:-1]
            self._turned |= _TURNED_ONE if len(pile) == 1 else _TURNED_MANY
            del discard[:-1]
            self._rng().shuffle(pile)
            self._stock = pile
            events.append(Event("reshuffle", value=len(pile)))
        return self._stock.pop()

    def _position_key(self) -> int:
        """A fingerprint of everything the round's future depends on: who holds
        which cards, the stock and the pile in order, whose move it is and
        every effect pending."""
        key = (
            tuple(tuple(sorted(c.order for c in h)) for h in self._hands),
            tuple(c.order for c in self._stock),
            tuple(c.order for c in self._discard),
            self._turn,
            _PHASE_NUMBER[self._phase],
            _SUIT_NUMBER[self._ordered],
            _SUIT_NUMBER[self._excl],
            _SUIT_NUMBER[self._follow],
            self._answer,
            self._after,
        )
        # Ints and bools only: their hashes are the same in every process
        # (str and None hashes are not), so a saved fingerprint stays valid.
        return hash(key) & _FINGERPRINT_BITS

    def _penalty(self, seat: int, count: int, events: list[Event]) -> None:
        hand = self._hands[seat]
        got = 0
        for _ in range(count):
            card = self._take(events)
            if card is None:
                break
            hand.append(card)
            got += 1
        events.append(Event("penalty_draw", seat=seat, value=got))

    def _advance(
        self, seat: int, draw: int, skip: bool, again: bool, answer: bool, events: list[Event]
    ) -> None:
        """Carry out a laid card's effect on the next player and pass the turn."""
        target = self._next(seat)
        if draw:
            self._penalty(target, draw, events)
        if again:
            events.append(Event("again", seat=seat))
            self._turn = seat
        elif skip:
            events.append(Event("skip", seat=target))
            self._turn = self._next(target)
        else:
            self._turn = target
            self._answer = answer

    def _play(self, seat: int, card: Card, events: list[Event]) -> None:
        hand = self._hands[seat]
        top = self._discard[-1] if self._discard else None
        hand.remove(card)
        self._discard.append(card)
        events.append(Event("play", seat=seat, cards=(card,)))
        self._ordered = None
        self._follow = None
        self._answer = False
        draw, skip, again, answer = self._fx[card]
        if not hand:
            self._end_round(seat, card, draw, events)
        elif card.rank is self._master:
            self._phase = Phase.ORDER
            self._excl = None
            self._after = (0, self.rules.order_skip, False)
        elif self._english and top is not None and top.rank is Rank.ACE and card.suit is top.suit:
            self._phase = Phase.ORDER
            self._excl = top.suit
            self._after = (draw, skip, again)
        elif self._english and card.rank is Rank.ACE:
            self._follow = card.suit
        else:
            self._advance(seat, draw, skip, again, answer, events)

    def _order(self, seat: int, suit: Suit, events: list[Event]) -> None:
        events.append(Event("order", seat=seat, value=suit.value))
        self._phase = Phase.PLAY
        self._ordered = suit
        self._excl = None
        draw, skip, again = self._after
        self._after = (0, False, False)
        self._advance(seat, draw, skip, again, False, events)

    def _draw(self, seat: int, events: list[Event]) -> None:
        hand = self._hands[seat]
        follow = self._follow
        count = 0
        fits = False
        if follow is not None or self.rules.draw is DrawMode.ONE:
            card = self._take(events)
            if card is not None:
                hand.append(card)
                count = 1
                fits = card.suit is follow if follow is not None else self._fits(card)
        else:
            while True:
                card = self._take(events)
                if card is None:
                    break
                hand.append(card)
                count += 1
                if self._fits(card):
                    fits = True
                    break
        events.append(Event("draw", seat=seat, value=count))
        if not fits:
            events.append(Event("pass", seat=seat))
            self._follow = None
            self._turn = self._next(seat)

    # ---------------------------------------------------------------- scoring

    def _end_round(self, winner: int, card: Card, draw: int, events: list[Event]) -> None:
        """``winner`` has laid his last card, ``card``."""
        rules = self.rules
        if draw and rules.finish_draw:
            self._penalty(self._next(winner), draw, events)
        bonus = 0
        if self._master is Rank.QUEEN and card.rank is Rank.QUEEN:
            bonus = -queen_credit(rules, card)
        doubled = self._master is Rank.JACK and card.rank is Rank.JACK
        points = {s: self._hand_points(s) * (2 if doubled else 1) for s in self._players()}
        points[winner] = bonus
        self._score(winner, {winner}, points, doubled, False, events)

    def _end_blocked(self, events: list[Event], *, too_long: bool = False) -> None:
        """Nobody can go on, or the round has lasted :data:`ROUND_MOVES` moves
        (see the docs): the lowest hands win the round."""
        events.append(Event("blocked", seat=self._turn, value="too_long" if too_long else None))
        points = {s: self._hand_points(s) for s in self._players()}
        low = min(points.values())
        winners = {s for s, p in points.items() if p == low}
        leader = self._turn
        while leader not in winners:
            leader = self._next(leader)
        for s in winners:
            points[s] = 0
        self._score(leader, winners, points, False, True, events, too_long=too_long)

    def _players(self) -> list[int]:
        return [s for s in range(self._n) if not self._out[s]]

    def _hand_points(self, seat: int) -> int:
        """Penalty points of the cards ``seat`` holds: the only-queens rule, or
        (option) the queens discarded together, each taking points off."""
        hand = self._hands[seat]
        rules = self.rules
        if self._master is Rank.QUEEN:
            if rules.queen_discard:
                return sum(
                    -queen_credit(rules, c) if c.rank is Rank.QUEEN else card_points(rules, c)
                    for c in hand
                )
            if hand and all(c.rank is Rank.QUEEN for c in hand):
                return len(hand) * (30 if rules.scoring is Scoring.PHARAOH else 20)
        return sum(card_points(rules, c) for c in hand)

    def _score(
        self,
        winner: int,
        winners: set[int],
        points: dict[int, int],
        doubled: bool,
        blocked: bool,
        events: list[Event],
        *,
        too_long: bool = False,
    ) -> None:
        """Close the round: record ``points``, reset or eliminate, and either
        wait for the next round (led by ``winner``) or end the match.
        ``winners`` (who score nothing) are never eliminated."""
        rules = self.rules
        self._phase = Phase.ROUND_OVER
        self._ordered = None
        self._excl = None
        self._follow = None
        self._answer = False
        self._after = (0, False, False)
        self._last_winner = winner
        players = self._players()
        penalties: list[int | None] = [None] * self._n
        for s in players:
            penalties[s] = points[s]
            hand = tuple(self._hands[s])
            events.append(Event("round_over", seat=s, target=winner, cards=hand, value=points[s]))
        reset: list[int] = []
        gone: list[int] = []
        for s in players:
            total = self._totals[s] + points[s]
            if (rules.exact_reset and total == rules.ceiling) or (
                rules.minus_reset and total == -rules.ceiling
            ):
                total = 0
                reset.append(s)
                events.append(Event("reset", seat=s, value=0))
            self._totals[s] = total
            if s in winners:
                continue
            jack = self._master is Rank.JACK and any(c.rank is Rank.JACK for c in self._hands[s])
            if total >= rules.ceiling or jack:
                gone.append(s)
        for s in gone:
            self._out[s] = self._round
            events.append(Event("eliminated", seat=s, value=self._totals[s]))
        self._last = LastRound(
            winner,
            tuple(penalties),
            doubled,
            blocked,
            tuple(reset),
            tuple(gone),
            too_long,
            self._round,
            tuple(self._totals),
        )
        self._rounds = (*self._rounds, self._last)
        if len(players) - len(gone) <= 1:
            self._phase = Phase.OVER
            events.append(Event("match_over", seat=winner))
