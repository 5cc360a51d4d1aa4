"""Notifications per player per game: how often each person's phone buzzes.

Run it (from the repository root)::

    .venv/bin/python -m bench.notifications                 # every game, both scenarios
    .venv/bin/python -m bench.notifications --games joker --games-each 3 --seed 5
    .venv/bin/python -m bench.notifications --paths dm,group,group-admin

The real bot runs in this process against the stand-in Bot API
(``playground.botapi``), on a fake clock, so that a whole game at people's pace
takes seconds, not minutes.  Each game is played by two people (Anna, Boris)
and computers of the easy level (Durak and 101: one, Joker: two, Daytona: one),
with the default turn time of a minute and absent players played by a
computer.  Two scenarios:

* **human pace**: each person looks at his new buttons for 2 to 10 s before
  pressing a random one of them, and one move in ten for 45 s (past the turn
  warning, which comes when a third of the time is left);
* **one away**: Anna plays at that pace, Boris never presses anything: the
  timer moves for him until he is marked away (💤), then a computer plays his
  seat to the end.

Three paths the hands may take (``--paths``; the DM's alone unless asked):

* **dm**: both people opened the bot; their hands come to their DMs;
* **group**: neither ever opened the bot, which is no administrator of the
  group: each presses "🂠 My cards" once when the game starts, and his hand is
  an ephemeral message in the group, edited from then on (he presses it again
  should it ever be lost);
* **group-admin**: the same with the bot an administrator, which sends a
  player his hand anew (notifying) when his turn comes and he is not looking.

A message *notifies* a person when the bot sent it (``sendMessage``,
``sendPhoto``) without ``disable_notification`` to his DM, to the group
(everyone in it; here the group's members are the two people), or as an
ephemeral message to him alone in the group.  Edits never notify.  Per person
and game it prints the notifications (DM + group + his own in the group), the
moves he had to make (his seat's moves made by him or by the timer for him;
not those a computer made while he was away), and the most notifications
between two such moves of his (a person should get at most one per move he
must make).  Warnings still in the DMs at the end (none should be left) are
counted apart.

A run of every game in both scenarios takes about a minute.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.catalog import CATALOG
from playground.botapi import FakeTelegram
from tests.clock import FakeClock
from tests.e2e.harness import (
    MOVE_DATA,
    GroupTable,
    Probe,
    Table,
    advance,
    bot_config,
    running_bot,
    seat_group_players,
    seat_players,
)
from tests.e2e.test_seats import add_computers

SEATING = {
    "durak": ("podkidnoy", 1),
    "101": ("classic", 1),
    "joker": ("classic", 2),
    "daytona": ("sprint", 1),
}
"""A game's variant played, and the computers seated with the two people
(Daytona's sprint: the classic match of random draws takes thousands of moves)."""
GAMES = {key: SEATING.get(key, (spec.default_preset, 1)) for key, spec in CATALOG.specs.items()}
"""Every listed game: a game not in :data:`SEATING` plays its default variant
with one computer."""
SCENARIOS = ("human pace", "one away")
PATHS = ("dm", "group", "group-admin")
THINK = (2.0, 10.0)
"""Seconds a person looks at his buttons before pressing (uniform)."""
SLOW_SHARE, SLOW_THINK = 0.1, 45.0
"""One move in ten a person takes this long: past the turn warning."""
IDLE_STEP = 5.0
"""Seconds of the bot's time let pass while no active person has a button."""
MAX_STEPS = 5000
WARNING_MARK = "⏳"
"""The turn warning starts with this (the catalogs' ``hand.warning``)."""


@dataclass
class PersonFigures:
    """One person's figures of one game."""

    dm: int = 0
    group: int = 0
    ephemeral: int = 0
    """Ephemeral messages to him alone in the group."""
    decisions: int = 0
    worst_gap: int = 0
    """The most notifications between two of his moves (or before the first,
    or after the last)."""
    warnings_left: int = 0

    @property
    def total(self) -> int:
        return self.dm + self.group + self.ephemeral


@dataclass
class GameFigures:
    game: str
    scenario: str
    path: str
    moves: int
    people: dict[str, PersonFigures] = field(default_factory=dict)


def notifications(server: FakeTelegram) -> list[tuple[float, int, int | None]]:
    """(the bot's time, chat, the one receiver of an ephemeral message or None)
    of every message sent that notifies."""
    return [
        (call.clock_at, int(call.chat_id), _receiver(call.params))
        for method in ("sendMessage", "sendPhoto")
        for call in server.calls_to(method)
        if call.ok
        and call.chat_id is not None
        and str(call.params.get("disable_notification")).lower() != "true"
    ]


def _receiver(params: dict[str, object]) -> int | None:
    parameters = params.get("ephemeral_message_parameters")
    if isinstance(parameters, str):
        parameters = json.loads(parameters)
    if isinstance(parameters, dict) and isinstance(parameters.get("receiver_user_id"), int):
        return int(parameters["receiver_user_id"])
    return None


def person_figures(
    server: FakeTelegram, probe: Probe, table: Table, user_id: int, seat: int, started: float
) -> PersonFigures:
    """What notified the person, against the moves he had to make (between
    two of them: from the start to the last move, the lobby and the result
    apart)."""
    sent = [(at, chat, to) for at, chat, to in notifications(server) if at >= started]
    dm = [at for at, chat, _ in sent if chat == user_id]
    group = [at for at, chat, to in sent if chat == table.group_id and to is None]
    ephemeral = [at for at, chat, to in sent if chat == table.group_id and to == user_id]
    decisions = [
        at for _, at, actor, s in probe.moves() if s == seat and actor in ("player", "timer")
    ]
    # A notification counts in the gap its move opened: up to and including
    # the moment of his next move.
    moves = probe.moves()
    edges = [started, *decisions, moves[-1][1]]
    times = [*dm, *group, *ephemeral]
    gaps = [sum(1 for at in times if low < at <= high) for low, high in itertools.pairwise(edges)]
    name = server.user(user_id).first_name
    warnings = [
        m
        for m in server.chat_messages(user_id)
        if m.text.startswith(WARNING_MARK) and not m.deleted
    ] + [
        m  # a game played on the table mentions him in the group
        for m in table.group_messages()
        if m.text.startswith(WARNING_MARK) and name in m.text and not m.deleted
    ]
    return PersonFigures(
        dm=len(dm),
        group=len(group),
        ephemeral=len(ephemeral),
        decisions=len(decisions),
        worst_gap=max(gaps),
        warnings_left=len(warnings),
    )


async def set_easy(table: Table) -> None:
    """The creator sets the computers' level to easy (hard → normal → easy),
    where the game offers a level (in Daytona every level plays alike)."""
    creator = table.players[0]
    level = "Уровень 🤖"
    await table.press(creator, table.lobby(), table.lobby().callback_data("⚙️"))
    for _ in range(3):
        label = next((b for b in table.lobby().button_texts if b.startswith(level)), None)
        if label is None or label.endswith("лёгкий"):
            break
        await table.press(creator, table.lobby(), table.lobby().callback_data(label))
    await table.press(creator, table.lobby(), table.lobby().callback_data("« Назад"))


def think(rng: random.Random) -> float:
    return SLOW_THINK if rng.random() < SLOW_SHARE else rng.uniform(*THINK)


async def press_something(table: Table, active: list[int], rng: random.Random) -> bool:
    """One active person presses a random button of his (a hand's move, else a
    move on the group's message); False when none of them could."""
    hands = [(u, m) for u in active if (m := table.hand(u)) is not None]
    if hands:
        user_id, message = rng.choice(hands)
        data = rng.choice([d for d in message.callback_datas if MOVE_DATA.match(d)])
        await table.press(user_id, message, data)
        return True
    group = table.group_move()
    if group is None:
        return False
    data = rng.choice([d for d in group.callback_datas if d.startswith("m:")])
    for user_id in rng.sample(active, len(active)):
        if not (await table.press(user_id, group, data)).get("show_alert"):
            return True
    return False


async def bring_lost_hands(table: GroupTable, active: list[int]) -> None:
    """Who sees no hand of his in the group (lost on the way) presses "🂠 My
    cards"."""
    for user_id in active:
        if not table.seen(user_id):
            await table.my_cards(user_id)


def can_press(table: Table, active: list[int]) -> bool:
    return table.group_move() is not None or any(table.hand(u) is not None for u in active)


async def play_game(game: str, scenario: str, seed: int, path: str = "dm") -> GameFigures:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="koloda-notify-") as tmp:
        db_path = Path(tmp) / "koloda.sqlite3"
        probe = Probe(db_path)
        async with FakeTelegram() as server:
            config = bot_config(server, db_path, computer_pause_ms=1500)
            clock = FakeClock()
            server.stamp = clock.now
            async with running_bot(config, clock, seeds=lambda: seed) as app:
                table = (
                    seat_players(server, ["Anna", "Boris"], app)
                    if path == "dm"
                    else seat_group_players(
                        server, ["Anna", "Boris"], app, admin=path == "group-admin"
                    )
                )
                table.rng = rng
                preset, computers = GAMES[game]
                await table.open(game, preset)
                # Pictures as text: the same messages, notifying alike, drawn
                # for nothing (Daytona's track is redrawn at every move).
                await table.command(table.players[0], "/pictures off")
                await table.press(
                    table.players[1], table.lobby(), table.lobby().callback_data("🙋")
                )
                await add_computers(table, computers)
                await set_easy(table)
                await advance(server, app, 1.0)  # the lobby's messages apart
                started = clock.now() - 0.5
                await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))
                active = table.players if scenario == "human pace" else table.players[:1]
                hands_asked_for = path == "group" and CATALOG.specs[game].private_hands
                if hands_asked_for:
                    assert isinstance(table, GroupTable)
                    for user_id in active:
                        await table.my_cards(user_id)
                for _ in range(MAX_STEPS):
                    if probe.table()[0] != "playing":
                        break
                    if not can_press(table, active):
                        await advance(server, app, IDLE_STEP)
                        continue
                    if isinstance(table, GroupTable) and hands_asked_for:
                        await bring_lost_hands(table, active)
                    await advance(server, app, think(rng))
                    if not await press_something(table, active, rng):
                        await advance(server, app, IDLE_STEP)
                else:
                    raise RuntimeError(f"{game} ({scenario}) did not end")
                await advance(server, app, IDLE_STEP)
                seats = {u: seat for seat, u in enumerate(seated(probe))}
                figures = GameFigures(game, scenario, path, probe.table()[1])
                for user_id, name in zip(table.players, ["Anna", "Boris"], strict=True):
                    figures.people[name] = person_figures(
                        server, probe, table, user_id, seats[user_id], started
                    )
                return figures


