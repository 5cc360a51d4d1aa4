"""How strong and how fast the computer players are.

Each line plays ``--games`` seeded games of one heuristic seat against
opponents of one kind (the seat it takes moves round the table game by game)
and prints its win rate next to a fair share (what any seat of a table of
equals would get), and the mean and worst time of one ``choose`` call::

    .venv/bin/python -m bench.players              # 400 games per line
    .venv/bin/python -m bench.players --quick      # 40 games per line
    .venv/bin/python -m bench.players --games 2000 --only durak

A win is not being the durak (a draw is not a win) in Durak, winning the
match in 101, and the highest total alone in Joker.  Opponents: ``random``
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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.cards import Rank, Suit
from games.core import Action, Game, Rules
from games.durak import Durak, DurakRules, Transfers
from games.durak.actions import Attack, Beat, Pass, Take, Throw
from games.hundred_one import PRESETS, HundredOne, HundredOneRules, Master, Order, Play, card_points
from games.joker import PRESETS as JOKER_PRESETS
from games.joker import Joker
from players import DurakHeuristic, HundredOneHeuristic, JokerHeuristic, RandomPlayer
from players.arena import play
from players.base import Player

__all__ = ["MAX_MOVES", "HighestPoints", "Line", "LowestCard", "main", "measure"]


MAX_MOVES = 5_000
"""A game still on after this many moves is abandoned as endless (the longest
finished ones take well under a thousand)."""


class LowestCard:
    """Durak baseline: the lowest card everywhere, trumps last."""

    def choose(
        self, rules: Rules, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        trump = Suit(view["trump"])

        def key(card: Any) -> tuple[bool, int]:
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
        self, rules: Rules, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        assert isinstance(rules, HundredOneRules)
        master = Rank.JACK if rules.master is Master.JACK else Rank.QUEEN
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            return max(plays, key=lambda a: (a.card.rank is not master, card_points(rules, a.card)))
        orders = [a for a in legal if isinstance(a, Order)]
        if orders:
            hand = view["hand"]
            return max(orders, key=lambda o: sum(1 for c in hand if c[1] == o.suit.value))
        return legal[0]


class Timed:
    """Times every ``choose`` of the player it wraps."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.calls = 0
        self.total_ns = 0
        self.worst_ns = 0

    def choose(
        self, rules: Rules, view: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
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


OPPONENTS: dict[str, Player] = {
    "random": RandomPlayer(),
    "lowest": LowestCard(),
    "points": HighestPoints(),
}


def measure(
    key: str, preset: str, rules: Rules, seats: int, opponent: str, games: int, seed: int
) -> Line:
    """Play ``games`` games of one heuristic seat against ``opponent`` seats."""
    heuristics: dict[str, Player] = {
        "durak": DurakHeuristic(),
        "101": HundredOneHeuristic(),
        "joker": JokerHeuristic(),
    }
    timed = Timed(heuristics[key])
    other = OPPONENTS[opponent]
    classes: dict[str, type[Game[Any, Any]]] = {"durak": Durak, "101": HundredOne, "joker": Joker}
    cls = classes[key]
    wins = unfinished = 0
    for i in range(games):
        rng = random.Random(seed * 1_000_003 + i)
        me = i % seats
        players: list[Player] = [other] * seats
        players[me] = timed
        try:
            outcome = play(cls.new(rules, seats, rng), players, rng, max_steps=MAX_MOVES)
        except RuntimeError:  # deterministic players passing cards round for ever
            unfinished += 1
            continue
        wins += outcome.winners == {me} if key == "joker" else me in outcome.winners
    fair = 1 - 1 / seats if key == "durak" else 1 / seats
    calls = max(timed.calls, 1)
    return Line(
        key,
        preset,
        seats,
        opponent,
        games,
        wins,
        unfinished,
        fair,
        timed.total_ns / calls / 1000,
        timed.worst_ns / 1000,
    )


def _plan(only: str | None) -> list[tuple[str, str, Rules, int, str]]:
    plan: list[tuple[str, str, Rules, int, str]] = []
    if only in (None, "durak"):
        podkidnoy, perevodnoy = DurakRules(), DurakRules(transfer=Transfers.TRANSFER)
        plan += [
            ("durak", "podkidnoy", podkidnoy, 2, "random"),
            ("durak", "podkidnoy", podkidnoy, 2, "lowest"),
            ("durak", "perevodnoy", perevodnoy, 2, "random"),
            ("durak", "perevodnoy", perevodnoy, 2, "lowest"),
            ("durak", "podkidnoy", podkidnoy, 4, "random"),
            ("durak", "podkidnoy", podkidnoy, 4, "lowest"),
        ]
    if only in (None, "101"):
        plan.append(("101", "classic", PRESETS["classic"], 2, "points"))
        plan += [("101", name, rules, 2, "random") for name, rules in PRESETS.items()]
        plan.append(("101", "classic", PRESETS["classic"], 4, "random"))
    if only in (None, "joker"):
        plan += [
            ("joker", "classic", JOKER_PRESETS["classic"], 4, "random"),
            ("joker", "minus", JOKER_PRESETS["minus"], 4, "random"),
            ("joker", "classic", JOKER_PRESETS["classic"], 3, "random"),
        ]
    return plan


def main(argv: Sequence[str] | None = None) -> list[Line]:
    parser = argparse.ArgumentParser(prog="python -m bench.players", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="40 games per line")
    parser.add_argument("--games", type=int, help="games per line (default 400)")
    parser.add_argument("--only", choices=["durak", "101", "joker"], help="one game only")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    games = args.games or (40 if args.quick else 400)
    header = (
        f"{'game':<6} {'preset':<11} {'seats':>5} {'against':<8} {'games':>6} "
        f"{'wins':>6} {'fair':>6} {'µs/move':>8} {'worst µs':>9} {'endless':>7}"
    )
    print(header)
    print("-" * len(header))
    lines: list[Line] = []
    for key, preset, rules, seats, opponent in _plan(args.only):
        line = measure(key, preset, rules, seats, opponent, games, args.seed)
        lines.append(line)
        print(
            f"{line.game:<6} {line.preset:<11} {line.seats:>5} {line.opponent:<8} "
            f"{line.games:>6} {line.rate:>6.1%} {line.fair:>6.0%} "
            f"{line.us_per_decision:>8.0f} {line.worst_us:>9.0f} {line.unfinished:>7}",
            flush=True,
        )
    return lines


if __name__ == "__main__":
    main(sys.argv[1:])
