"""A Joker player: bids its sure tricks, then plays to make exactly its bid and
to break the others' ("тонешь сам — топи другого").

**Bidding.**  Each card is worth the chance that it takes a trick: a joker
nearly one; the ace of trumps one, lower trumps less the fewer trumps go with
them; a plain ace less when trumps are about and the deal is long; a king
guarded by another card of its suit half a trick; and every trump left over
once its plain suits are short may ruff.  The sum, rounded, is the bid; the
dealer takes the allowed bid nearest to it.  In a nine-card deal the player
who names the trump names the suit of his three cards that is worth most.

**Playing.**  A player who still needs tricks takes one as cheaply as he can
(the lowest card that beats the table, a joker "high" when nothing else will,
and the last trick's winners when he leads); one who has what he bid gets rid
of tricks (the highest card that still loses, a joker "low", a joker led as
"takes" in a suit he lacks).  Once his own bid cannot be made any more he
gives tricks to whoever has his already and takes them from whoever still
needs them.

It sees only its seat's view: no cards played earlier are remembered (the
view holds only the trick on the table).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.cards import SUITS, Card, Rank, Suit
from games.core import Action, Game, Rules
from games.joker import JokerRules, premium, schedule
from games.joker.actions import Bid, ChooseTrump, FaceValue, FollowJoker, LeadJoker, Play
from games.joker.views import JokerMode, JokerPublicView, JokerSeatView, TrickCard
from players.computer import Aim, Arena, Computer, Trial
from players.search import Horizon

__all__ = ["COMPUTER", "JokerHeuristic"]

_HIGH = JokerMode.HIGH
"""A global: Python 3.11 looks up an enum class's attributes slowly."""


def _estimate(hand: Sequence[Card], trump: Suit | None, cards: int, seats: int) -> float:
    """Expected tricks of ``hand`` (a rough count of sure ones)."""
    by_suit: dict[Suit, list[Rank]] = {s: [] for s in SUITS}
    tricks = 0.0
    for card in hand:
        if card.suit is None:
            tricks += 0.95
        else:
            by_suit[card.suit].append(card.rank)
    dealt = cards * seats
    long_deal = dealt >= 24
    if trump is not None:
        trumps = sorted(by_suit[trump], reverse=True)
        for i, rank in enumerate(trumps):
            length = len(trumps)
            if rank == Rank.ACE:
                tricks += 1.0
            elif rank == Rank.KING:
                tricks += 0.85 if length >= 2 else 0.45
            elif rank == Rank.QUEEN:
                tricks += 0.6 if length >= 3 else 0.25
            elif i >= 2 or (not long_deal and rank >= Rank.TEN):
                tricks += 0.55 if long_deal else 0.35
    for suit in SUITS:
        if suit is trump:
            continue
        ranks = sorted(by_suit[suit], reverse=True)
        if not ranks:
            continue
        if ranks[0] == Rank.ACE:
            tricks += 0.9 if trump is None or not long_deal else 0.75
            if len(ranks) > 1 and ranks[1] == Rank.KING:
                tricks += 0.5
        elif ranks[0] == Rank.KING and len(ranks) >= 2:
            tricks += 0.4
        elif not long_deal and ranks[0] >= Rank.QUEEN and cards <= 2:
            tricks += 0.2
    if trump is not None and long_deal:
        spare = max(0, len(by_suit[trump]) - 2)
        short = sum(1 for s in SUITS if s is not trump and len(by_suit[s]) <= 1)
        tricks += 0.45 * min(spare, short)
    return min(tricks, float(cards))


def _beats(card: Card, best: Card, led: Suit | None, trump: Suit | None) -> bool:
    """Whether ordinary ``card`` beats the ordinary ``best`` so far."""
    if card.suit is best.suit:
        return card.rank > best.rank
    return trump is not None and card.suit is trump


