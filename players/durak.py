"""A heuristic Durak player (podkidnoy and perevodnoy, every option, 2..6 seats).

It reads only its seat's view (``games/durak/views.py`` documents it) and
prices every card:

* a card's *worth* grows with its rank, a trump is worth more than any plain
  card, and trumps and aces are worth more the bigger the stock still is
  (they will be needed later);
* a card leaving the hand also *gains* something: while the stock lasts a
  replacement will be drawn, and once it is empty every card shed is a step
  towards getting out, worth more than any card.

From these prices it leads the cheapest rank (all of its plain cards, so pairs
go out together), throws in cards that cost little or that the defender is
unlikely to beat, covers with the cheapest cards that cover everything, and
takes when covering costs more than taking (dear trumps early, a table that is
going to be thrown at heavily); it transfers when that is cheaper still.

Once the stock is empty and one opponent is left, his progress counts more
the fewer cards he holds compared with ours, and a card he could cover with
his last one is not thrown in.  One lead in twenty is the second best: players
that always make the same choice can otherwise pass the same cards round the
table for ever (each defender taking what he cannot or will not cover and
leading it on), and the engine has no rule that ends such a game.

The view does not show the discard pile, so the player cannot count cards;
"unseen" cards (the deck minus its hand, the table, the last beaten bout, the
trump card and everybody's known cards) are treated as spread evenly over the
stock, the discard pile and the other hands.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast, get_args

from games.cards import Card, Rank, Suit, deck
from games.core import Action, Game, Rules
from games.durak import DurakRules
from games.durak.actions import (
    Attack,
    Beat,
    Believe,
    BlindAction,
    BlindBeat,
    BlindLead,
    Cover,
    Doubt,
    NameTrump,
    Pass,
    Take,
    Throw,
    Transfer,
)
from games.durak.beating import RANK_BITS, Beating, cards_of, mask_of
from games.durak.views import DurakPublicView, DurakSeatView
from players.base import Player
from players.computer import Aim, Arena, Computer, Trial, level_trials

__all__ = ["COMPUTER", "DurakHeuristic", "Weights"]

_HAND = 6


@dataclass(frozen=True)
class Weights:
    """The knobs of :class:`DurakHeuristic` (tuned against the random player
    and against a plain "lowest card" player)."""

    trump: float = 1.0
    """Worth of the lowest trump over a plain card of the same rank position."""
    trump_rank: float = 0.8
    """Extra worth of the highest trump over the lowest one."""
    trump_early: float = 0.5
    """Extra worth of every trump at the start (fades as the stock runs out)."""
    ace_early: float = 0.3
    """Extra worth of a plain ace at the start."""
    gain_early: float = 0.5
    """What a card leaving the hand gains while the stock is full (a redraw)."""
    gain_late: float = 1.3
    """What a card leaving the hand gains once the stock is empty."""
    tempo: float = 0.6
    """Worth of keeping the initiative (a beaten-off bout makes us attack)."""
    take_extra: float = 0.4
    """Cost per card the throwers are expected to add once we take."""
    beat_extra: float = 0.35
    """Cost per card the throwers are expected to add if we cover."""
    vary: float = 0.05
    """Chance of leading the second best lead instead of the best one."""
    press: float = 0.8
    """Weight of what a lead or throw does to the defender."""
    opp_multi: float = 0.5
    """Weight of an opponent's progress when more than two are in play."""
    exit: float = 4.0
    """Cost of letting the last opponent go out by covering his last card."""
    race: float = 0.5
    """Endgame: how much more an opponent's progress counts when he holds
    fewer cards than we do."""
    throw_bar: float = 0.0
    """Throw in when the net worth of a throw is above this."""