def seated(probe: Probe) -> list[int | None]:
    """The user of each seat (None: a computer), in seat order."""
    rows = probe.query("SELECT seat, user_id FROM seats WHERE table_id = 1 ORDER BY seat")
    return [None if u is None else int(u) for _, u in rows]


def report(results: list[GameFigures]) -> str:
    lines = [
        "game     scenario     path         moves  person  notified (DM + group + own)  "
        "moves to make  most between two  warnings left",
    ]
    for r in results:
        for name, p in r.people.items():
            lines.append(
                f"{r.game:<8} {r.scenario:<12} {r.path:<12} {r.moves:>5}  {name:<6}  "
                f"{p.total:>4} ({p.dm:>3} + {p.group:>3} + {p.ephemeral:>3})      "
                f"{p.decisions:>5}          {p.worst_gap:>4}              {p.warnings_left:>3}"
            )
    lines += ["", "mean notifications per person per game (Anna / Boris):"]
    keys = sorted(
        {(r.game, r.scenario, r.path) for r in results},
        key=lambda k: (list(GAMES).index(k[0]), k[1], PATHS.index(k[2])),
    )
    for game, scenario, path in keys:
        runs = [r for r in results if (r.game, r.scenario, r.path) == (game, scenario, path)]
        means = [statistics.mean(r.people[n].total for r in runs) for n in ("Anna", "Boris")]
        lines.append(f"  {game:<8} {scenario:<12} {path:<12} {means[0]:6.1f} / {means[1]:6.1f}")
    return "\n".join(lines)


