"""The host killing the bot at the worst moments: SIGKILL while presses are in
flight (between a move's commit and its answer), while computers think, while
nothing happens; restart on the same file each time and play on.  No move is
lost or applied twice, the database opens cleanly every time, every game
finishes and shows its result, and the log has no traceback."""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import sqlite3
import subprocess
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.catalog import CATALOG
from playground.botapi import FakeTelegram, SentMessage
from tests.e2e.harness import (
    Probe,
    Table,
    quick_options,
    seat_players,
    start_bot_process,
    stop_bot_process,
    wait_exit,
)
from tests.e2e.test_seats import add_computers
from tests.processes import without_orphaned_workers

NAMES = ["Anna", "Boris", "Vera"]
STALL_SECONDS = 60.0
"""Wall-clock seconds without a move (refused presses, waits) that mean a stuck
game: far more than a computer's pause or a restart takes."""
IDLE_PAUSE = 0.05
"""Seconds the players wait when no button is worth pressing (a computer thinks)."""
QUIET = 0.05
"""Seconds without a call from the bot after which the players take it to have
done what a press set going (it handles one in milliseconds).  Were it still
at work, their next press would only meet an old button, which the bot refuses
(the harness's 0.15 s cost more waiting than the whole storm's work)."""


@dataclass(frozen=True)
class Game:
    key: str
    people: int
    computers: int = 0
    preset: str | None = None
    away_after_kills: bool = False
    """Once the kills are over its people stop pressing: the turn timer (the
    shortest there is) marks them away and the computers finish the game.
    For a race on the group's message, whose every turn waits for the group's
    edit budget, which would otherwise take minutes after the last kill."""


SEATING = {
    "durak": Game("durak", people=3),
    "101": Game("101", people=2, computers=1),
    "joker": Game("joker", people=2, computers=2),
    "daytona": Game("daytona", people=1, computers=2, preset="sprint", away_after_kills=True),
}
"""How a game sits through the storm of every game (each listed game plays);
one not named here seats two people and a computer."""
SHORTEST_TURN = "30 с"


@dataclass
class Play:
    """A table played through the kills, and what its presses came to."""

    table: Table
    table_id: int
    game: Game
    accepted: int = 0
    in_flight_at_kills: int = 0
    pressed: list[str] = field(default_factory=list)

    def choose(self, rng: random.Random) -> tuple[int, SentMessage, str] | None:
        return self.table.random_press(rng)


class Bot:
    """The bot as a process an operator runs, killed and started again."""

    def __init__(self, server: FakeTelegram, db_path: Path, workdir: Path) -> None:
        self.server = server
        self.db_path = db_path
        self.workdir = workdir
        self.log = workdir / "bot.log"
        self.kills = 0
        self.process: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        self.process = start_bot_process(
            self.server, self.db_path, self.workdir, self.log, log_level="INFO"
        )
        await self.server.wait_for(lambda: self.server.active_polls, timeout=30)

    async def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        assert await wait_exit(self.process, 10) == -signal.SIGKILL
        self.kills += 1
        with closing(sqlite3.connect(self.db_path)) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)

    async def stop(self) -> None:
        if self.process is not None:
            await stop_bot_process(self.process)


async def _press(server: FakeTelegram, play: Play, choice: tuple[int, SentMessage, str]) -> str:
    user_id, message, data = choice
    play.pressed.append(data)
    return server.press(user_id, message.chat_id, message.message_id, data)


async def _counted(server: FakeTelegram, play: Play, query: str, data: str) -> None:
    """Wait for the answer to a press and count it when it was a move applied."""
    answer = await server.answered(query, timeout=15)
    # A refusal is an alert (a move on the table message is answered with a toast).
    if data.startswith("m:") and not answer.get("show_alert"):
        play.accepted += 1


def _check_moves(probe: Probe, play: Play) -> None:
    """The move log is whole (numbered 1..n, as many as the table counts), and
    holds every press answered as applied, and no more than the presses made."""
    moves = probe.moves(play.table_id)
    _, count = probe.table(play.table_id)
    assert [n for n, *_ in moves] == list(range(1, count + 1))
    by_players = sum(1 for m in moves if m[2] == "player")
    assert play.accepted <= by_players <= play.accepted + play.in_flight_at_kills


def _describe(server: FakeTelegram, plays: list[Play]) -> str:
    """What the players of stuck tables see: the last group messages, the DMs."""
    lines = []
    for play in plays:
        for message in play.table.group_messages()[-3:]:
            lines.append(f"group {message.message_id}: {message.text!r} {message.callback_datas}")
        for user_id in play.table.players:
            last = server.last_bot_message(user_id)
            if last is not None:
                lines.append(f"dm {user_id}: {last.text!r} {last.callback_datas}")
    return "\n".join(lines)


