"""How strong and how fast the computer players are.

Every game in the catalog (:data:`bot.catalog.CATALOG`) gets its lines: each
preset at its fewest seats against random, the default preset against the
game's plain baseline where it has one and at up to four seats.  Each line
plays ``--games`` seeded games of one heuristic seat against
opponents of one kind (the seat it takes moves round the table game by game)
and prints its win rate next to a fair share (what any seat of a table of
equals would get), and the mean and worst time of one ``choose`` call::

    .venv/bin/python -m bench.players              # 400 games per line
    .venv/bin/python -m bench.players --quick      # 40 games per line
    .venv/bin/python -m bench.players --games 2000 --only durak

A win is not being a loser in a game that has losers (not the durak in
Durak; a draw is not a win), else winning alone (the match in 101, the
highest total alone in Joker, the race in Daytona).  Opponents: ``random``
(:class:`players.RandomPlayer`) and two plain baselines defined here,
``lowest`` for Durak (lowest card everywhere, trumps last, takes only when it
cannot cover, throws in plain cards only) and ``points`` for 101 (highest
penalty first, master card last, orders its longest suit), which are what the
heuristics were tuned against.

``endless`` counts games abandoned as endless: a Durak table of players
that all choose deterministically can pass the same cards round for ever
(the engine has no rule to end that), which the baselines do.

Plain Python, one process: the times are per core.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.catalog import CATALOG
from games.cards import Card, Rank
from games.core import Action, Outcome, Rules
from games.durak.actions import Attack, Beat, Pass, Take, Throw
from games.durak.views import DurakSeatView
from games.hundred_one import HundredOneRules, Master, Order, Play, card_points
from games.hundred_one.views import HundredOneSeatView
from players import RandomPlayer
from players.arena import play
from players.base import Player

__all__ = ["MAX_MOVES", "HighestPoints", "Line", "LowestCard", "main", "measure"]


MAX_MOVES = 5_000
"""A game still on after this many moves is abandoned as endless (the longest
finished ones take well under a thousand)."""


class LowestCard:
    """Durak baseline: the lowest card everywhere, trumps last."""

    def choose(
        self, rules: Rules, view: DurakSeatView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        trump = view.trump

        def key(card: Card) -> tuple[bool, int]:
            return card.suit is trump, int(card.rank)

        leads = [a for a in legal if isinstance(a, Attack) and len(a.cards) == 1]
        if leads:
            return min(leads, key=lambda a: key(a.cards[0]))
        beats = [a for a in legal if isinstance(a, Beat)]
        take = next((a for a in legal if isinstance(a, Take)), None)
        if take is not None:
            return min(beats, key=lambda a: key(a.cover)) if beats else take
        throws = [a for a in legal if isinstance(a, Throw) and a.card.suit is not trump]
        if throws:
            return min(throws, key=lambda a: key(a.card))
        passes = [a for a in legal if isinstance(a, Pass)]
        if passes:
            return passes[0]
        return min((a for a in legal if isinstance(a, Throw)), key=lambda a: key(a.card))


class HighestPoints:
    """101 baseline: the highest penalty first, the master card last, and
    order the suit it holds most of."""

    def choose(
        self, rules: Rules, view: HundredOneSeatView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        assert isinstance(rules, HundredOneRules)
        master = Rank.JACK if rules.master is Master.JACK else Rank.QUEEN
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return max(plays, key=lambda a: (a.card.rank is not master, card_points(rules, a.card)))
        orders = [a for a in legal if isinstance(a, Order)]
        if orders:
            hand = view.hand
            return max(orders, key=lambda o: sum(1 for c in hand if c.suit is o.suit))
        return legal[0]


class Timed:
    """Times every ``choose`` of the player it wraps."""

    def __init__(self, player: Player[Any]) -> None:
        self.player = player
        self.calls = 0
        self.total_ns = 0
        self.worst_ns = 0

    def choose(
        self, rules: Rules, view: Any, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        start = time.perf_counter_ns()
        action = self.player.choose(rules, view, legal, rng)
        spent = time.perf_counter_ns() - start
        self.calls += 1
        self.total_ns += spent
        self.worst_ns = max(self.worst_ns, spent)
        return action


@dataclass(frozen=True)
class Line:
    game: str
    preset: str
    seats: int
    opponent: str
    games: int
    wins: int
    unfinished: int
    """Games abandoned after :data:`MAX_MOVES` moves (count as not won)."""
    fair: float
    us_per_decision: float
    worst_us: float

    @property
    def rate(self) -> float:
        return self.wins / self.games


OPPONENTS: dict[str, Player[Any]] = {
    "random": RandomPlayer(),
    "lowest": LowestCard(),
    "points": HighestPoints(),
}
BASELINES = {"durak": "lowest", "101": "points"}
"""The plain baseline each game's heuristic was tuned against, where it has one."""


