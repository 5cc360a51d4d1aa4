"""How fast the rules engines play: complete random games (and, for matches of
several deals like 101, rounds) per second on one core, and microseconds per
``legal_actions`` and per ``apply``.

Every game in the catalog (:data:`bot.catalog.CATALOG`) is measured, with its default preset
(``--all-presets``: every preset) at its smallest seat count, two seats and its
largest.  A random game picks a random seat among ``to_move()`` and a random
action among its ``legal_actions``, until the game is over::

    .venv/bin/python -m bench.engines            # about two seconds per line
    .venv/bin/python -m bench.engines --quick    # a short run
    .venv/bin/python -m bench.engines --games durak --seconds 5

Plain Python, one process: the figures are per core.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
import timeit
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.catalog import CATALOG
from games.core import Game, IllegalAction, Rules
from games.spec import GameSpec

__all__ = ["Result", "main", "measure", "play_random_game"]

MAX_STEPS = 20_000
"""Random moves after which the benchmark ends a game by resigning its seats
one by one (a Daytona race or a 101 round played at random may go on far
longer than people would play it; the engines never cut a game short)."""


@dataclass(frozen=True)
class Result:
    game: str
    preset: str
    seats: int
    games_per_second: float
    rounds_per_second: float
    steps_per_game: float
    legal_us: float
    apply_us: float


def play_random_game(
    spec: GameSpec, rules: Rules, seats: int, rng: random.Random
) -> tuple[Game[Any, Any, Any, Any], int]:
    """Play one random game to its end; return it and its number of moves."""
    game = spec.game.new(rules, seats, rng)
    rand = rng.random
    step = 0
    while True:
        actors = game.to_move()
        if not actors:
            return game, step
        step += 1
        if step > MAX_STEPS:
            _resign_one(game)
            continue
        if len(actors) == 1:
            (seat,) = actors
        else:
            ordered = sorted(actors)
            seat = ordered[int(rand() * len(ordered))]
        actions = game.legal_actions(seat)
        game.apply(seat, actions[int(rand() * len(actions))])


def _resign_one(game: Game[Any, Any, Any, Any]) -> None:
    for seat in range(game.seats):
        try:
            game.resign(seat)
        except IllegalAction:
            continue
        return
    raise RuntimeError("no seat could resign from a game that is not over")


def _games_per_second(
    spec: GameSpec, rules: Rules, seats: int, seconds: float, seed: int
) -> tuple[float, float, float]:
    """Games per second, rounds (deals, races) per second, moves per game."""
    rng = random.Random(seed)
    play_random_game(spec, rules, seats, rng)  # warm up
    games = steps = rounds = 0
    clock = time.perf_counter
    start = clock()
    while True:
        game, n = play_random_game(spec, rules, seats, rng)
        games += 1
        steps += n
        rounds += game.progress().number
        elapsed = clock() - start
        if elapsed >= seconds:
            return games / elapsed, rounds / elapsed, steps / games


def _call_costs(
    spec: GameSpec, rules: Rules, seats: int, seconds: float, seed: int
) -> tuple[float, float]:
    """Mean microseconds per legal_actions and per apply, timed call by call."""
    rng = random.Random(seed)
    clock = time.perf_counter_ns
    legal_ns = apply_ns = calls = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        game = spec.game.new(rules, seats, rng)
        while (actors := game.to_move()) and time.perf_counter() < deadline:
            seat = sorted(actors)[int(rng.random() * len(actors))]
            t0 = clock()
            actions = game.legal_actions(seat)
            t1 = clock()
            action = actions[int(rng.random() * len(actions))]
            t2 = clock()
            game.apply(seat, action)
            t3 = clock()
            legal_ns += t1 - t0
            apply_ns += t3 - t2
            calls += 1
    calls = max(calls, 1)
    return legal_ns / calls / 1000, apply_ns / calls / 1000


def measure(spec: GameSpec, preset: str, seats: int, seconds: float, seed: int = 1) -> Result:
    rules = spec.preset(preset)
    rate, rounds, steps = _games_per_second(spec, rules, seats, seconds, seed)
    legal_us, apply_us = _call_costs(spec, rules, seats, seconds / 2, seed)
    return Result(spec.key, preset, seats, rate, rounds, steps, legal_us, apply_us)


def _reference_us() -> float:
    """A fixed pure-Python workload, to compare figures across machines and loads."""
    best = min(timeit.repeat("sum(range(1000))", number=2000, repeat=5))
    return best / 2000 * 1e6


def _seat_counts(spec: GameSpec, rules: Rules) -> list[int]:
    allowed = spec.seat_range(rules)
    wanted = {allowed[0], allowed[-1]}
    if 2 in allowed:
        wanted.add(2)
    return sorted(wanted)


def main(argv: Sequence[str] | None = None) -> list[Result]:
    parser = argparse.ArgumentParser(prog="python -m bench.engines", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a short run (0.3 s per line)")
    parser.add_argument("--seconds", type=float, help="time per line (default 2, quick 0.3)")
    parser.add_argument("--games", nargs="*", metavar="KEY", help="only these games")
    parser.add_argument("--all-presets", action="store_true", help="every preset, not the default")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (0.3 if args.quick else 2.0)
    keys = args.games or list(CATALOG.specs)
    unknown = [k for k in keys if k not in CATALOG.specs]
    if unknown:
        parser.error(f"unknown games {unknown}; registered: {sorted(CATALOG.specs)}")

    where = f"Python {platform.python_version()} on {platform.machine()}"
    print(f"{where}, one core, {seconds:g} s per line")
    print(f"reference: sum(range(1000)) takes {_reference_us():.1f} µs on this core now")
    header = (
        f"{'game':<10} {'preset':<12} {'seats':>5} {'games/s':>9} {'rounds/s':>9} "
        f"{'moves/game':>10} {'µs/legal':>9} {'µs/apply':>9}"
    )
    print(header)
    print("-" * len(header))
    results: list[Result] = []
    for key in keys:
        spec = CATALOG.specs[key]
        presets = list(spec.presets) if args.all_presets else [spec.default_preset]
        for preset in presets:
            for seats in _seat_counts(spec, spec.preset(preset)):
                r = measure(spec, preset, seats, seconds, args.seed)
                results.append(r)
                print(
                    f"{r.game:<10} {r.preset:<12} {r.seats:>5} {r.games_per_second:>9.0f} "
                    f"{r.rounds_per_second:>9.0f} "
                    f"{r.steps_per_game:>10.1f} {r.legal_us:>9.2f} {r.apply_us:>9.2f}",
                    flush=True,
                )
    return results


if __name__ == "__main__":
    main(sys.argv[1:])
