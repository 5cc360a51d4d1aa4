"""A database written by the first schema upgrades in place, and its games play on.

``fixtures/koloda-0001.sqlite3`` was written by Koloda 65614df (schema 0001)
through the fake Bot API: a finished Durak game with scores, a Durak game and
a 101 match in progress, an open lobby and a cancelled one.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

from storage import Actor, Database, EndReason, OnAbsence, Status
from storage.db import migrations
from tests.clock import FakeClock
from tests.services.world import World

FIXTURE = Path(__file__).parent / "fixtures" / "koloda-0001.sqlite3"


def copy(tmp_path: Path) -> Path:
    path = tmp_path / "koloda.sqlite3"
    shutil.copy(FIXTURE, path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    return path


async def test_every_row_survives_the_upgrade(tmp_path: Path) -> None:
    path = copy(tmp_path)
    db = await Database.open(path)
    assert await db.schema_version() == len(migrations())
    async with db.read() as tx:
        tables = {t.id: t for t in await tx.tables.all_open()}
        finished = await tx.tables.get(1)
        cancelled = await tx.tables.get(4)
        lobby_message = await tx.messages.table_message(5)
        hands = await tx.messages.hands(2)
        board = await tx.scores.leaderboard(-1001)
        moves = await tx.tables.last_moves(2, 100)
        group = await tx.people.get_chat(-1001)
    await db.close()
    assert sorted(tables) == [2, 3, 5]
    assert tables[2].status is Status.PLAYING
    assert tables[2].turn_seconds == 0  # started before timers existed: none
    assert tables[2].on_absence is OnAbsence.COMPUTER
    assert [s.user_id for s in tables[2].seats] == [100, 101, 102]
    assert all(s.is_human and not s.absent for s in tables[2].seats)
    assert finished is not None
    assert finished.status is Status.FINISHED
    assert cancelled is not None
    assert cancelled.end_reason is EndReason.CANCELLED
    assert lobby_message.message_id == 5
    assert lobby_message.kind == "text"
    assert sorted(hands) == [0, 1, 2]
    assert {h.chat_id for h in hands.values()} == {100, 101, 102}
    assert [h.at_move for h in hands.values()].count(None) == 2  # one seat had buttons
    assert sum(r.played for r in board) == 3
    assert not any(r.with_computers for r in board)
    assert {m.actor for m in moves} == {Actor.PLAYER}
    assert group is not None
    assert group.bot_admin is None  # never said: Telegram is asked at the first hand


async def test_the_games_in_progress_play_on_to_their_end(tmp_path: Path) -> None:
    path = copy(tmp_path)
    async with World.open(path, FakeClock()) as world:
        for table_id in (2, 3):
            before = await world.snapshot(table_id)
            assert before.started
            await world.play_people(table_id, random.Random(table_id))
            after = await world.snapshot(table_id)
            assert after.table.status is Status.FINISHED
            assert after.table.moves > before.table.moves


async def test_the_first_worker_finds_the_upgraded_games_nobody_holds(tmp_path: Path) -> None:
    """Migration 0012 adds the workers' tables empty: every chat with an open
    table is one nobody holds, for the first worker to take."""
    db = await Database.open(copy(tmp_path))
    try:
        async with db.read() as tx:
            busy = await tx.cluster.busy(0.0)
            open_chats = {t.chat_id for t in await tx.tables.all_open()}
            waiting = await tx.cluster.waiting_chats()
            live = await tx.cluster.live_workers(0.0)
    finally:
        await db.close()
    assert open_chats
    assert open_chats <= {chat_id for chat_id, _ in busy}
    assert all(worker is None for _, worker in busy)
    assert waiting == []
    assert live == 1  # none yet: a worker alone counts itself