def measure(
    key: str, preset: str, rules: Rules, seats: int, opponent: str, games: int, seed: int
) -> Line:
    """Play ``games`` games of one heuristic seat against ``opponent`` seats."""
    timed = Timed(CATALOG.computers[key].heuristic)
    other = OPPONENTS[opponent]
    engine = CATALOG.specs[key].game
    wins = unfinished = 0
    fair = 0.0
    for i in range(games):
        rng = random.Random(seed * 1_000_003 + i)
        me = i % seats
        players: list[Player[Any]] = [other] * seats
        players[me] = timed
        try:
            outcome = play(engine.new(rules, seats, rng), players, rng, max_steps=MAX_MOVES)
        except RuntimeError:  # deterministic players passing cards round for ever
            unfinished += 1
            continue
        wins += _won(outcome, me)
        fair += len(outcome.winners) / seats if outcome.losers else 1 / seats
    calls = max(timed.calls, 1)
    return Line(
        key,
        preset,
        seats,
        opponent,
        games,
        wins,
        unfinished,
        fair / max(games - unfinished, 1),
        timed.total_ns / calls / 1000,
        timed.worst_ns / 1000,
    )


def _won(outcome: Outcome, seat: int) -> bool:
    """Not a loser where a game has them (not the durak), else the winner alone
    (the highest total alone in Joker)."""
    if outcome.losers:
        return seat in outcome.winners
    return outcome.winners == {seat}


def _plan(only: str | None) -> list[tuple[str, str, Rules, int, str]]:
    """Every game in the catalog: each preset at its fewest seats against
    random, the default preset against the game's plain baseline (if it has
    one) and at up to four seats against random."""
    plan: list[tuple[str, str, Rules, int, str]] = []
    for spec in CATALOG.specs.values():
        if only not in (None, spec.key):
            continue
        default = spec.preset()
        seats = spec.seat_range(default)
        plan += [
            (spec.key, name, rules, spec.seat_range(rules)[0], "random")
            for name, rules in spec.presets.items()
        ]
        baseline = BASELINES.get(spec.key)
        if baseline is not None:
            plan.append((spec.key, spec.default_preset, default, seats[0], baseline))
        if (most := min(seats[-1], 4)) > seats[0]:
            plan.append((spec.key, spec.default_preset, default, most, "random"))
    return plan


def main(argv: Sequence[str] | None = None) -> list[Line]:
    parser = argparse.ArgumentParser(prog="python -m bench.players", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="40 games per line")
    parser.add_argument("--games", type=int, help="games per line (default 400)")
    parser.add_argument("--only", choices=sorted(CATALOG.specs), help="one game only")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    games = args.games or (40 if args.quick else 400)
    header = (
        f"{'game':<7} {'preset':<11} {'seats':>5} {'against':<8} {'games':>6} "
        f"{'wins':>6} {'fair':>6} {'µs/move':>8} {'worst µs':>9} {'endless':>7}"
    )
    print(header)
    print("-" * len(header))
    lines: list[Line] = []
    for key, preset, rules, seats, opponent in _plan(args.only):
        line = measure(key, preset, rules, seats, opponent, games, args.seed)
        lines.append(line)
        print(
            f"{line.game:<7} {line.preset:<11} {line.seats:>5} {line.opponent:<8} "
            f"{line.games:>6} {line.rate:>6.1%} {line.fair:>6.0%} "
            f"{line.us_per_decision:>8.0f} {line.worst_us:>9.0f} {line.unfinished:>7}",
            flush=True,
        )
    return lines


if __name__ == "__main__":
    main(sys.argv[1:])
