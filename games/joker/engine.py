"""The Joker engine: a whole game of 24 deals (or 16, or 12) and its score sheet.

The rules are in ``docs/rules/joker.md``; the views, zones and events the bot
renders from are described in :mod:`games.joker.views`.

Phases of a deal
----------------
``deal``
    The dealer deals (:class:`~games.joker.actions.Deal`).  Before the first
    deal the cards of the first-dealer draw lie face up; between deals the
    last trick and the deal's results are still on the table.
``trump``
    Nine-card deals with four players: every player holds his first three
    cards; the player left of the dealer names the trump or no trump, then
    the other six cards each are dealt.
``bid``
    From the dealer's left, the dealer last: 0..cards tricks; the dealer may
    not make the bids add up to the number of cards.
``play``
    The first bidder leads; the winner of a trick leads the next one.  A
    finished trick stays on the table until the next lead (or the next deal).
``over``
    After the last deal, or when a player left.

Cards are bits (:mod:`games.joker.cards`), hands ``int`` masks.

Illegal actions raise :class:`~games.core.IllegalAction` with one of the
reasons ``illegal.game_over``, ``illegal.not_your_turn``,
``illegal.wrong_phase``, ``illegal.not_in_hand``, ``illegal.must_follow``
(param ``suit``: the suit's symbol, ♠), ``illegal.must_play_highest``
(``suit``), ``illegal.must_trump`` (``suit``), ``illegal.joker_lead_last``,
``illegal.no_face_value`` (a joker at face value without the option),
``illegal.not_leading`` (a joker led while following),
``illegal.leading`` (a joker followed while leading),
``illegal.bid_too_high`` (``n``), ``illegal.forbidden_bid`` (``n``);
:meth:`Joker.resign` raises ``illegal.game_over``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import ClassVar, Self

from games.cards import SUITS, Card, Rank, Suit, parse_cards
from games.core import (
    Event,
    GamePackage,
    IllegalAction,
    Outcome,
    Wait,
    Zone,
)
from games.joker import persistence, views
from games.joker.actions import (
    BIDS,
    DEAL,
    FACES,
    FOLLOWS,
    LEADS,
    PLAYS,
    TRUMPS,
    Bid,
    ChooseTrump,
    Deal,
    FaceValue,
    FollowJoker,
    JokerAction,
    LeadJoker,
    Play,
    decode,
)
from games.joker.cards import (
    BIT,
    CARD,
    DECK,
    FACE_BIT,
    JOKER_BITS,
    JOKERS,
    SUIT_INDEX,
    SUIT_MASK,
    bits_of,
)
from games.joker.rules import JokerRules
from games.joker.scoring import PulkaRecord, SheetRow, deal_points, premium
from games.joker.state import (
    FACE,
    FOLLOW_HIGH,
    FOLLOW_LOW,
    LEAD_HIGH,
    LEAD_TAKES,
    NO_TRUMP,
    NOBODY,
    NORMAL,
    ONLY,
    JokerState,
    Phase,
)
from games.joker.views import JokerPublicView, JokerSeatView

__all__ = ["Joker"]

# Python 3.11 looks up every attribute of an enum class through
# ``EnumType.__getattr__``, ten times slower than a global; the moves test the
# phase often, so they compare with these.
_DEAL = Phase.DEAL
_TRUMP = Phase.TRUMP
_BID = Phase.BID
_PLAY = Phase.PLAY
_OVER = Phase.OVER


FIRST_TRUMP_CARDS = 3
"""Cards the trump chooser sees before naming the trump in nine-card deals."""

_PACK: tuple[int, ...] = tuple(BIT[c] for c in DECK)
_ACE = Rank.ACE - 6
_SUIT_PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(
        tuple(PLAYS[s * 9 + r] for r in range(9) if m >> r & 1 and s * 9 + r in PLAYS)
        for m in range(512)
    )
    for s in range(4)
)
"""``_SUIT_PLAYS[suit][9-bit mask]``: the plays of those cards of the suit, lowest first."""
_LEAD_LISTS: dict[int, tuple[LeadJoker, ...]] = {
    j: tuple(LEADS[(j, high, s)] for high in (True, False) for s in range(4)) for j in JOKER_BITS
}
_FOLLOW_LISTS: dict[int, tuple[FollowJoker, ...]] = {
    j: (FOLLOWS[(j, True)], FOLLOWS[(j, False)]) for j in JOKER_BITS
}
_MODE_VALUE = {
    LEAD_HIGH: "high",
    LEAD_TAKES: "takes",
    FOLLOW_HIGH: "high",
    FOLLOW_LOW: "low",
    FACE: "face",
}
_DEAL_TRIES = 30
"""Random deals :meth:`Joker.determinize` tries before it deals to order."""


def suit_letter(index: int) -> str:
    return "none" if index < 0 else SUITS[index].value


def _cards(items: Iterable[Card | str] | str) -> list[Card]:
    if isinstance(items, str):
        return parse_cards(items.replace(" ", ""))
    return [c if isinstance(c, Card) else Card.parse(c) for c in items]


def _mask(cards: Iterable[Card]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << BIT[c]
    return mask


class Joker(GamePackage[JokerPublicView, JokerSeatView], JokerState):
    """A game of Joker.  See the module docstring and :mod:`games.joker.views`."""

    key: ClassVar[str] = "joker"
    FORMAT: ClassVar[int] = 1
    __slots__ = ()
    _VIEWS = views
    _PERSISTENCE = persistence
    _COPIED = (
        "_hands",
        "_stock",
        "_bids",
        "_tricks",
        "_trick",
        "_void",
        "_draw",
        "_totals",
    )

    @classmethod
    def new(
        cls,
        rules: JokerRules,
        seats: int,
        rng: random.Random,
        *,
        previous: Outcome | None = None,
    ) -> Self:
        """The first dealer is drawn ("тузование"): the top card of a shuffled
        pack is laid in the middle, then cards are dealt face up from seat 0
        clockwise until somebody gets an ace; he deals first."""
        rules.validate()
        game = cls.__new__(cls)
        game._init(rules, seats, rng.getrandbits(64))
        pack = list(_PACK)
        rng.shuffle(pack)
        draw = [(-1, pack[0])]
        i, seat = 1, 0
        while True:
            bit = pack[i]
            draw.append((seat, bit))
            i += 1
            if bit < 36 and bit % 9 == _ACE:
                break
            seat = (seat + 1) % seats
        game._draw = draw
        game._stock = pack[i:][::-1]
        game._dealer = game._turn = seat
        game._tm = ONLY[seat]
        return game

    @classmethod
    def position(
        cls,
        rules: JokerRules,
        hands: Sequence[Iterable[Card | str] | str],
        *,
        trump: Suit | str | None,
        dealer: int = 0,
        deal: int | None = None,
        bids: Sequence[int | None] | None = None,
        tricks: Sequence[int] | None = None,
        leader: int | None = None,
        void: Mapping[int, str] | None = None,
        seed: int = 0,
    ) -> Self:
        """A position in the middle of a deal, for tests and puzzles.

        ``hands[seat]`` are each seat's cards (codes, or one string such as
        ``"As Kh X1"``); ``trump`` a suit (``"h"``) or None for no trump;
        ``deal`` the index of the deal in the schedule (default: the first
        whose card count is the hands' size).  With ``bids`` missing or not
        complete the deal is in the bid phase, the next bidder on move;
        complete, it is in the play phase and ``leader`` (default: the
        dealer's left) leads the next trick, with ``tricks`` taken so far.
        Every other card of the deck lies face down among the tricks taken.
        """
        n = len(hands)
        game = cls.__new__(cls)
        game._init(rules, n, seed)
        hand_cards = [_cards(h) for h in hands]
        listed = [c for h in hand_cards for c in h]
        if len(set(listed)) != len(listed) or any(c not in BIT for c in listed):
            raise ValueError("a card is repeated or not in the Joker deck")
        size = max(len(h) for h in hand_cards)
        if deal is None:
            deal = next((i for i, c in enumerate(game._cards) if c == size), None)
            if deal is None:
                raise ValueError(f"no deal of {size} cards in this game")
        if any(len(h) > game._cards[deal] for h in hand_cards):
            raise ValueError("a hand holds more cards than the deal gives")
        game._deal = deal
        game._dealer = dealer
        game._hands = [_mask(h) for h in hand_cards]
        game._taken = _mask(c for c in DECK if c not in set(listed))
        if isinstance(trump, str):
            trump = None if trump == "none" else Suit(trump)
        game._trump = NO_TRUMP if trump is None else SUIT_INDEX[trump]
        game._tricks = list(tricks) if tricks is not None else [0] * n
        for seat, suits in (void or {}).items():
            for letter in suits:
                game._void[seat] |= 1 << SUIT_INDEX[Suit(letter)]
        given = list(bids) if bids is not None else []
        game._bids = [-1 if b is None else b for b in given] + [-1] * (n - len(given))
        order = [(dealer + 1 + k) % n for k in range(n)]
        waiting = [s for s in order if game._bids[s] < 0]
        if waiting:
            game._phase = _BID
            game._turn = waiting[0]
        else:
            game._phase = _PLAY
            game._turn = order[0] if leader is None else leader
        game._tm = ONLY[game._turn]
        return game

    # ------------------------------------------------------------ the contract

    def waits(self) -> Mapping[int, Wait]:
        """Whoever is on move decides (dealing included)."""
        if self._phase is _OVER:
            return {}
        return {self._turn: Wait.DECIDE}

    def legal_actions(self, seat: int) -> list[JokerAction]:
        if seat != self._turn or self._phase is _OVER:
            return []
        phase = self._phase
        if phase is _PLAY:
            return self._plays(seat)
        if phase is _BID:
            return [BIDS[k] for k in self._allowed_bids(seat)]
        if phase is _TRUMP:
            return [TRUMPS[0], TRUMPS[1], TRUMPS[2], TRUMPS[3], TRUMPS[-1]]
        return [DEAL]

    def _plays(self, seat: int) -> list[JokerAction]:
        hand = self._hands[seat]
        normal = hand & ~JOKERS
        out: list[JokerAction] = []
        leading = not self._trick or self._done
        mask = normal if leading else self._follow_mask(normal)
        for s in range(4):
            part = (mask >> (9 * s)) & 0x1FF
            if part:
                out.extend(_SUIT_PLAYS[s][part])
        jokers = hand & JOKERS
        if jokers:
            if leading:
                if not self.rules.joker_lead_last or not normal:
                    for j in JOKER_BITS:
                        if jokers >> j & 1:
                            out.extend(_LEAD_LISTS[j])
            else:
                for j in JOKER_BITS:
                    if jokers >> j & 1:
                        out.extend(_FOLLOW_LISTS[j])
            if self.rules.face_value:
                for j in JOKER_BITS:
                    if jokers >> j & 1 and (leading or self._face_legal(normal, j)):
                        out.append(FACES[j])
        return out

    def _face_legal(self, normal: int, joker: int) -> bool:
        """May ``joker`` follow at face value: would its six be a legal card
        in a hand of ``normal`` and that six?  (The jokers held never oblige
        anything: a joker may always be played as a joker.)"""
        six = FACE_BIT[joker]
        return bool(self._follow_mask(normal | 1 << six) >> six & 1)

    def _follow_mask(self, normal: int) -> int:
        """The ordinary cards a follower may play."""
        led = normal & SUIT_MASK[self._lead_suit]
        if led:
            if self._lead_high:
                return 1 << (led.bit_length() - 1)
            return led
        if self._trump >= 0:
            trumps = normal & SUIT_MASK[self._trump]
            if trumps:
                return trumps
        return normal

    def _allowed_bids(self, seat: int) -> list[int]:
        cards = self._cards[self._deal]
        bids = list(range(cards + 1))
        if seat == self._dealer:
            forbidden = cards - sum(b for s, b in enumerate(self._bids) if s != seat and b > 0)
            if 0 <= forbidden <= cards:
                bids.remove(forbidden)
        return bids

    def apply(self, seat: int, action: JokerAction) -> list[Event]:
        phase = self._phase
        if phase is _OVER:
            raise IllegalAction("illegal.game_over")
        if seat != self._turn:
            raise IllegalAction("illegal.not_your_turn")
        if isinstance(action, Play):
            if phase is not _PLAY:
                raise IllegalAction("illegal.wrong_phase")
            bit = BIT.get(action.card, 36)
            if bit >= 36 or not self._hands[seat] >> bit & 1:
                raise IllegalAction("illegal.not_in_hand", card=action.card.code)
            if self._trick and not self._done:
                self._check_follow(seat, bit)
            return self._play(seat, bit, NORMAL, -1)
        if type(action) is FaceValue:
            if phase is not _PLAY:
                raise IllegalAction("illegal.wrong_phase")
            if not self.rules.face_value:
                raise IllegalAction("illegal.no_face_value")
            bit = BIT[action.card]
            if not self._hands[seat] >> bit & 1:
                raise IllegalAction("illegal.not_in_hand", card=action.card.code)
            six = FACE_BIT[bit]
            if self._trick and not self._done:
                self._check_follow(seat, six, self._hands[seat] & ~JOKERS | 1 << six)
            return self._play(seat, bit, FACE, six // 9)
        kind = type(action)
        if kind is LeadJoker or kind is FollowJoker:
            if phase is not _PLAY:
                raise IllegalAction("illegal.wrong_phase")
            assert isinstance(action, LeadJoker | FollowJoker)
            bit = BIT[action.card]
            if not self._hands[seat] >> bit & 1:
                raise IllegalAction("illegal.not_in_hand", card=action.card.code)
            leading = not self._trick or self._done
            if isinstance(action, LeadJoker):
                if not leading:
                    raise IllegalAction("illegal.not_leading")
                if self.rules.joker_lead_last and self._hands[seat] & ~JOKERS:
                    raise IllegalAction("illegal.joker_lead_last")
                mode = LEAD_HIGH if action.high else LEAD_TAKES
                return self._play(seat, bit, mode, SUIT_INDEX[action.suit])
            if leading:
                raise IllegalAction("illegal.leading")
            return self._play(seat, bit, FOLLOW_HIGH if action.high else FOLLOW_LOW, -1)
        if kind is Bid:
            if phase is not _BID:
                raise IllegalAction("illegal.wrong_phase")
            assert isinstance(action, Bid)
            return self._bid(seat, action.tricks)
        if kind is ChooseTrump:
            if phase is not _TRUMP:
                raise IllegalAction("illegal.wrong_phase")
            assert isinstance(action, ChooseTrump)
            return self._choose_trump(seat, -1 if action.suit is None else SUIT_INDEX[action.suit])
        if kind is Deal:
            if phase is not _DEAL:
                raise IllegalAction("illegal.wrong_phase")
            return self._deal_cards()
        raise IllegalAction("illegal.wrong_phase")

    def _check_follow(self, seat: int, bit: int, normal: int = -1) -> None:
        """Refuse ordinary card ``bit`` if it may not follow; ``normal`` is
        the hand's ordinary cards (default: the hand without its jokers)."""
        if normal < 0:
            normal = self._hands[seat] & ~JOKERS
        if self._follow_mask(normal) >> bit & 1:
            return
        suit = SUITS[self._lead_suit].symbol
        if normal & SUIT_MASK[self._lead_suit]:
            if self._lead_high:
                raise IllegalAction("illegal.must_play_highest", suit=suit)
            raise IllegalAction("illegal.must_follow", suit=suit)
        raise IllegalAction("illegal.must_trump", suit=SUITS[self._trump].symbol)

    def default_action(self, seat: int) -> JokerAction:
        """Deal; name the suit he holds most of (ties: the higher card, then
        suit order); bid the lowest bid allowed; play the lowest legal card —
        plain suits before trumps, by rank, then suit order — and a joker only
        when nothing else may be played (led as "takes" in the first plain
        suit, followed low)."""
        if self._phase is _OVER:
            raise IllegalAction("illegal.game_over")
        if seat != self._turn:
            raise IllegalAction("illegal.not_your_turn")
        phase = self._phase
        if phase is _DEAL:
            return DEAL
        if phase is _BID:
            return BIDS[self._allowed_bids(seat)[0]]
        hand = self._hands[seat]
        if phase is _TRUMP:
            best = max(
                range(4),
                key=lambda s: (
                    (hand & SUIT_MASK[s]).bit_count(),
                    (hand & SUIT_MASK[s]) >> (9 * s),
                    -s,
                ),
            )
            return TRUMPS[best]
        normal = hand & ~JOKERS
        leading = not self._trick or self._done
        mask = normal if leading else self._follow_mask(normal)
        if mask:
            trump = self._trump

            def low(bit: int) -> tuple[bool, int, int]:
                return (bit // 9 == trump, bit % 9, bit // 9)

            return PLAYS[min(bits_of(mask), key=low)]
        joker = next(j for j in JOKER_BITS if hand >> j & 1)
        if leading:
            plain = next((s for s in range(4) if s != self._trump), 0)
            return LEADS[(joker, False, plain)]
        return FOLLOWS[(joker, False)]

    def resign(self, seat: int) -> list[Event]:
        """A player who leaves ends the game: he is placed last, the others by
        their totals so far (the deal in hand is not scored)."""
        if self._phase is _OVER:
            raise IllegalAction("illegal.game_over")
        if not 0 <= seat < self._n:
            raise IllegalAction("illegal.not_in_game")
        self._resigned = seat
        self._phase = _OVER
        self._tm = NOBODY
        outcome = self.outcome()
        assert outcome is not None
        winner = min(outcome.places[0])
        return [
            Event("resign", seat),
            Event("game_over", winner, value=self._totals[winner]),
        ]

    # ----------------------------------------------------------------- moves

    def _deal_cards(self) -> list[Event]:
        """Shuffle every card and deal one at a time from the dealer's left."""
        n = self._n
        dealer = self._dealer
        cards = self._cards[self._deal]
        pack = list(_PACK)
        random.Random((self._seed << 6) | self._deal).shuffle(pack)
        order = [(dealer + 1 + k) % n for k in range(n)]
        choose = cards == 9 and n == 4
        first = FIRST_TRUMP_CARDS if choose else cards
        hands = [0] * n
        i = 0
        for _ in range(first):
            for s in order:
                hands[s] |= 1 << pack[i]
                i += 1
        self._hands = hands
        self._stock = pack[i:][::-1]
        self._bids = [-1] * n
        self._tricks = [0] * n
        self._trick = []
        self._done = False
        self._lead_suit = -1
        self._lead_high = False
        self._taken = 0
        self._void = [0] * n
        self._draw = []
        self._trump_card = -1
        self._trump = NO_TRUMP
        events = [Event("deal", dealer, value=self._deal + 1)]
        if choose:
            self._phase = _TRUMP
            self._chooser = self._turn = order[0]
        else:
            card = self._stock.pop()
            self._trump_card = card
            self._trump = NO_TRUMP if card >= 36 else card // 9
            events.append(Event("trump", value=suit_letter(self._trump), cards=(CARD[card],)))
            self._phase = _BID
            self._chooser = -1
            self._turn = order[0]
        self._tm = ONLY[self._turn]
        return events

    def _choose_trump(self, seat: int, suit: int) -> list[Event]:
        n = self._n
        self._trump = suit
        stock = self._stock
        order = [(self._dealer + 1 + k) % n for k in range(n)]
        hands = self._hands
        for _ in range(self._cards[self._deal] - FIRST_TRUMP_CARDS):
            for s in order:
                hands[s] |= 1 << stock.pop()
        self._chooser = -1
        self._phase = _BID
        return [Event("trump_chosen", seat, value=suit_letter(suit))]

    def _bid(self, seat: int, tricks: int) -> list[Event]:
        cards = self._cards[self._deal]
        if tricks > cards:
            raise IllegalAction("illegal.bid_too_high", n=cards)
        if tricks not in self._allowed_bids(seat):
            raise IllegalAction("illegal.forbidden_bid", n=tricks)
        self._bids[seat] = tricks
        if seat == self._dealer:
            self._phase = _PLAY
            self._turn = (self._dealer + 1) % self._n
        else:
            self._turn = (seat + 1) % self._n
        self._tm = ONLY[self._turn]
        return [Event("bid", seat, value=tricks)]

    def _play(self, seat: int, bit: int, mode: int, suit: int) -> list[Event]:
        trick = self._trick
        if self._done:
            for entry in trick:
                self._taken |= 1 << entry[1]
            trick = self._trick = []
            self._done = False
        self._hands[seat] ^= 1 << bit
        if not trick:
            self._lead_suit = suit if bit >= 36 else bit // 9
            self._lead_high = mode == LEAD_HIGH
        elif bit < 36 or mode == FACE:
            played = bit // 9 if bit < 36 else suit
            led = self._lead_suit
            if played != led:
                self._void[seat] |= 1 << led
                trump = self._trump
                if trump >= 0 and played != trump:
                    self._void[seat] |= 1 << trump
        trick.append((seat, bit, mode, suit))
        events = [_PLAY_EVENTS[(seat, bit, mode, suit)]]
        n = self._n
        if len(trick) < n:
            self._turn = (seat + 1) % n
            self._tm = ONLY[self._turn]
            return events
        winner = self.trick_taker()
        self._tricks[winner] += 1
        self._done = True
        events.append(_TRICK_EVENTS[winner][self._tricks[winner]])
        self._turn = winner
        self._tm = ONLY[winner]
        if not self._hands[winner]:
            self._end_deal(events)
        return events

    def _end_deal(self, events: list[Event]) -> None:
        n = self._n
        rules = self.rules
        deal = self._deal
        cards = self._cards[deal]
        points = [deal_points(rules, cards, self._bids[s], self._tricks[s]) for s in range(n)]
        pulka = self._pulka_of[deal]
        row = SheetRow(
            deal=deal + 1,
            cards=cards,
            pulka=pulka + 1,
            dealer=self._dealer,
            trump=SUITS[self._trump] if self._trump >= 0 else None,
            bids=tuple(self._bids),
            tricks=tuple(self._tricks),
            points=tuple(points),
        )
        self._rows = (*self._rows, row)
        for s in range(n):
            self._totals[s] += points[s]
        events.append(Event("deal_over", value=deal + 1))
        events.extend(Event("score", s, value=points[s]) for s in range(n))
        last = deal + 1 == len(self._cards)
        if last or self._pulka_of[deal + 1] != pulka:
            self._close_pulka(pulka, events)
        if last:
            self._phase = _OVER
            self._tm = NOBODY
            outcome = self.outcome()
            assert outcome is not None
            winner = min(outcome.places[0])
            events.append(Event("game_over", winner, value=self._totals[winner]))
            return
        self._deal = deal + 1
        self._dealer = (self._dealer + 1) % n
        self._phase = _DEAL
        self._turn = self._dealer
        self._tm = ONLY[self._turn]

    def _close_pulka(self, pulka: int, events: list[Event]) -> None:
        first = next(i for i, r in enumerate(self._rows) if r.pulka == pulka + 1)
        rows = self._rows[first:]
        result = premium([r.bids for r in rows], [r.tricks for r in rows], [r.points for r in rows])
        for s, bonus in enumerate(result.bonus):
            self._totals[s] += bonus
        subtotal = tuple(sum(r.points[s] for r in rows) + result.bonus[s] for s in range(self._n))
        record = PulkaRecord(
            pulka=pulka + 1,
            first=first,
            last=len(self._rows) - 1,
            premium=frozenset(result.earned),
            bonus=result.bonus,
            doubled=tuple(None if d is None else first + d for d in result.doubled),
            struck=tuple(None if d is None else first + d for d in result.struck),
            subtotal=subtotal,
            totals=tuple(self._totals),
        )
        self._pulkas = (*self._pulkas, record)
        for s in result.earned:
            events.append(Event("premium", s, value=result.bonus[s]))
        for s, bonus in enumerate(result.bonus):
            if bonus < 0:
                events.append(Event("struck", s, value=bonus))
        events.append(Event("pulka_over", value=pulka + 1))

    def zones(self) -> list[Zone]:
        """``stock`` (nobody: the undealt cards, in dealing order; before the
        first deal, the pack under the draw), ``draw`` (everybody: the
        first-dealer draw, until the first deal), ``trump`` (everybody: the
        turned card), ``trick`` (everybody: the trick on the table, or the
        last one until the next lead or deal), ``taken`` (nobody, but
        remembered: the tricks turned face down) and ``hand<seat>``."""
        nobody: frozenset[int] = frozenset()
        zones = [
            Zone("stock", tuple(CARD[b] for b in reversed(self._stock)), nobody),
            Zone("draw", tuple(CARD[b] for _, b in self._draw), None),
            Zone("trump", (CARD[self._trump_card],) if self._trump_card >= 0 else (), None),
            Zone("trick", tuple(CARD[e[1]] for e in self._trick), None),
            Zone("taken", tuple(CARD[b] for b in bits_of(self._taken)), nobody, remembered=True),
        ]
        for s, hand in enumerate(self._hands):
            zones.append(Zone(f"hand{s}", tuple(CARD[b] for b in bits_of(hand)), frozenset({s})))
        return zones

    def known_cards(self, observer: int) -> dict[int, list[Card]]:
        """Nobody's cards are ever shown before they are played."""
        return {}

    def determinize(self, observer: int, rng: random.Random) -> Self:
        """Deal anew the cards ``observer`` cannot see: the other hands and the
        undealt stock (sizes kept), keeping every player out of the suits he
        has shown he lacks; later deals get a new seed."""
        n = self._n
        if not 0 <= observer < n:
            raise IndexError(f"no seat {observer}")
        game = self.clone()
        game._seed = rng.getrandbits(64)
        seats = [s for s in range(n) if s != observer and self._hands[s]]
        pool = list(self._stock)
        for s in seats:
            pool.extend(bits_of(self._hands[s]))
        pool.sort()  # what the observer knows decides the deal, never where cards lie
        sizes = [self._hands[s].bit_count() for s in seats]
        bans = [self._banned(s) for s in seats]
        dealt = _deal_within(pool, sizes, bans, rng)
        if dealt is None:  # the real deal is always one that fits
            game._stock.sort()
            rng.shuffle(game._stock)
            return game
        hands, rest = dealt
        for s, mask in zip(seats, hands, strict=True):
            game._hands[s] = mask
        game._stock = rest
        return game

    def _banned(self, seat: int) -> int:
        """The cards ``seat`` cannot hold: those of the suits he lacks."""
        banned = 0
        void = self._void[seat]
        for s in range(4):
            if void >> s & 1:
                banned |= SUIT_MASK[s]
        return banned

    @classmethod
    def decode_action(cls, text: str) -> JokerAction:
        return decode(text)

    def __repr__(self) -> str:
        return f"<Joker {self._n} seats deal {self._deal + 1} {self._phase.value}>"


def _play_event(seat: int, bit: int, mode: int, suit: int) -> Event:
    value = None
    if mode:
        value = _MODE_VALUE[mode]
        if suit >= 0:
            value += ":" + SUITS[suit].value
    return Event("play", seat, (CARD[bit],), value=value)


# Events are immutable, so the common ones are made once and shared.
_PLAY_EVENTS: dict[tuple[int, int, int, int], Event] = {
    (seat, bit, NORMAL, -1): _play_event(seat, bit, NORMAL, -1)
    for seat in range(4)
    for bit in PLAYS
}
_PLAY_EVENTS.update(
    {
        (seat, j, mode, suit): _play_event(seat, j, mode, suit)
        for seat in range(4)
        for j in JOKER_BITS
        for mode, suits in (
            (LEAD_HIGH, range(4)),
            (LEAD_TAKES, range(4)),
            (FOLLOW_HIGH, (-1,)),
            (FOLLOW_LOW, (-1,)),
        )
        for suit in suits
    }
)
_PLAY_EVENTS.update(
    {
        (seat, j, FACE, FACE_BIT[j] // 9): _play_event(seat, j, FACE, FACE_BIT[j] // 9)
        for seat in range(4)
        for j in JOKER_BITS
    }
)
_TRICK_EVENTS = tuple(tuple(Event("trick", s, value=k) for k in range(10)) for s in range(4))


def _deal_within(
    pool: list[int], sizes: list[int], bans: list[int], rng: random.Random
) -> tuple[list[int], list[int]] | None:
    """Hands of ``sizes`` cards from ``pool`` avoiding each hand's banned cards,
    and what is left (in random order); None if no such deal was found."""
    constrained = any(bans)
    for _ in range(_DEAL_TRIES):
        cards = pool[:]
        rng.shuffle(cards)
        if not constrained:
            hands = []
            i = 0
            for k in sizes:
                mask = 0
                for b in cards[i : i + k]:
                    mask |= 1 << b
                hands.append(mask)
                i += k
            return hands, cards[i:]
        hands = [0] * len(sizes)
        need = list(sizes)
        rest: list[int] = []
        spare = len(cards) - sum(sizes)
        # The most constrained cards first, each to a place that may hold it,
        # chosen in proportion to the room left there (as dealing would).
        cards.sort(key=lambda b: -sum(ban >> b & 1 for ban in bans))
        for b in cards:
            fits = [i for i, ban in enumerate(bans) if need[i] and not ban >> b & 1]
            room = sum(need[i] for i in fits) + spare
            if not room:
                break
            pick = rng.randrange(room)
            for i in fits:
                if pick < need[i]:
                    hands[i] |= 1 << b
                    need[i] -= 1
                    break
                pick -= need[i]
            else:
                rest.append(b)
                spare -= 1
        else:
            rng.shuffle(rest)
            return hands, rest
    return None
