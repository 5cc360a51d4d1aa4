from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage import Database, DatabaseTooNewError, ScoreDelta, StaleVersionError, TableExistsError
from storage.db import migrations


async def open_db(tmp_path: Path) -> Database:
    return await Database.open(tmp_path / "sub" / "koloda.sqlite3")


async def test_migrates_an_empty_file_and_reopens_without_change(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    assert await db.schema_version() == len(migrations())
    await db.close()
    db = await open_db(tmp_path)
    assert await db.schema_version() == len(migrations())
    await db.close()
    with sqlite3.connect(tmp_path / "sub" / "koloda.sqlite3") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"users", "chats", "tables", "seats", "moves", "results", "scores"} <= tables


async def test_refuses_a_database_from_newer_code(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {len(migrations()) + 1}")
    with pytest.raises(DatabaseTooNewError):
        await Database.open(path)


def test_migrations_are_numbered_without_gaps() -> None:
    numbers = [n for n, _ in migrations()]
    assert numbers == list(range(1, len(numbers) + 1))


async def seed(db: Database) -> int:
    async with db.transaction() as tx:
        await tx.upsert_chat(-100, "group", "Friends")
        for uid, name in ((1, "Ann"), (2, "Boris"), (3, "Vera")):
            await tx.upsert_user(uid, name, None)
        table_id = await tx.create_table(-100, 0, "durak", {"deck_size": 36}, creator_id=1)
        for uid in (1, 2, 3):
            await tx.add_seat(table_id, uid)
    return table_id


async def test_one_open_table_per_chat_and_topic(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    await seed(db)
    with pytest.raises(TableExistsError):
        async with db.transaction() as tx:
            await tx.create_table(-100, 0, "durak", {}, creator_id=2)
    async with db.transaction() as tx:
        other_topic = await tx.create_table(-100, 7, "durak", {}, creator_id=2)
        assert (await tx.open_table(-100, 7)) is not None
        assert other_topic > 0
    await db.close()


async def test_version_check_refuses_a_stale_writer_and_rolls_back(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    table_id = await seed(db)
    async with db.transaction() as tx:
        version = await tx.update_table(table_id, 0, status="playing", state={"x": 1}, moves=0)
    assert version == 1
    with pytest.raises(StaleVersionError):
        async with db.transaction() as tx:
            await tx.append_move(table_id, 1, 0, "k", [])
            await tx.update_table(table_id, 0, state={"x": 2})
    async with db.transaction() as tx:
        table = await tx.get_table(table_id)
        assert table is not None
        assert table.state == {"x": 1}
        assert table.version == 1
        assert await tx.last_moves(table_id, 5) == []  # the whole transaction rolled back
    await db.close()


async def test_seats_close_gaps_and_keep_names(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    table_id = await seed(db)
    async with db.transaction() as tx:
        assert await tx.remove_seat(table_id, 1)
        assert not await tx.remove_seat(table_id, 1)
        table = await tx.get_table(table_id)
    assert table is not None
    assert [(s.seat, s.first_name) for s in table.seats] == [(0, "Boris"), (1, "Vera")]
    await db.close()


async def test_scores_and_supergroup_migration_keep_everything(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    table_id = await seed(db)
    async with db.transaction() as tx:
        await tx.record_result(table_id, -100, "durak", {"losers": [1]})
        await tx.add_scores(
            -100,
            "durak",
            [ScoreDelta(1, True, False, False), ScoreDelta(2, False, True, False)],
        )
        await tx.add_scores(-100, "durak", [ScoreDelta(1, True, False, False)])
        assert await tx.migrate_chat(-100, -1001)
        assert not await tx.migrate_chat(-100, -1001)
        board = await tx.leaderboard(-1001)
        moved = await tx.open_table(-1001, 0)
        stats = await tx.user_stats(1)
    assert [(r.first_name, r.played, r.wins, r.losses) for r in board] == [
        ("Ann", 2, 2, 0),
        ("Boris", 1, 0, 1),
    ]
    assert moved is not None
    assert moved.id == table_id
    assert [(s.game, s.played) for s in stats] == [("durak", 2)]
    await db.close()


async def test_move_log_is_ordered(tmp_path: Path) -> None:
    db = await open_db(tmp_path)
    table_id = await seed(db)
    async with db.transaction() as tx:
        for n in range(1, 8):
            await tx.append_move(table_id, n, n % 3, f"a{n}", [{"kind": "k", "seat": n % 3}])
        last = await tx.last_moves(table_id, 3)
        every = await tx.last_moves(table_id, 100)
    assert [m.n for m in last] == [5, 6, 7]
    assert len(every) == 7
    with pytest.raises(sqlite3.IntegrityError):
        async with db.transaction() as tx:
            await tx.append_move(table_id, 7, 0, "dup", [])
    await db.close()