async def run(
    games: list[str],
    scenarios: Sequence[str],
    each: int,
    seed: int,
    paths: Sequence[str] = ("dm",),
) -> str:
    began = time.monotonic()

    async def one(game: str, scenario: str, path: str, n: int) -> GameFigures:
        figures = await play_game(game, scenario, seed + n, path)
        took = time.monotonic() - began
        print(
            f"{game} ({scenario}, {path}): {figures.moves} moves, done at {took:.0f} s", flush=True
        )
        return figures

    # The games run at once (each bot on its own fake clock): most of a game's
    # time is spent waiting for its bot to settle.
    runs = [(g, s, p, n) for g in games for s in scenarios for p in paths for n in range(each)]
    results = await asyncio.gather(*(one(*r) for r in runs))
    return report(list(results))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game keys")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--paths", default="dm", help=f"comma-separated, of {', '.join(PATHS)}")
    parser.add_argument("--games-each", type=int, default=1, help="games per game and scenario")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    games = [g for g in args.games.split(",") if g]
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        parser.error(f"unknown games: {', '.join(unknown)}")
    scenarios = [s for s in args.scenarios.split(",") if s]
    paths = [p for p in args.paths.split(",") if p]
    if any(p not in PATHS for p in paths):
        parser.error(f"paths are of {', '.join(PATHS)}")
    print(asyncio.run(run(games, scenarios, args.games_each, args.seed, paths)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