class JokerHeuristic:
    """Bids its sure tricks, then plays to make exactly its bid."""

    def choose(
        self,
        rules: Rules,
        view: JokerSeatView,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        first = legal[0]
        if len(legal) == 1:
            return first
        if isinstance(first, Bid):
            return self._bid(view, legal)
        if isinstance(first, ChooseTrump):
            return self._trump(view, legal)
        if isinstance(first, Play | LeadJoker | FollowJoker | FaceValue):
            return self._play(view, legal)
        return first

    # --- bidding ------------------------------------------------------------

    def _bid(self, view: JokerSeatView, legal: Sequence[Action]) -> Action:
        want = _estimate(view.hand, view.trump, view.cards, view.seats)
        bids = [a for a in legal if isinstance(a, Bid)]
        return min(bids, key=lambda a: (abs(a.tricks - want), a.tricks))

    def _trump(self, view: JokerSeatView, legal: Sequence[Action]) -> Action:
        hand = view.hand
        seats = view.seats

        def worth(action: Action) -> tuple[float, int]:
            assert isinstance(action, ChooseTrump)
            held = sum(1 for c in hand if c.suit is action.suit)
            top = max((c.rank for c in hand if c.suit is action.suit), default=0)
            value = _estimate(hand, action.suit, view.cards, seats)
            return (value + 0.3 * held, top)

        return max(legal, key=worth)

    # --- playing ------------------------------------------------------------

    def _play(self, view: JokerSeatView, legal: Sequence[Action]) -> Action:
        seat = view.seat
        bid = view.bids[seat]
        assert bid is not None  # cards are played once everybody has bid
        need = bid - view.tricks[seat]
        trump = view.trump
        trick = () if view.trick_done else view.trick
        broken = need > len(view.hand) or need < 0
        goal = self._spoil(view, trick, seat) if broken else need > 0
        plays = [a for a in legal if isinstance(a, Play)]
        # A joker at face value is weighed as its six, but only when no
        # ordinary card may be played: a joker is worth more as a joker.
        at_face = {} if plays else {Play(a.counts_as): a for a in legal if isinstance(a, FaceValue)}
        plays += at_face
        if not trick:
            choice = self._lead(view, legal, plays, goal, trump)
        else:
            choice = self._follow(view, legal, plays, trick, goal, trump)
        return at_face.get(choice, choice) if isinstance(choice, Play) else choice

    def _spoil(self, view: JokerSeatView, trick: Sequence[TrickCard], seat: int) -> bool:
        """A broken bid: take the trick from whoever needs it, give it to
        whoever has his bid already."""
        bids, tricks = view.bids, view.tricks
        others = [s for s in range(len(bids)) if s != seat]
        needing = [s for s in others if (bid := bids[s]) is not None and bid > tricks[s]]
        full = [s for s in others if bids[s] == tricks[s]]
        if trick:
            winner = _current_winner(trick, view.trump)
            if winner in full:
                return False
            if winner in needing:
                return True
        return len(needing) > len(full)

    def _lead(
        self,
        view: JokerSeatView,
        legal: Sequence[Action],
        plays: list[Play],
        win: bool,
        trump: Suit | None,
    ) -> Action:
        hand = view.hand
        jokers = [a for a in legal if isinstance(a, LeadJoker)]
        if win:
            highs = [a for a in jokers if a.high]
            if highs:
                want = trump or max(SUITS, key=lambda s: sum(1 for c in hand if c.suit is s))
                return next((a for a in highs if a.suit is want), highs[0])
            if plays:
                # Trump aces, then plain aces, then the highest trump, else the highest card.
                return max(plays, key=lambda a: _lead_strength(a.card, trump))
            return legal[0]
        if plays:
            return min(plays, key=lambda a: (a.card.suit is trump, a.card.rank))
        takes = [a for a in jokers if not a.high]
        mine = {c.suit for c in hand}
        missing = [a for a in takes if a.suit not in mine and a.suit is not trump]
        if missing or takes:
            return (missing or takes)[0]
        return legal[0]

    def _follow(
        self,
        view: JokerSeatView,
        legal: Sequence[Action],
        plays: list[Play],
        trick: Sequence[TrickCard],
        win: bool,
        trump: Suit | None,
    ) -> Action:
        jokers = [a for a in legal if isinstance(a, FollowJoker)]
        last = len(trick) == view.seats - 1
        lead = trick[0]
        led = _led_suit(lead)
        unbeatable = any(e.joker is _HIGH for e in trick[1:]) or (
            lead.joker is _HIGH and (trump is None or led is trump)
        )
        best = _best_card(trick, led, trump)
        winners = [] if unbeatable else [a for a in plays if _wins(a.card, best, led, trump, lead)]
        losers = [a for a in plays if a not in winners]
        if win:
            if winners:
                if last:
                    return min(winners, key=lambda a: (a.card.suit is trump, a.card.rank))
                return max(winners, key=lambda a: (a.card.suit is trump, a.card.rank))
            highs = [a for a in jokers if a.high]
            if highs:
                return highs[0]
            return min(plays or legal, key=_low_key(trump))
        lows = [a for a in jokers if not a.high]
        if losers:
            return max(losers, key=lambda a: (a.card.suit is trump, a.card.rank))
        if lows:
            return lows[0]
        return min(plays or legal, key=_low_key(trump))


def _low_key(trump: Suit | None) -> Any:
    def key(action: Action) -> tuple[bool, int]:
        if isinstance(action, Play):
            return (action.card.suit is trump, action.card.rank)
        return (True, 99)

    return key


def _lead_strength(card: Card, trump: Suit | None) -> tuple[int, int]:
    if card.rank == Rank.ACE:
        return (3 if card.suit is trump else 2, card.rank)
    if card.suit is trump:
        return (1, card.rank)
    return (0, card.rank)


def _led_suit(lead: TrickCard) -> Suit | None:
    """The suit a trick asks for: a led joker's named suit (or its six's at
    face value), else the led card's."""
    return lead.suit if lead.joker is not None else lead.card.suit


def _best_card(trick: Sequence[TrickCard], led: Suit | None, trump: Suit | None) -> Card | None:
    """The ordinary card that wins the trick so far (None: a joker does, or
    no ordinary card of the led suit or trumps is on the table); a joker at
    face value counts as its six."""
    best: Card | None = None
    for entry in trick:
        card = entry.counts_as
        if card is None:
            continue
        if card.suit is not led and card.suit is not trump:
            continue
        if best is None or _beats(card, best, led, trump):
            best = card
    return best


def _wins(
    card: Card, best: Card | None, led: Suit | None, trump: Suit | None, lead: TrickCard
) -> bool:
    """Whether ``card`` would win the trick as it stands (no later card counted)."""
    if lead.joker is _HIGH:
        # Only a trump on a plain suit's high joker takes it.
        if trump is None or led is trump or card.suit is not trump:
            return False
        return best is None or best.suit is not trump or card.rank > best.rank
    if best is None:
        return card.suit is led or card.suit is trump
    return _beats(card, best, led, trump)


def _current_winner(trick: Sequence[TrickCard], trump: Suit | None) -> int:
    """Who wins the incomplete trick so far (a rough guess for the jokers)."""
    lead = trick[0]
    highs = [e for e in trick[1:] if e.joker is _HIGH]
    if highs:
        return highs[-1].seat
    led = _led_suit(lead)
    best = _best_card(trick, led, trump)
    if lead.joker is _HIGH:
        if best is not None and best.suit is trump and led is not trump:
            return next(e.seat for e in trick if e.counts_as == best)
        return lead.seat
    if best is None:
        return lead.seat
    return next(e.seat for e in trick if e.counts_as == best)


BID_ODDS = 0.7
"""The chance a player makes a bid (about the hard level's rate): a premium
still in reach is discounted by it once per deal of the pulka still to play."""


def pending_premium(game: Game[Any, Any, Any, Any]) -> tuple[float, ...]:
    """Per seat, what the pulka under way would add at its end as it stands:
    its premium had it ended with the deals on the sheet (a player who has
    made every bid so far gets his best deal again, and alone strikes off
    the others' best), discounted by :data:`BID_ODDS` for each deal still to
    play in it.  A search that stops its rollouts at the end of a deal sees
    a premium only in a pulka's last deal; with this it keeps one in reach on
    purpose, and spoils another player's."""
    view: JokerPublicView = game.public_view()
    rules = game.rules
    assert isinstance(rules, JokerRules)
    rows = view.sheet[view.pulkas[-1].last + 1 :] if view.pulkas else view.sheet
    if not rows:  # a pulka not begun, or the game over
        return (0.0,) * view.seats
    left = len(schedule(rules.deals)[len(view.pulkas)]) - len(rows)
    result = premium([r.bids for r in rows], [r.tricks for r in rows], [r.points for r in rows])
    return tuple(bonus * BID_ODDS**left for bonus in result.bonus)


COMPUTER = Computer(
    __name__,
    JokerHeuristic(),
    moves_per_second=30_000,
    horizon=Horizon(
        stop_at=frozenset({"deal_over", "game_over"}), scale=250.0, pending=pending_premium
    ),
    arena=Arena(
        (Trial("classic", 4, aim=Aim("bids made", at_least=0.75, each_deal_size=0.70)),),
        deals=3,
        quick_deals=1,
        max_moves=5_000,
    ),
)