async def _kill_storm(
    server: FakeTelegram, db_path: Path, tmp_path: Path, games: list[Game], kills: int, seed: int
) -> None:
    rng = random.Random(seed)
    probe = Probe(db_path)
    bot = Bot(server, db_path, tmp_path)
    await bot.start()
    try:
        plays = []
        for index, game in enumerate(games):
            table = seat_players(
                server, NAMES[: game.people], group_id=-1001 - index, first_user=100 + 10 * index
            )
            table.rng = random.Random(seed + index)
            await table.open(game.key, game.preset)
            await table.set_options(quick_options(game.key, game.preset))
            if game.computers:
                await add_computers(table, game.computers)
            for user_id in table.players[1:]:
                await table.press(user_id, table.lobby(), table.lobby().callback_data("🙋"))
            await table.set_turn_time(SHORTEST_TURN if game.away_after_kills else "без лимита")
            await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))
            plays.append(Play(table, index + 1, game))

        # Kills fall among the first presses, which every game outlasts (a
        # two-player Durak game takes at least ~38 moves); any left when the
        # games are over kill the bot at rest.
        kill_at = sorted(rng.sample(range(5, 12 * kills), kills))
        presses = 0
        progress = (0, time.monotonic())  # (moves made, when they were last counted)

        async def resume() -> None:
            """After a kill: nothing lost or doubled, and the bot starts again."""
            for checked in plays:
                _check_moves(probe, checked)
            await bot.start()
            await server.wait_idle(quiet=QUIET)

        while True:
            running = [p for p in plays if probe.table(p.table_id)[0] == "playing"]
            if not running:
                break
            moves = sum(probe.table(p.table_id)[1] for p in plays)
            if moves != progress[0]:
                progress = (moves, time.monotonic())
            stalled = time.monotonic() - progress[1] > STALL_SECONDS
            assert not stalled, f"the games stopped moving:\n{_describe(server, running)}"
            play = rng.choice(running)
            away = not kill_at and play.game.away_after_kills
            choice = None if away else play.choose(rng)
            if choice is None:
                await server.wait_idle(quiet=QUIET)  # computers or deliveries still at work
                await asyncio.sleep(IDLE_PAUSE)
                continue
            presses += 1
            before = probe.table(play.table_id)[1]
            query = await _press(server, play, choice)
            if not kill_at or presses < kill_at[0]:
                await _counted(server, play, query, choice[2])
                await server.wait_idle(quiet=QUIET)
                continue
            kill_at.pop(0)
            if rng.random() < 0.5:  # right after the move's commit, before its answer
                with contextlib.suppress(TimeoutError):  # not a move, or refused
                    await server.wait_for(
                        lambda: probe.table(play.table_id)[1] > before,  # noqa: B023
                        timeout=3,
                        interval=0.001,
                    )
            else:  # anywhere from before the update is fetched to after the answer
                await asyncio.sleep(rng.choice([0.0, 0.005, 0.02, 0.05, 0.2]))
            await bot.kill()
            if server.callback_answer(query) is None:
                play.in_flight_at_kills += 1
            else:
                await _counted(server, play, query, choice[2])
            await resume()
        for _ in kill_at:
            await bot.kill()
            await resume()

        await server.wait_idle(quiet=QUIET)
        for play in plays:
            _check_moves(probe, play)
            group = play.table.group_messages
            await server.wait_for(lambda: any("🏁" in m.body for m in group()), timeout=30)  # noqa: B023
    finally:
        await bot.stop()
    assert bot.kills == kills
    log = without_orphaned_workers(bot.log.read_text(encoding="utf-8"))
    assert "Traceback" not in log, log
    assert " ERROR " not in log, log
    assert server.token.partition(":")[2] not in log
    presses = sum(len(p.pressed) for p in plays)
    moves = sum(probe.table(p.table_id)[1] for p in plays)
    print(
        f"\nkills: {len(plays)} games, {moves} moves, {presses} presses, {bot.kills} kills, "
        f"{sum(p.in_flight_at_kills for p in plays)} presses in flight at a kill"
    )


@pytest.mark.slow
async def test_a_game_killed_again_and_again_loses_and_doubles_nothing(
    server: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    await _kill_storm(server, db_path, tmp_path, [Game("durak", people=2)], kills=3, seed=5)


@pytest.mark.slow  # left out of a quick run (-m "not slow") too
@pytest.mark.soak
async def test_every_game_killed_at_random_moments_loses_and_doubles_nothing(
    server: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    games = [SEATING.get(key, Game(key, people=2, computers=1)) for key in CATALOG.specs]
    await _kill_storm(server, db_path, tmp_path, games, kills=12, seed=6)
