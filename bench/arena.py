"""The arena: seeded tournaments between computer players, with duplicate deals.

Every deal is played once per seat of the player under test (the same seed,
the player moved round the table), so the cards' luck cancels out.  It prints,
per line, the games played, the rate the aim is about with its 95% interval
(Wilson), the other rates that matter, the time per searched move (median and
p99, the level's budget beside it) and simulated moves per second::

    .venv/bin/python -m bench.arena --quick          # a few minutes: smaller budgets, fewer deals
    .venv/bin/python -m bench.arena                  # the aims: hard level (1 s a move)
    .venv/bin/python -m bench.arena --only durak --seats 2 --deals 100 --level normal
    .venv/bin/python -m bench.arena --calibrate      # rollout moves per second, per game

Games run in ``--workers`` processes (default: the cores), one game per task,
so each search has a core to itself as it would in the bot's pool.

What the lines mean:

* ``durak 2``: podkidnoy, the search player against the heuristic (and against
  random); a game is won when the other one is the durak, a draw counts half.
* ``durak 4``: one search player against three heuristics; "first out" is the
  aim's rate, "not durak" beside it.
* ``101 2``: classic, matches won against the heuristic.
* ``joker 4``: classic, one search player against three heuristics: whole games
  won (the highest total; a shared first place counts its share), and the
  player's deals with its bid made, overall and by deal size.
* ``daytona 3``: the sprint; the deuce choice's effect: the player under test
  (always 2, the heuristic, the search) against two heuristics; races are
  luck, so only the mean score and win rate are shown.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from games.core import Action, Game, Outcome, Rules
from games.daytona import AS_TWO, Deuce
from games.daytona import PRESETS as DAYTONA_PRESETS
from games.durak import PRESETS as DURAK_PRESETS
from games.hundred_one import PRESETS as HUNDRED_ONE_PRESETS
from games.joker import PRESETS as JOKER_PRESETS
from players import RandomPlayer
from players.arena import next_seat
from players.base import Player
from players.levels import GAMES, HEURISTICS, MOVES_PER_SECOND, Level, search_player
from players.search import Situation

__all__ = ["Line", "main"]

MAX_MOVES = {"durak": 1_000, "101": 5_000, "joker": 5_000, "daytona": 50_000}
"""A game still on after this many moves is called endless and counted as a
draw (Durak players can pass the same cards round for ever; finished Durak
games take well under 200 moves, a Daytona sprint about 1,000 draws)."""


class AlwaysTwo:
    """Daytona baseline: a deuce always counts 2."""

    def choose(
        self, rules: Rules, view: Any, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        if any(isinstance(a, Deuce) for a in legal):
            return AS_TWO
        return legal[0]


@dataclass(frozen=True, slots=True)
class Line:
    """One pairing: the player under test in every seat of ``seats`` in turn."""

    game: str
    preset: str
    seats: int
    tested: str
    """"search", "heuristic" or "always2"."""
    against: str
    """"heuristic" or "random"."""


@dataclass(slots=True)
class Played:
    """One game's result for the player under test."""

    score: float
    """1 won, 0 lost, a share for a shared first place or a draw."""
    first: bool
    not_loser: bool
    points: int | None
    times: list[float]
    moves: int
    seconds: float
    bids: list[tuple[int, bool]] = field(default_factory=list)
    endless: bool = False
    """Joker: (cards dealt, bid made) for each of the player's deals."""


def _presets(game: str) -> Mapping[str, Rules]:
    presets: dict[str, Mapping[str, Rules]] = {
        "durak": DURAK_PRESETS,
        "101": HUNDRED_ONE_PRESETS,
        "joker": JOKER_PRESETS,
        "daytona": DAYTONA_PRESETS,
    }
    return presets[game]


def play_one(line: Line, seed: int, seat: int, level: Level, scale: float) -> Played:
    """Play the deal of ``seed`` with the tested player at ``seat``."""
    rules = _presets(line.game)[line.preset]
    game: Game[Any, Any] = GAMES[line.game].new(rules, line.seats, random.Random(seed))
    others: Player = HEURISTICS[line.game] if line.against == "heuristic" else RandomPlayer()
    tested: Player | None = None
    if line.tested == "heuristic":
        tested = HEURISTICS[line.game]
    elif line.tested == "always2":
        tested = AlwaysTwo()
    searcher = search_player(line.game, level, scale=scale) if line.tested == "search" else None
    rng = random.Random(f"arena:{seed}:{seat}")
    times: list[float] = []
    simulated = 0
    thinking = 0.0
    moves = 0
    while actors := game.to_move():
        if moves >= MAX_MOVES[line.game]:
            return Played(0.5, False, True, None, times, simulated, thinking, endless=True)
        actor = next_seat(game, sorted(actors), rng)
        legal = game.legal_actions(actor)
        if actor != seat:
            action = others.choose(game.rules, game.view(actor), legal, rng)
        elif searcher is not None:
            started = time.perf_counter()
            result = searcher.search(Situation.of(game, seat), random.Random(rng.getrandbits(64)))
            took = time.perf_counter() - started
            if result.worlds:
                times.append(took)
                simulated += result.moves
                thinking += took
            action = result.action
        else:
            assert tested is not None
            action = tested.choose(game.rules, game.view(actor), legal, rng)
        game.apply(actor, action)
        moves += 1
    outcome = game.outcome()
    assert outcome is not None
    return Played(
        score=_score(outcome, seat),
        first=seat in outcome.places[0],
        not_loser=seat not in outcome.losers,
        points=None if outcome.scores is None else outcome.scores[seat],
        times=times,
        moves=simulated,
        seconds=thinking,
        bids=_bids(game, seat) if line.game == "joker" else [],
    )