@dataclass
class _Table:
    """The facts of one decision, read from the view.  Sets of cards are bit
    masks (bit ``card.order``, as the engine keeps them): the player prices
    cards at every move of every rollout of a search, so what it asks most
    (which unseen cards beat this one, what a card is worth) is a table
    lookup or a bit count."""

    seat: int
    trump: Suit
    beaters: tuple[int, ...]
    """``beaters[card.order]``: the mask of the cards that beat it."""
    worths: tuple[float, ...]
    """``worths[card.order]``: :meth:`DurakHeuristic.worth` of the card."""
    gain: float
    """:meth:`DurakHeuristic.gain`."""
    stock: int
    hand: Sequence[Card]
    hands: Sequence[int]
    known: Sequence[Sequence[Card]]
    known_masks: Sequence[int]
    active: frozenset[int]
    defender: int | None
    table: Sequence[tuple[Card, Card | None]]
    taking: bool
    cap: int
    unseen: int
    """The mask of the cards the seat has not seen (see the module docstring)."""
    pool: int
    opp_weight: float = math.nan
    """Cache of :meth:`DurakHeuristic.opp_weight` (nan: not asked yet)."""
    prices: dict[tuple[int, Card], float] = field(default_factory=dict)
    """Cache of :meth:`DurakHeuristic.beat_price`."""


@functools.cache
def _deck(size: int) -> tuple[Card, ...]:
    return tuple(deck(size))


@functools.cache
def _deck_mask(size: int) -> int:
    return mask_of(_deck(size))


@functools.cache
def _lowest(size: int) -> Rank:
    return min(c.rank for c in _deck(size))


def _trump_worth(hand: Sequence[Card], suit: Suit) -> int:
    """What naming ``suit`` trump is worth to ``hand``: every card of it beats
    the other plain suits, the more and the higher the better."""
    return sum(4 + int(c.rank) - 6 for c in hand if c.suit is suit)


@functools.cache
def _beating(trump: Suit, spades_by_spades: bool, unbeatable_queen: bool) -> Beating:
    return Beating(trump, spades_by_spades, unbeatable_queen)


@functools.cache
def _worths(w: Weights, size: int, trump: Suit, early: float) -> tuple[float, ...]:
    """What keeping each card of a ``size`` deck is worth, by ``card.order``
    (0 for the lowest plain card): it grows with the rank, a trump is worth
    more than any plain card, and trumps and aces more the earlier it is."""
    low = int(_lowest(size))
    span = int(Rank.ACE) - low
    worths = [0.0] * 64
    for card in _deck(size):
        frac = (int(card.rank) - low) / span
        if card.suit is trump:
            value = w.trump + frac * w.trump_rank + w.trump_early * early
        elif card.rank is Rank.ACE:
            value = frac + w.ace_early * early
        else:
            value = frac
        worths[card.order] = value
    return tuple(worths)


def _rank_mask(ranks: set[Rank]) -> int:
    mask = 0
    for rank in ranks:
        mask |= RANK_BITS[rank]
    return mask


def _read(rules: DurakRules, view: DurakSeatView, w: Weights) -> _Table:
    trump = view.trump
    size = rules.deck_size
    hand = view.hand
    seen = 0
    for card in hand:
        seen |= 1 << card.order
    known_masks = []
    for cards in view.known:
        mask = 0
        for card in cards:
            mask |= 1 << card.order
        known_masks.append(mask)
        seen |= mask
    table = []
    for row in view.table:
        seen |= 1 << row.attack.order
        defense = row.defense
        if defense is not None:
            seen |= 1 << defense.order
        table.append((row.attack, defense))
    for pair in view.beaten:
        seen |= 1 << pair.attack.order | 1 << pair.defense.order
    if view.trump_card is not None:
        seen |= 1 << view.trump_card.order
    unseen = _deck_mask(size) & ~seen
    first_stock = max(size - _HAND * len(view.hands), 1)
    stock = view.stock
    early = min(stock / first_stock, 1.0)
    beaters = _beating(trump, rules.spades_by_spades, rules.unbeatable_queen).table
    return _Table(
        seat=view.seat,
        trump=trump,
        beaters=beaters,
        worths=_worths(w, size, trump, early),
        gain=w.gain_late + (w.gain_early - w.gain_late) * early,
        stock=stock,
        hand=hand,
        hands=view.hands,
        known=view.known,
        known_masks=known_masks,
        active=view.active,
        defender=view.defender,
        table=table,
        taking=view.taking,
        cap=view.cap,
        unseen=unseen,
        pool=max(unseen.bit_count(), 1),
    )


