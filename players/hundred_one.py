"""A heuristic 101 player (every preset and option, 2..8 seats).

It reads only its seat's view (:class:`games.hundred_one.views.HundredOneSeatView`)
and the public rules, and prices each card it may lay:

* penalty points (:func:`games.hundred_one.card_points`) get out first, the
  more urgently the fewer cards the other players hold (the round may end any
  moment);
* a special card (:func:`games.hundred_one.effect`: draws, skips, an ace to
  answer) is worth more against a next player who is close to going out, and
  a nine ("moves again") or a skip with two players only when it can be
  followed;
* the card left on top should suit the hand: the longer the suit it leaves
  (and the more cards of its rank), the likelier the player can follow again;
* the master card (queen, or jack in the ``jack`` preset) is kept to change
  the suit when nothing else fits, or to finish with it (a queen finish takes
  20 or 40 points off); with the jack as master, a jack held at the end of a
  round eliminates, so jacks go out as soon as somebody gets close.

After a master card it orders the suit it holds most of (weighed by points).
It answers an ace with an ace, and draws or passes only when nothing fits
(the engine's legal actions leave no choice there).  Between rounds it deals
the next round.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.cards import SUITS, Card, Rank, Suit, deck
from games.core import Action, Rules
from games.hundred_one import (
    AceMode,
    HundredOneRules,
    Master,
    NextRound,
    Order,
    Play,
    card_points,
    effect,
)
from games.hundred_one.views import HundredOneSeatView
from players.base import Player
from players.computer import Arena, Computer, Trial, level_trials
from players.search import Horizon

__all__ = ["COMPUTER", "HundredOneHeuristic", "Weights"]


@dataclass(frozen=True)
class Weights:
    """The knobs of :class:`HundredOneHeuristic`."""

    points: float = 1.0
    """Worth of one penalty point shed."""
    urgency: float = 4.0
    """Extra weight of points when an opponent is down to few cards."""
    draw: float = 4.0
    """Worth of one card the next player must draw."""
    skip: float = 5.0
    """Worth of the next player missing his turn (with more than two players;
    with two, a skip means moving again, which the search weighs)."""
    close: float = 2.0
    """Multiplier of effects when the next player is close to going out."""
    follow: float = 4.0
    """Worth of each card of ours that could follow the card we leave on top."""
    stuck: float = 16.0
    """Cost of having to move again (nine, two-player skip) with nothing that fits."""
    master_keep: float = 30.0
    """Cost of spending the master card while anything else fits."""
    block: float = 6.0
    """Worth of the next player being unable to follow (he must draw)."""
    jack_close: int = 3
    """Jack preset: shed jacks once somebody holds this many cards or fewer."""
    explore: float = 0.05
    """Share of choices (a card, a suit to order) made at random among the
    legal ones.  A round of 101 ends only when someone goes out, and players
    who always choose alike can send the same cards round for ever (each one
    ordering the suit the next cannot follow); a random choice now and then
    breaks such a cycle."""


@functools.cache
def _deck(size: int) -> tuple[Card, ...]:
    return tuple(deck(size))


class HundredOneHeuristic(Player[HundredOneSeatView]):
    """A rule-of-thumb 101 player; see the module docstring."""

    def __init__(self, weights: Weights | None = None) -> None:
        self.w = weights or Weights()

    def choose(
        self,
        rules: Rules,
        view: HundredOneSeatView,
        legal: Sequence[Action],
        rng: random.Random,
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        if not isinstance(rules, HundredOneRules):
            raise TypeError("HundredOneHeuristic plays 101")
        for action in legal:
            if isinstance(action, NextRound):
                return action
        if rng.random() < self.w.explore:
            return rng.choice([a for a in legal if isinstance(a, Play | Order)] or list(legal))
        orders = [a for a in legal if isinstance(a, Order)]
        if orders:
            return self._order(rules, view, orders)
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]  # draw or pass: never a real choice
        # Facing an ace, the plays are aces: answering always beats passing
        # (it sheds 11 points and passes the skip on), so Pass is never chosen.
        return self._play(rules, view, plays)

    # ------------------------------------------------------------ helpers

    @staticmethod
    def master_rank(rules: HundredOneRules) -> Rank:
        return Rank.JACK if rules.master is Master.JACK else Rank.QUEEN

    @staticmethod
    def _next(view: HundredOneSeatView, seat: int) -> int:
        """The next seat still in the match."""
        n = len(view.hands)
        gone = view.eliminated
        s = (seat + 1) % n
        while s in gone and s != seat:
            s = (s + 1) % n
        return s

    def _fits_on(self, rules: HundredOneRules, card: Card, top: Card) -> bool:
        """Could ``card`` be laid on ``top`` in an ordinary turn (no order)?"""
        master = self.master_rank(rules)
        if card.rank is master:
            return True
        if top.rank is Rank.QUEEN and master is Rank.JACK:
            return card.rank is Rank.KING and card.suit is top.suit
        if card.suit is top.suit:
            return True
        if rules.suit_only:
            return top.rank is Rank.SIX and card.rank is Rank.SIX
        return card.rank is top.rank

    # ------------------------------------------------------------ choices

    def _play(
        self, rules: HundredOneRules, view: HundredOneSeatView, plays: Sequence[Play]
    ) -> Action:
        ctx = _Turn(self, rules, view)
        best: Action = plays[0]
        best_score = float("-inf")
        for action in plays:
            score = ctx.value(tuple(c for c in ctx.hand if c is not action.card), action.card)
            if score > best_score:
                best, best_score = action, score
        return best

    def _order(
        self, rules: HundredOneRules, view: HundredOneSeatView, orders: Sequence[Order]
    ) -> Action:
        turn = _Turn(self, rules, view)
        scores: dict[Suit, float] = dict.fromkeys(SUITS, 0.0)
        for c in turn.hand:
            if c.rank is not turn.master and c.suit is not None:
                scores[c.suit] += 1.0 + 0.05 * card_points(rules, c)
        return max(orders, key=lambda o: scores[o.suit])


_WIN = 1000.0
"""Worth of emptying the hand (winning the round) within the turn."""
_BUDGET = 400
"""Most positions searched for one decision (long chains of nines and skips
in a big hand would otherwise take too long)."""


class _Turn:
    """One play decision: what the view says, and the search over the cards
    we may lay in a row (a nine, or a skip with two players, lets us move
    again: we must then follow our own card or draw)."""

    def __init__(
        self, player: HundredOneHeuristic, rules: HundredOneRules, view: HundredOneSeatView
    ) -> None:
        w = self.w = player.w
        self.player = player
        self.rules = rules
        seat = view.seat
        self.hand = view.hand
        hands = view.hands
        gone = view.eliminated
        others = [s for s in range(len(hands)) if s != seat and s not in gone]
        fewest = min((hands[s] for s in others), default=5)
        self.two = len(others) == 1
        self.held = hands[player._next(view, seat)]
        self.master = player.master_rank(rules)
        # Points matter more the sooner the round may end.
        self.weight = w.points * (1.0 + w.urgency / (1.0 + fewest))
        self.close = 1.0 + w.close / max(self.held, 1)
        self.jack_danger = self.master is Rank.JACK and fewest <= w.jack_close
        self.english = rules.ace is AceMode.ENGLISH
        mine = set(self.hand)
        self.unseen = [c for c in _deck(rules.deck) if c not in mine]
        self._stuck: dict[Card, float] = {}
        self._memo: dict[tuple[tuple[Card, ...], Card], float] = {}
        self._budget = _BUDGET

    def fits(self, card: Card, top: Card) -> bool:
        return self.player._fits_on(self.rules, card, top)

    def p_stuck(self, top: Card) -> float:
        """Chance that the next player has nothing to lay on ``top`` (the
        cards we cannot see are spread evenly over the other hands, the stock
        and the discard pile)."""
        p = self._stuck.get(top)
        if p is None:
            pool = len(self.unseen)
            fits = sum(1 for c in self.unseen if c is not top and self.fits(c, top))
            p = 1.0
            for i in range(min(self.held, pool)):
                if pool - fits - i <= 0:
                    p = 0.0
                    break
                p *= (pool - fits - i) / (pool - i)
            self._stuck[top] = p
        return p

    def followers(self, rest: Sequence[Card], top: Card) -> int:
        return sum(1 for c in rest if c.rank is not self.master and self.fits(c, top))

    def longest_suit(self, rest: Sequence[Card]) -> int:
        return max(
            (sum(1 for c in rest if c.suit is s and c.rank is not self.master) for s in SUITS),
            default=0,
        )

    def value(self, rest: tuple[Card, ...], card: Card) -> float:
        """Worth of laying ``card`` and going on as well as we can, ``rest``
        being the hand left."""
        w = self.w
        score = self.weight * card_points(self.rules, card)
        if not rest:
            bonus = 0.0
            if self.master is Rank.QUEEN and card.rank is Rank.QUEEN:
                bonus = 40.0 if card.suit is Suit.SPADES else 20.0
            return _WIN + score + bonus
        if card.rank is self.master:
            if self.jack_danger:
                score += w.master_keep  # a jack held at the end eliminates
            elif any(c.rank is not self.master for c in rest):
                score -= w.master_keep
            elif card.suit is Suit.SPADES:
                score -= 1.0  # keep the queen of spades to finish (-40)
            # We order a suit next, and follow our own order.
            return score + w.follow * min(self.longest_suit(rest), 3)
        draw, skip, again, answerable = effect(self.rules, card)
        if self.english and card.rank is Rank.ACE:
            # We must add a card of the ace's suit (then order), or draw one.
            same = [c for c in rest if c.suit is card.suit]
            if not same:
                return score - w.stuck
            return score + max(self.weight * card_points(self.rules, c) for c in same)
        if again or (self.two and (skip or answerable)):
            return score + draw * w.draw * self.close + self.again(rest, card)
        score += (draw * w.draw + (w.skip if skip or answerable else 0.0)) * self.close
        return score + w.block * self.p_stuck(card) + w.follow * min(self.followers(rest, card), 3)

    def again(self, rest: tuple[Card, ...], top: Card) -> float:
        """Worth of moving again with ``rest`` on ``top``."""
        key = (rest, top)
        memo = self._memo.get(key)
        if memo is not None:
            return memo
        fitting = [i for i, card in enumerate(rest) if self.fits(card, top)]
        if not fitting:
            best = -self.w.stuck  # nothing fits: we draw
        elif self._budget <= 0:
            # Out of search: guess from how many cards could go on.
            best = self.w.follow * min(len(fitting), 3)
        else:
            # Laying the master card when nothing else fits is no worse than
            # being stuck, whatever keeping it would have been worth.
            best = -self.w.stuck
            for i in fitting:
                self._budget -= 1
                best = max(best, self.value(rest[:i] + rest[i + 1 :], rest[i]))
        self._memo[key] = best
        return best


COMPUTER = Computer(
    __name__,
    HundredOneHeuristic(),
    moves_per_second=22_000,
    horizon=Horizon(
        stop_at=frozenset({"round_over", "match_over"}), lower_is_better=True, scale=30.0
    ),
    arena=Arena(
        (Trial("classic", 2), *level_trials("classic", deals=20, quick_deals=1)),
        deals=20,
        quick_deals=4,
        max_moves=5_000,
    ),
)
