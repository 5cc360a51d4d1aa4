"""A game's move latency with and without an analysis running::

    .venv/bin/python -m bench.analysis              # about a minute
    .venv/bin/python -m bench.analysis --moves 20 --level normal

The bot's own :class:`~services.thinking.Thinking` (its pool of search
workers, one per core, and its low-priority analysis worker) runs in this
process.  A computer's searches at the given level over the positions of a
self-played Durak game are timed one by one (each its whole move budget: the
level's time limit, which would hide a slower CPU, is lifted), with the pause
a computer takes before it moves between them: first alone, then while analyses keep the
analysis worker busy (the slices the analysis service sends: one decision of a
finished game each, from the player's knowledge).  It prints the median and
the worst latency of each run and how many analysis slices ran meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import Mapping, Sequence
from typing import Any

from bot.catalog import CATALOG
from games.core import JSON, Game
from games.durak import PRESETS, Durak
from players.analysis import assess, assess_request
from players.arena import next_seat
from players.computer import Computer
from players.imports import resolve
from players.levels import Level, request_for, search_player
from players.search import Budget, SearchPlayer, Situation
from services.thinking import Thinking

__all__ = ["main"]

PAUSE = 0.3
"""Seconds between two searches: a computer waits about this long before its
move is shown, and a game's moves come no closer."""
SLICE_SECONDS = 1.0
"""The search time of one analysed decision (the service's largest share)."""


def positions(count: int, seed: int = 1) -> list[tuple[Game[Any, Any, Any, Any], int, str]]:
    """``count`` positions of self-played two-player Durak games (the seat on
    move, its heuristic's move), from their starts on."""
    computer = CATALOG.computers["durak"]
    rng = random.Random(seed)
    found: list[tuple[Game[Any, Any, Any, Any], int, str]] = []
    while len(found) < count:
        game: Game[Any, Any, Any, Any] = Durak.new(PRESETS["podkidnoy"], 2, rng)
        while game.to_move() and len(found) < count:
            seat = next_seat(game, sorted(game.to_move()), rng)
            legal = game.legal_actions(seat)
            action = computer.heuristic.choose(game.rules, game.view(seat), legal, rng)
            if len(legal) > 1:
                found.append((game.clone(), seat, action.encode()))
            game.apply(seat, action)
    return found


async def searches(
    thinking: Thinking, level: Level, played: Sequence[tuple[Game[Any, Any, Any, Any], int, str]]
) -> list[float]:
    """The latency of a computer's search in each position, one after another:
    its whole move budget, with no time limit that would hide a slower CPU."""
    computer = CATALOG.computers["durak"]
    latencies = []
    for n, (game, seat, _) in enumerate(played):
        await asyncio.sleep(PAUSE)
        request = request_for(Situation.of(game, seat), computer, level, n, thinking.scale)
        began = time.perf_counter()
        await thinking.search(unhurried, request)
        latencies.append(time.perf_counter() - began)
    return latencies


def unhurried(request: Mapping[str, JSON]) -> str:
    """:func:`players.levels.think` without its time limit (a worker runs it)."""
    situation = Situation.from_json(request["situation"])
    computer = resolve(str(request["computer"]), Computer)
    player = search_player(computer, Level(request["level"]))
    budget = Budget(player.budget.moves)
    search = SearchPlayer(computer.heuristic, budget, computer.horizon, duel=computer.duel)
    return search.choose(situation, random.Random(request["seed"])).encode()


async def analysing(
    thinking: Thinking,
    played: Sequence[tuple[Game[Any, Any, Any, Any], int, str]],
    stop: asyncio.Event,
) -> int:
    """Analysis slices, one after another until ``stop`` is set; how many ran.

    A flag rather than a cancel: the slice under way ends, and is counted."""
    computer = CATALOG.computers["durak"]
    done = 0
    while not stop.is_set():
        game, seat, code = played[done % len(played)]
        request = assess_request(game, seat, code, computer, SLICE_SECONDS, seed=done)
        await thinking.analyse(assess, request)
        done += 1
    return done


def _line(what: str, latencies: Sequence[float]) -> str:
    return f"{what}: median {statistics.median(latencies):.3f} s, worst {max(latencies):.3f} s"


async def _run(moves: int, level: Level) -> None:
    thinking = Thinking()
    played = positions(moves)
    try:
        await searches(thinking, level, played[:2])  # the workers started
        alone = await searches(thinking, level, played)
        stop = asyncio.Event()
        analyses = asyncio.create_task(analysing(thinking, played, stop))
        await asyncio.sleep(SLICE_SECONDS)  # an analysis under way
        busy = await searches(thinking, level, played)
        stop.set()
        slices = await analyses  # the slice under way ends first
    finally:
        thinking.close()
    print(f"durak, {level.value} search, {moves} moves, {PAUSE:.1f} s apart")
    print(_line("  alone", alone))
    print(_line("  with an analysis running", busy) + f" ({slices} analysis slices ran)")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.analysis", description=__doc__)
    parser.add_argument("--moves", type=int, default=15)
    parser.add_argument("--level", choices=[Level.NORMAL.value, Level.HARD.value], default="hard")
    args = parser.parse_args(argv)
    asyncio.run(_run(args.moves, Level(args.level)))


if __name__ == "__main__":
    main()
