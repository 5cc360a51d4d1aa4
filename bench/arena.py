"""The arena: seeded tournaments between computer players, with duplicate deals.

Every deal is played once per seat of the player under test (the same seed,
the player moved round the table; in teams once per side), so the cards'
luck cancels out.  It prints,
per line, the games played, the rate the aim is about with its 95% interval
(Wilson), the other rates that matter, the time per searched move (median and
p99, the level's budget beside it) and simulated moves per second::

    .venv/bin/python -m bench.arena --quick          # a few minutes: smaller budgets, fewer deals
    .venv/bin/python -m bench.arena                  # the aims: hard level (1 s a move)
    .venv/bin/python -m bench.arena --only durak --seats 2 --deals 100 --level normal
    .venv/bin/python -m bench.arena --only durak --against ismcts --quick
    .venv/bin/python -m bench.arena --only durak --preset believe --deals 10
    .venv/bin/python -m bench.arena --calibrate      # rollout moves per second, per game

``--untimed`` lifts the searches' time limit, so that every search spends
exactly its budget of simulated moves: the same results for a seed on any
machine at any load (the times shown then say what the budget costs there).
The lines against reference players are always played so: the comparison is
at the same move budget, and a time limit striking on a loaded machine would
cut our search (whose rollouts cost several times a random playout's moves)
short of it and not the reference player.

Games run in ``--workers`` processes (default: the cores), one game per task,
so each search has a core to itself as it would in the bot's pool.

Every game in the catalog (:data:`bot.catalog.CATALOG`) brings its own lines:
its computer's :attr:`~players.computer.Computer.arena` (in
``players/<game>.py``) says the trials, the deals and when a game is endless.
Today's lines mean:

* ``durak 2``: podkidnoy, the search player against the heuristic (and against
  random); a game is won when the other one is the durak, a draw counts half.
* ``durak 4``: one search player against three heuristics; "first out" is the
  aim's rate, "not durak" beside it.
* ``durak 2 ... vs ismcts`` / ``vs pimc``: the search player against a
  reference player we did not write (:mod:`players.reference`: information
  set MCTS, perfect information Monte Carlo) searching with the same budget;
  ``durak 4`` against three of them compares who goes out first: the search
  player's rate beside each reference's ("each of them").
* ``durak 2 search vs normal`` / ``101 2 search vs normal``: what the levels
  mean, on duplicate deals: the level measured (hard) against the normal
  level's search, and ``heuristic vs normal``: the easy level (the heuristic)
  against the normal one.
* ``101 2``: classic, matches won against the heuristic.
* ``joker 4``: classic, one search player against three heuristics: whole games
  won (the highest total; a shared first place counts its share), and the
  player's deals with its bid made, overall and by deal size.
* ``durak/<variant> 2``: every other Durak preset, the search against the
  heuristic; ``durak/teams 4``: two searchers against two heuristics, each
  deal played once from each side.  Not in ``--quick`` (``--preset`` and
  ``--deals`` play them there).
* ``daytona 3``: the sprint; the deuce choice's effect: the player under test
  (always 2, the heuristic, the search) against two heuristics; races are
  luck, so only the mean score and win rate are shown.

Games that keep a score (all but Durak) show the player's mean final score.

A line whose trial has an aim (:class:`~players.computer.Aim`: podkidnoy's
92% against the heuristic, 55% against each reference player and going out
first more often than each of them, hard's 60% against normal and easy's
losing to it, Joker's bids) says whether it is met, and the run ends with how
many were: the aims are the hard level's, at its full budget; ``--quick`` and
``--scale`` show the lines' shape, not the aims.
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
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bot.catalog import CATALOG
from games.core import Game, Outcome
from games.joker.views import JokerPublicView
from players import RandomPlayer
from players.arena import next_seat
from players.base import Player
from players.computer import Computer, Trial
from players.going_round import Met
from players.levels import Level, budget, search_player, seconds
from players.reference import REFERENCES
from players.search import Searcher, Situation

__all__ = ["Line", "main"]


@dataclass(frozen=True, slots=True)
class Line:
    """One trial of one game (the game's :class:`~players.computer.Trial`)."""

    game: str
    trial: Trial

    @property
    def seats(self) -> int:
        return self.trial.seats

    @property
    def computer(self) -> Computer:
        return CATALOG.computers[self.game]

    @property
    def label(self) -> str:
        """The game, and the preset when it is not the game's first."""
        first = next(iter(CATALOG.specs[self.game].presets))
        preset = self.trial.preset
        return self.game if preset == first else f"{self.game}/{preset}"

    @property
    def sides(self) -> int:
        """The seats each deal is played from: every seat, or with
        :attr:`~players.computer.Trial.partners` one of each team."""
        return 2 if self.trial.partners else self.trial.seats


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
    """Joker: (cards dealt, bid made) for each of the player's deals."""
    endless: bool = False
    their_first: float = 0.0
    """The share of the other seats that went out (or finished) first."""
    their_times: list[float] = field(default_factory=list)
    """Seconds per searched move of the other seats, when they search."""


def play_one(
    line: Line, seed: int, seat: int, level: Level, scale: float, untimed: bool = False
) -> Played:
    """Play the deal of ``seed`` with the tested player at ``seat`` (the
    searches' time limit lifted as :func:`_timed` says)."""
    timed = _timed(line, untimed)
    trial, computer = line.trial, line.computer
    arena = computer.arena
    assert arena is not None
    spec = CATALOG.specs[line.game]
    rules = spec.preset(trial.preset)
    game: Game[Any, Any, Any, Any] = spec.game.new(rules, trial.seats, random.Random(seed))
    ours = {seat}
    if trial.partners:
        ours = set(next(team for team in spec.teams(rules, trial.seats) if seat in team))
    others: Player[Any] | None = None
    reference: Searcher | None = None
    if trial.against in REFERENCES:
        reference = REFERENCES[trial.against](
            budget(computer, level, scale=scale, timed=timed), computer.horizon
        )
    elif trial.against == Level.NORMAL:
        reference = search_player(computer, Level.NORMAL, scale=scale, timed=timed)
    elif trial.against == "heuristic":
        others = computer.heuristic
    elif trial.against == "random":
        others = RandomPlayer()
    else:
        raise ValueError(f"{line.game}: no opponent called {trial.against!r}")
    tested: Player[Any] | None = trial.baseline
    if trial.tested == "heuristic":
        tested = computer.heuristic
    searcher = None
    if trial.tested == "search":
        searcher = search_player(computer, level, scale=scale, timed=timed)
    rng = random.Random(f"arena:{seed}:{seat}")
    times: list[float] = []
    their_times: list[float] = []
    simulated = 0
    thinking = 0.0
    moves = 0
    met = Met()
    while actors := game.to_move():
        if moves >= arena.max_moves:
            return Played(0.5, False, True, None, times, simulated, thinking, endless=True)
        actor = next_seat(game, sorted(actors), rng)
        legal = game.legal_actions(actor)
        if met.going_round(actor, game.view(actor), moves) and len(legal) > 1:
            action = rng.choice(legal)  # as the bot's computers break a round
        elif actor not in ours and reference is not None:
            started = time.perf_counter()
            found = reference.search(Situation.of(game, actor), random.Random(rng.getrandbits(64)))
            if found.worlds:
                their_times.append(time.perf_counter() - started)
            action = found.action
        elif actor not in ours:
            assert others is not None
            action = others.choose(game.rules, game.view(actor), legal, rng)
        elif searcher is not None:
            started = time.perf_counter()
            result = searcher.search(Situation.of(game, actor), random.Random(rng.getrandbits(64)))
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
    others_first = sum(s in outcome.places[0] for s in range(trial.seats) if s not in ours)
    return Played(
        score=_score(outcome, seat),
        first=seat in outcome.places[0],
        not_loser=seat not in outcome.losers,
        points=None if outcome.scores is None else outcome.scores[seat],
        times=times,
        moves=simulated,
        seconds=thinking,
        bids=_bids(game, seat) if line.game == "joker" else [],
        their_first=others_first / (trial.seats - len(ours)),
        their_times=their_times,
    )


def _score(outcome: Outcome, seat: int) -> float:
    if outcome.draw:
        return 0.5
    if len(outcome.places) == 2 and outcome.losers:  # Durak: not the durak wins
        return float(seat not in outcome.losers)
    first = outcome.places[0]
    return 1 / len(first) if seat in first else 0.0


def _bids(game: Game[Any, Any, Any, Any], seat: int) -> list[tuple[int, bool]]:
    view = game.public_view()
    assert isinstance(view, JokerPublicView)
    return [(row.cards, row.bids[seat] == row.tricks[seat]) for row in view.sheet]


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


LINES = tuple(
    Line(listing.spec.key, trial)
    for listing in CATALOG.listings
    if listing.computer.arena is not None
    for trial in listing.computer.arena.trials
)
"""Every game's trials, in the catalog's order."""
QUICK_SCALE = 0.1
"""--quick searches with a tenth of the level's budget."""


def _run_line(
    pool: ProcessPoolExecutor,
    line: Line,
    deals: int,
    level: Level,
    scale: float,
    base: int,
    untimed: bool,
) -> list[Played]:
    tasks = [
        pool.submit(play_one, line, base + d, seat, level, scale, untimed)
        for d in range(deals)
        for seat in range(line.sides)
    ]
    return [t.result() for t in tasks]


def _timed(line: Line, untimed: bool) -> bool:
    """Whether the line's searches keep their time limit: not with
    ``--untimed``, and never against a reference player (the same simulated
    moves for both sides, whatever the load)."""
    return not untimed and line.trial.against not in REFERENCES


def _by_size(results: list[Played]) -> dict[int, list[bool]]:
    """Joker: whether each bid was made, by the deal's size."""
    by_size: dict[int, list[bool]] = defaultdict(list)
    for r in results:
        for cards, made in r.bids:
            by_size[cards].append(made)
    return dict(sorted(by_size.items()))


def _verdict(line: Line, results: list[Played]) -> bool | None:
    """Whether the line meets its trial's aim (None: it has none)."""
    aim = line.trial.aim
    if aim is None:
        return None
    n = len(results)
    if aim.rate == "bids made":
        bids = [made for r in results for _, made in r.bids]
        sizes = tuple(sum(v) / len(v) for v in _by_size(results).values())
        return aim.met(sum(bids) / len(bids), by_size=sizes)
    if aim.rate == "first out":
        theirs = sum(r.their_first for r in results) / n
        return aim.met(sum(r.first for r in results) / n, theirs=theirs)
    return aim.met(sum(r.score for r in results) / n)


def _report(line: Line, results: list[Played], level: Level, scale: float, timed: bool) -> str:
    n = len(results)
    won = sum(r.score for r in results)
    parts = [
        f"{line.label:17} {line.seats}  {line.trial.tested:9} vs {line.trial.against:9} {n:5}",
        f"won {_percent(won, n)}",
    ]
    if line.game == "durak" and line.seats > 2 and not line.trial.partners:
        parts.append(f"first out {_percent(sum(r.first for r in results), n)}")
        if line.trial.against in REFERENCES:
            parts.append(f"each of them {_percent(sum(r.their_first for r in results), n)}")
    endless = sum(r.endless for r in results)
    if endless:
        parts.append(f"endless {endless}")
    if line.game == "joker":
        bids = [made for r in results for _, made in r.bids]
        parts.append(f"bids made {_percent(sum(bids), len(bids))}")
    verdict = _verdict(line, results)
    if verdict is not None:
        parts.append(f"aim {line.trial.aim}: {'met' if verdict else 'NOT MET'}")
    if all(r.points is not None for r in results):
        parts.append(f"mean score {statistics.fmean(r.points or 0 for r in results):5.1f}")
    times = sorted(t for r in results for t in r.times)
    if times:
        p99 = _p99(times)
        thought = sum(r.seconds for r in results)
        speed = sum(r.moves for r in results) / thought if thought else 0.0
        parts.append(
            f"move {1000 * statistics.median(times):4.0f}/{1000 * p99:4.0f} ms"
            f" (budget {1000 * seconds(line.computer, level) * scale:.0f}"
            f"{'' if timed else ', untimed'}),"
            f" {speed:,.0f} sim/s"
        )
    theirs = sorted(t for r in results for t in r.their_times)
    if theirs:
        median, p99 = statistics.median(theirs), _p99(theirs)
        parts.append(f"theirs {1000 * median:4.0f}/{1000 * p99:4.0f} ms")
    text = "  ".join(parts)
    if line.game == "joker":
        text += "\n        exact bids by deal size: " + ", ".join(
            f"{cards}: {100 * sum(v) / len(v):.0f}%" for cards, v in _by_size(results).items()
        )
    return text


def _p99(ordered: Sequence[float]) -> float:
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def calibrate() -> None:
    """Simulated moves per second of each game's search, on this machine."""
    for key, computer in CATALOG.computers.items():
        line = next((x for x in LINES if x.game == key and x.trial.tested == "search"), None)
        if line is None:
            print(f"{key:8} has no search trial in the arena")
            continue
        # Searches of 0.3 s a move, whatever each game's normal level thinks.
        results = [play_one(line, 900 + d, 0, Level.HARD, 0.3) for d in range(2)]
        thought = sum(r.seconds for r in results)
        speed = sum(r.moves for r in results) / thought if thought else 0.0
        print(f"{key:8} {speed:10,.0f} simulated moves/s (set: {computer.moves_per_second:,})")


def _deals(line: Line, quick: bool) -> int:
    """The line's deals: its trial's own, else its game's."""
    arena = line.computer.arena
    assert arena is not None
    trial = line.trial
    if quick:
        return arena.quick_deals if trial.quick_deals is None else trial.quick_deals
    return trial.deals or arena.deals


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller budgets, fewer deals")
    parser.add_argument("--level", choices=[Level.NORMAL, Level.HARD], default=Level.HARD)
    parser.add_argument("--scale", type=float, help="budget scale (default 1, --quick 0.1)")
    parser.add_argument(
        "--untimed",
        action="store_true",
        help="budgets in simulated moves only, no time limit: the same results at any load",
    )
    parser.add_argument("--deals", type=int, help="deals per line (each played once per seat)")
    parser.add_argument("--only", choices=sorted(CATALOG.specs), help="one game")
    parser.add_argument("--seats", type=int, help="only the lines of this many seats")
    parser.add_argument(
        "--preset",
        choices=sorted({line.trial.preset for line in LINES}),
        help="only the lines of this preset",
    )
    parser.add_argument(
        "--against",
        choices=sorted({line.trial.against for line in LINES}),
        help="only the lines against this opponent",
    )
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
        if args.only in (None, line.game)
        and args.seats in (None, line.seats)
        and args.preset in (None, line.trial.preset)
        and args.against in (None, line.trial.against)
    ]
    print(
        f"level {level}{'' if scale == 1 else f', {scale:g} of its time'}"
        f"{', untimed' if args.untimed else ''}, {args.workers} workers"
    )
    started = time.perf_counter()
    verdicts: list[bool] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for line in lines:
            deals = args.deals or _deals(line, args.quick)
            if not deals:  # a line left out of --quick
                continue
            base = args.seed * 100_000
            line_started = time.perf_counter()
            results = _run_line(pool, line, deals, level, scale, base, args.untimed)
            took = time.perf_counter() - line_started
            timed = _timed(line, args.untimed)
            first, *more = _report(line, results, level, scale, timed).split("\n")
            print("\n".join([f"{first}  ({took:.0f} s)", *more]), flush=True)
            if (verdict := _verdict(line, results)) is not None:
                verdicts.append(verdict)
    if verdicts:
        print(f"aims met: {sum(verdicts)} of {len(verdicts)}")
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