class DurakHeuristic(Player[DurakSeatView]):
    """A rule-of-thumb Durak player; see the module docstring."""

    def __init__(self, weights: Weights | None = None) -> None:
        self.w = weights or Weights()

    # ------------------------------------------------------------ prices

    @staticmethod
    def worth(t: _Table, card: Card) -> float:
        """What keeping ``card`` is worth (0 for the lowest plain card; see
        :func:`_worths`)."""
        return t.worths[card.order]

    @staticmethod
    def gain(t: _Table) -> float:
        """What a card leaving the hand gains (a redraw or a step to the exit)."""
        return t.gain

    @staticmethod
    def cost(t: _Table, card: Card) -> float:
        """Net cost of parting with ``card`` (negative: glad to be rid of it)."""
        return t.worths[card.order] - t.gain

    # ---------------------------------------------------------- guesses

    def p_cannot_beat(self, t: _Table, seat: int, card: Card, spent: int = 0) -> float:
        """Chance that ``seat`` holds nothing that beats ``card`` (``spent``:
        cards of his that are needed elsewhere)."""
        beating = t.beaters[card.order]
        if beating & t.known_masks[seat]:
            return 0.0
        free = t.hands[seat] - len(t.known[seat]) - spent
        if free <= 0:
            return 1.0
        beaters = (beating & t.unseen).bit_count()
        if beaters == 0:
            return 1.0
        pool = t.pool
        if free >= pool:
            return 0.0
        p = 1.0
        for i in range(min(free, pool - beaters + 1)):
            p *= (pool - beaters - i) / (pool - i)
            if p <= 0.0:
                return 0.0
        return p

    def expected_throws(self, t: _Table, ranks: set[Rank], room: int) -> float:
        """How many more cards the throwers may add on ``ranks``."""
        if room <= 0 or t.defender is None:
            return 0.0
        throwers = [s for s in t.active if s != t.defender and s != t.seat]
        if t.seat != t.defender:
            throwers.append(t.seat)
        free = sum(max(t.hands[s] - len(t.known[s]), 0) for s in throwers if s != t.seat)
        of_ranks = _rank_mask(ranks)
        sure = sum((t.known_masks[s] & of_ranks).bit_count() for s in throwers if s != t.seat)
        candidates = (t.unseen & of_ranks).bit_count()
        guess = sure + candidates * min(free / t.pool, 1.0)
        return min(float(room), guess)

    # ---------------------------------------------------------- choices

    def choose(
        self,
        rules: Rules,
        view: DurakSeatView,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        if not isinstance(rules, DurakRules):
            raise TypeError("DurakHeuristic plays Durak")
        # The legal moves by their class, sorted once: this runs at every move
        # of every rollout, and each isinstance() of an Action (an ABC) costs
        # as much as a dict lookup does many times over.
        kinds: dict[type[Action], list[Action]] = {}
        for action in legal:
            kinds.setdefault(type(action), []).append(action)
        if not kinds.keys().isdisjoint(_BLIND):
            return self._blind(legal, rng)
        names = cast("list[NameTrump] | None", kinds.get(NameTrump))
        if names:
            return max(names, key=lambda a: _trump_worth(view.hand, a.suit))
        t = _read(rules, view, self.w)
        if Believe in kinds:
            return self._verdict(t, legal, rng)
        if Cover in kinds:
            return self._face_down(t, view, legal)
        if t.seat == t.defender and not kinds.keys().isdisjoint(_DEFENCE):
            return self._defend(t, kinds, legal)
        if Attack in kinds:
            return self._lead(t, cast("list[Attack]", kinds[Attack]), rng)
        return self._throw(t, kinds)

    def opp_weight(self, t: _Table) -> float:
        """How much an opponent's progress counts against ours: fully with two
        players left, less when others may still be the durak."""
        k = t.opp_weight
        if k != k:  # nan: not asked yet
            k = t.opp_weight = self._opp_weight(t)
        return k

    def _opp_weight(self, t: _Table) -> float:
        if len(t.active) > 2:
            return self.w.opp_multi
        if t.stock or t.defender is None or t.defender == t.seat:
            return 1.0
        mine = len(t.hand)
        his = max(t.hands[t.defender], 1)
        return min(max(1.0 + self.w.race * (mine - his) / his, 0.5), 2.0)

    def beat_price(self, t: _Table, seat: int, card: Card) -> float:
        """Expected worth of the card ``seat`` would cover ``card`` with (his
        cheapest beater), given that he has one."""
        price = t.prices.get((seat, card))
        if price is None:
            price = t.prices[seat, card] = self._beat_price(t, seat, card)
        return price

    def _beat_price(self, t: _Table, seat: int, card: Card) -> float:
        worths = t.worths
        beating = t.beaters[card.order]
        known = [worths[k.order] for k in t.known[seat] if beating >> k.order & 1]
        if known:
            return min(known)
        prices = sorted([worths[c.order] for c in cards_of(beating & t.unseen)])
        if not prices:
            return 0.0
        free = max(t.hands[seat] - len(t.known[seat]), 1)
        q = min(free / t.pool, 1.0)
        total = weight = 0.0
        miss = 1.0
        for price in prices:
            total += miss * q * price
            weight += miss * q
            miss *= 1.0 - q
        return total / weight if weight else prices[0]

    def pressure(self, t: _Table, seat: int, card: Card, spent: int, table: float) -> float:
        """Net worth to us of putting ``card`` in front of defender ``seat``
        (not yet taking), who already has ``spent`` cards to cover and takes
        ``table`` worth of cards if he gives up: he covers it (and is one card
        nearer the exit) or he takes everything."""
        gain = self.gain(t)
        k = self.opp_weight(t)
        p = self.p_cannot_beat(t, seat, card, spent)
        covered = -k * (gain - self.beat_price(t, seat, card))
        if not t.stock and len(t.active) == 2 and t.hands[seat] - spent <= 1:
            covered = -self.w.exit  # covering it would take him out: we lose
        taken = k * (table + gain - self.worth(t, card) + self.w.tempo)
        return (1.0 - p) * covered + p * taken

    def _table_load(self, t: _Table) -> float:
        """What taking the cards now on the table would cost the defender."""
        gain = self.gain(t)
        total = 0.0
        for a, d in t.table:
            total += gain - self.worth(t, a)
            if d is not None:
                total += gain - self.worth(t, d)
        return total

    def _lead(self, t: _Table, attacks: Sequence[Attack], rng: random.Random) -> Action:
        defender = t.defender
        press = self.w.press
        worths = t.worths
        gain = t.gain
        # The same card leads many of the moves (alone, then with its pairs).
        pressures: dict[tuple[Card, int, float], float] = {}
        scored: list[tuple[float, int, Action]] = []
        for n, action in enumerate(attacks):
            score = 0.0
            load = 0.0
            for i, card in enumerate(action.cards):
                worth = worths[card.order]
                score -= worth - gain
                if defender is not None:
                    key = (card, i, load)
                    pressure = pressures.get(key)
                    if pressure is None:
                        pressure = pressures[key] = self.pressure(t, defender, card, i, load)
                    score += press * pressure
                load += gain - worth
            scored.append((-score, n, action))
        scored.sort(key=lambda x: (x[0], x[1]))
        if len(scored) > 1 and rng.random() < self.w.vary:
            # Now and then the second best: deterministic players can
            # otherwise pass the same cards round the table for ever.
            return scored[1][2]
        return scored[0][2]

    def _throw(self, t: _Table, kinds: Mapping[type[Action], list[Action]]) -> Action:
        defender = t.defender
        unbeaten = sum(1 for _, d in t.table if d is None)
        load = self._table_load(t)
        k = 1.0 if t.defender is None else self.opp_weight(t)
        best: Action | None = None
        best_score = -math.inf
        for action in cast("list[Throw]", kinds.get(Throw, [])):
            card = action.card
            score = -self.cost(t, card)
            if defender is not None:
                if t.taking:
                    # He takes it: one more card for him (a good card is a gift).
                    score += k * (self.gain(t) - self.worth(t, card))
                else:
                    score += self.w.press * self.pressure(t, defender, card, unbeaten, load)
            if score > best_score:
                best, best_score = action, score
        passes = kinds.get(Pass)
        if best is None:
            assert passes, "neither a throw nor a pass is legal"
            return passes[0]
        if passes and best_score <= self.w.throw_bar:
            return passes[0]
        return best

    def _cover(self, t: _Table) -> tuple[float, list[tuple[Card, Card]]] | None:
        """The cheapest way to cover every unbeaten card, or None."""
        unbeaten = [a for a, d in t.table if d is None]
        n = len(unbeaten)
        if n == 1:  # most often: the cheapest card that covers it
            return self._cover_one(t, unbeaten[0])
        full = (1 << n) - 1
        # best[mask] = (cost, assignment) covering the cards in mask.
        best: dict[int, tuple[float, list[tuple[Card, Card]]]] = {0: (0.0, [])}
        for card in t.hand:
            fits = [j for j, a in enumerate(unbeaten) if t.beaters[a.order] >> card.order & 1]
            if not fits:
                continue
            price = self.cost(t, card)
            for mask, (c, pairs) in list(best.items()):
                for j in fits:
                    if mask >> j & 1:
                        continue
                    m2 = mask | 1 << j
                    old = best.get(m2)
                    if old is None or c + price < old[0] - 1e-12:
                        best[m2] = (c + price, [*pairs, (unbeaten[j], card)])
        return best.get(full)

    @staticmethod
    def _cover_one(t: _Table, attack: Card) -> tuple[float, list[tuple[Card, Card]]] | None:
        """:meth:`_cover` of one card: the first of the cheapest covers."""
        beaters = t.beaters[attack.order]
        worths = t.worths
        gain = t.gain
        best: Card | None = None
        best_price = 0.0
        for card in t.hand:
            if beaters >> card.order & 1:
                price = worths[card.order] - gain
                if best is None or price < best_price - 1e-12:
                    best, best_price = card, price
        return None if best is None else (best_price, [(attack, best)])

    def _face_down(self, t: _Table, view: DurakSeatView, legal: Sequence[Action]) -> Action:
        """Believe / don't believe, defending: cover rightly if every card can
        be, else bluff with the cheapest card.  Never take: a doubted bluff
        costs what taking does, a believed one makes the attacker take."""
        mine = view.my_covers or (None,) * len(t.table)
        open_rows: list[tuple[Card, Card | None]] = [
            (a, None) for (a, _), own in zip(t.table, mine, strict=True) if own is None
        ]
        plan = self._cover(replace(t, table=open_rows))
        if plan is not None:
            pairs = sorted(plan[1], key=lambda p: -self.worth(t, p[0]))
            attack, card = pairs[0]
        else:
            attack = open_rows[0][0]
            card = min(t.hand, key=lambda c: self.worth(t, c))
        return next(
            a for a in legal if isinstance(a, Cover) and a.attack is attack and a.card is card
        )

    @staticmethod
    def _blind(legal: Sequence[Action], rng: random.Random) -> Action:
        """Blind durak, not knowing one's cards: lead any; cover always (a wrong
        cover costs what taking does); never throw in (a wrong card takes
        the table), pass."""
        covers = [a for a in legal if isinstance(a, BlindBeat)]
        if covers:
            first = covers[0].attack
            return rng.choice([a for a in covers if a.attack is first])
        passes = [a for a in legal if isinstance(a, Pass)]
        if passes:
            return passes[0]
        leads = [a for a in legal if isinstance(a, BlindLead)]
        return rng.choice(leads or list(legal))

    def _verdict(self, t: _Table, legal: Sequence[Action], rng: random.Random) -> Action:
        """Believe with the chance that the defender could beat every card (he
        covers rightly when he can).  A mixed choice: a fixed one could pass
        the same cards back and forth for ever."""
        right = 1.0
        if t.defender is not None:
            for attack, _ in t.table:
                right *= 1.0 - self.p_cannot_beat(t, t.defender, attack, spent=-len(t.table))
        wanted = Believe if rng.random() < right else Doubt
        return next(a for a in legal if isinstance(a, wanted))

    def _defend(
        self, t: _Table, kinds: Mapping[type[Action], list[Action]], legal: Sequence[Action]
    ) -> Action:
        w = self.w
        options: list[tuple[float, Action]] = []
        take = next(iter(kinds.get(Take, ())), None)
        gain = self.gain(t)
        room = t.cap - len(t.table)
        on_table = [a for a, _ in t.table] + [d for _, d in t.table if d is not None]
        ranks = {c.rank for c in on_table}
        if take is not None:
            taken = sum(gain - self.worth(t, c) for c in on_table)
            extra = self.expected_throws(t, ranks, room) * w.take_extra
            options.append((taken + extra + w.tempo, take))
        cover = self._cover(t)
        if cover is not None:
            price, pairs = cover
            new_ranks = ranks | {c.rank for _, c in pairs}
            left = len(t.hand) - len(pairs)
            extra = self.expected_throws(t, new_ranks, min(room, left)) * w.beat_extra
            # Beat the hardest card first (its cover is the one we are surest of).
            pairs.sort(key=lambda p: -self.worth(t, p[0]))
            attack, cover_card = pairs[0]
            beat = next(
                a
                for a in cast("list[Beat]", kinds[Beat])
                if a.attack is attack and a.cover is cover_card
            )
            options.append((price + extra, beat))
        for action in cast("list[Transfer]", kinds.get(Transfer, [])):
            price = sum(self.cost(t, c) for c in action.cards)
            options.append((price - w.tempo, action))
        if not options:
            return legal[0]
        return min(options, key=lambda o: o[0])[1]


_BLIND = frozenset(get_args(BlindAction))
_DEFENCE = frozenset({Take, Beat, Transfer})


def _duel(game: Game[Any, Any, Any, Any]) -> bool:
    """Only two players are left in the game."""
    view: DurakPublicView = game.public_view()
    return len(view.active) == 2


FIRST_OUT = Aim("first out", beats_each=True)
"""Four players, one searcher against three reference players: it goes out
first more often than each of them."""


_VARIANT_TRIALS = tuple(
    Trial(preset, 4, partners=True, deals=25, quick_deals=0)
    if preset == "teams"
    else Trial(preset, 2, deals=25, quick_deals=0)
    for preset in ("perevodnoy", "refusal", "teams", "blind", "diamonds", "akulina", "believe")
)
"""Every other variant, the search against its heuristic (in teams, two
searchers against two heuristics), on fewer deals than podkidnoy and left
out of ``--quick``, which must stay under five minutes (``--quick --preset
believe --deals 2`` plays one)."""


COMPUTER = Computer(
    __name__,
    DurakHeuristic(),
    moves_per_second=17_000,
    # The search beats the heuristic in four games of five already at a tenth
    # of a second, so the normal level searches 30 ms: two thirds of its games
    # against the heuristic, and the hard level far enough ahead to tell.
    normal_seconds=0.03,
    duel=_duel,
    arena=Arena(
        (
            Trial("podkidnoy", 2, aim=Aim(at_least=0.92)),
            Trial("podkidnoy", 2, against="random"),
            Trial("podkidnoy", 4),
            Trial("podkidnoy", 2, against="ismcts", quick_deals=3, aim=Aim(at_least=0.55)),
            Trial("podkidnoy", 2, against="pimc", quick_deals=3, aim=Aim(at_least=0.55)),
            Trial("podkidnoy", 4, against="ismcts", deals=25, quick_deals=1, aim=FIRST_OUT),
            Trial("podkidnoy", 4, against="pimc", deals=25, quick_deals=1, aim=FIRST_OUT),
            *level_trials("podkidnoy", deals=50, quick_deals=2),
            *_VARIANT_TRIALS,
        ),
        deals=50,
        quick_deals=12,
        max_moves=5_000,
    ),
)