def _score(outcome: Outcome, seat: int) -> float:
    if outcome.draw:
        return 0.5
    if len(outcome.places) == 2 and outcome.losers:  # Durak: not the durak wins
        return float(seat not in outcome.losers)
    first = outcome.places[0]
    return 1 / len(first) if seat in first else 0.0


def _bids(game: Game[Any, Any], seat: int) -> list[tuple[int, bool]]:
    sheet = game.public_view()["sheet"]
    return [(row["cards"], row["bids"][seat] == row["tricks"][seat]) for row in sheet]


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The score interval of a rate (95% by default), clipped to [0, 1]."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _percent(successes: float, n: int) -> str:
    low, high = wilson(successes, n)
    return f"{100 * successes / n:5.1f}% [{100 * low:4.1f}, {100 * high:5.1f}]"


LINES = (
    Line("durak", "podkidnoy", 2, "search", "heuristic"),
    Line("durak", "podkidnoy", 2, "search", "random"),
    Line("durak", "podkidnoy", 4, "search", "heuristic"),
    Line("101", "classic", 2, "search", "heuristic"),
    Line("joker", "classic", 4, "search", "heuristic"),
    Line("daytona", "sprint", 3, "always2", "heuristic"),
    Line("daytona", "sprint", 3, "heuristic", "heuristic"),
    Line("daytona", "sprint", 3, "search", "heuristic"),
)

DEALS = {"durak": 50, "101": 20, "joker": 3, "daytona": 100}
"""Deals per line (each played once per seat) at the hard level."""
QUICK_DEALS = {"durak": 12, "101": 4, "joker": 1, "daytona": 30}
QUICK_SCALE = 0.1
"""--quick searches with a tenth of the level's budget."""


def _run_line(
    pool: ProcessPoolExecutor, line: Line, deals: int, level: Level, scale: float, base: int
) -> list[Played]:
    tasks = [
        pool.submit(play_one, line, base + d, seat, level, scale)
        for d in range(deals)
        for seat in range(line.seats)
    ]
    return [t.result() for t in tasks]


def _report(line: Line, results: list[Played], level: Level, scale: float) -> str:
    n = len(results)
    won = sum(r.score for r in results)
    parts = [
        f"{line.game:7} {line.seats}  {line.tested:9} vs {line.against:9} {n:5}",
        f"won {_percent(won, n)}",
    ]
    if line.game == "durak" and line.seats > 2:
        parts.append(f"first out {_percent(sum(r.first for r in results), n)}")
    endless = sum(r.endless for r in results)
    if endless:
        parts.append(f"endless {endless}")
    if line.game == "joker":
        bids = [made for r in results for _, made in r.bids]
        parts.append(f"bids made {_percent(sum(bids), len(bids))}")
    if line.game == "daytona":
        parts.append(f"mean score {statistics.fmean(r.points or 0 for r in results):5.1f}")
    times = sorted(t for r in results for t in r.times)
    if times:
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        seconds = sum(r.seconds for r in results)
        speed = sum(r.moves for r in results) / seconds if seconds else 0.0
        parts.append(
            f"move {1000 * statistics.median(times):4.0f}/{1000 * p99:4.0f} ms"
            f" (budget {1000 * level.seconds * scale:.0f}), {speed:,.0f} sim/s"
        )
    text = "  ".join(parts)
    if line.game == "joker":
        by_size: dict[int, list[bool]] = defaultdict(list)
        for r in results:
            for cards, made in r.bids:
                by_size[cards].append(made)
        text += "\n        exact bids by deal size: " + ", ".join(
            f"{cards}: {100 * sum(v) / len(v):.0f}%" for cards, v in sorted(by_size.items())
        )
    return text


def calibrate() -> None:
    """Simulated moves per second of each game's search, on this machine."""
    for key in GAMES:
        line = next(line for line in LINES if line.game == key and line.tested == "search")
        results = [play_one(line, 900 + d, 0, Level.NORMAL, 1.0) for d in range(2)]
        seconds = sum(r.seconds for r in results)
        speed = sum(r.moves for r in results) / seconds if seconds else 0.0
        print(f"{key:8} {speed:10,.0f} simulated moves/s (table: {MOVES_PER_SECOND[key]:,})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller budgets, fewer deals")
    parser.add_argument("--level", choices=[Level.NORMAL, Level.HARD], default=Level.HARD)
    parser.add_argument("--scale", type=float, help="budget scale (default 1, --quick 0.1)")
    parser.add_argument("--deals", type=int, help="deals per line (each played once per seat)")
    parser.add_argument("--only", help="one game: durak, 101, joker or daytona")
    parser.add_argument("--seats", type=int, help="only the lines of this many seats")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--calibrate", action="store_true")
    args = parser.parse_args(argv)
    if args.calibrate:
        calibrate()
        return 0
    level = Level(args.level)
    scale = args.scale if args.scale is not None else (QUICK_SCALE if args.quick else 1.0)
    lines = [
        line
        for line in LINES
        if args.only in (None, line.game) and args.seats in (None, line.seats)
    ]
    print(f"level {level} ({1000 * level.seconds * scale:.0f} ms a move), {args.workers} workers")
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        for line in lines:
            deals = args.deals or (QUICK_DEALS if args.quick else DEALS)[line.game]
            results = _run_line(pool, line, deals, level, scale, args.seed * 100_000)
            print(_report(line, results, level, scale), flush=True)
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
