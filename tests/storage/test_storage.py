from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from storage import (
    Actor,
    Database,
    DatabaseError,
    DatabaseTooNewError,
    IntegrityError,
    OnAbsence,
    ScoreDelta,
    StaleVersionError,
    Status,
    TableExistsError,
)
from storage.db import Tx, migrations
from storage.url import sqlite_url
from tests.postgres import Cluster, execute

TABLES = {"users", "chats", "tables", "seats", "moves", "results", "scores"}
TABLES |= {"deadlines", "table_messages", "hand_messages", "meta"}


async def test_migrates_an_empty_sqlite_file_and_reopens_without_change(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "koloda.sqlite3"
    for _ in range(2):
        db = await Database.open(sqlite_url(path))
        assert await db.schema_version() == len(migrations())
        await db.close()
    assert execute(str(path), "PRAGMA journal_mode") == [("wal",)]
    names = execute(str(path), "SELECT name FROM sqlite_master WHERE type='table'")
    assert {r[0] for r in names} >= TABLES


async def test_migrates_an_empty_postgres_database_and_reopens_without_change(
    postgres: Cluster,
) -> None:
    url = postgres.create(empty=True)
    for _ in range(2):
        db = await Database.open(url)
        assert await db.schema_version() == len(migrations())
        await db.close()
    assert execute(url, "SELECT version FROM schema_version") == [(len(migrations()),)]
    names = execute(url, "SELECT table_name FROM information_schema.tables")
    assert {r[0] for r in names} >= TABLES
    postgres.drop(url)


async def test_postgres_migrations_started_together_apply_each_once(postgres: Cluster) -> None:
    url = postgres.create(empty=True)
    opened = await asyncio.gather(*(Database.open(url) for _ in range(3)))
    for db in opened:
        assert await db.schema_version() == len(migrations())
        await db.close()
    postgres.drop(url)


async def test_refuses_a_database_from_newer_code(database: str) -> None:
    db = await Database.open(database)
    await db.close()
    newer = len(migrations()) + 1
    if database.startswith("sqlite"):
        execute(database.removeprefix("sqlite:///"), f"PRAGMA user_version = {newer}")
    else:
        execute(database, "UPDATE schema_version SET version = ?", (newer,))
    with pytest.raises(DatabaseTooNewError):
        await Database.open(database)


def test_migrations_are_numbered_without_gaps() -> None:
    numbers = [n for n, _ in migrations()]
    assert numbers == list(range(1, len(numbers) + 1))


async def create(tx: Tx, chat_id: int, thread_id: int, creator_id: int) -> int:
    return await tx.tables.create(
        chat_id,
        thread_id,
        "durak",
        {"deck_size": 36},
        creator_id,
        turn_seconds=60,
        on_absence=OnAbsence.COMPUTER,
        computer_level="hard",
    )


async def seed(db: Database) -> int:
    async with db.transaction() as tx:
        await tx.people.upsert_chat(-100, "group", "Friends")
        for uid, name in ((1, "Ann"), (2, "Boris"), (3, "Vera")):
            await tx.people.upsert_user(uid, name, None)
        table_id = await create(tx, -100, 0, 1)
        for uid in (1, 2, 3):
            await tx.tables.add_seat(table_id, user_id=uid)
    return table_id


async def test_the_bots_status_in_a_group_is_unknown_until_said(database: str) -> None:
    db = await Database.open(database)
    try:
        async with db.transaction() as tx:
            await tx.people.upsert_chat(-100, "group", "Friends")
            unknown = await tx.people.get_chat(-100)
            await tx.people.set_bot_admin(-100, False)
            member = await tx.people.get_chat(-100)
            await tx.people.set_bot_admin(-100, True)
            admin = await tx.people.get_chat(-100)
    finally:
        await db.close()
    statuses = [None if chat is None else chat.bot_admin for chat in (unknown, member, admin)]
    assert statuses == [None, False, True]


async def test_an_analysis_owed_is_kept_until_sent(
    database: str,
) -> None:
    db = await Database.open(database)
    try:
        table_id = await seed(db)
        async with db.transaction() as tx:
            await tx.analyses.owe(table_id, 2, "en")
            await tx.analyses.owe(table_id, 1, "ru")
            await tx.analyses.owe(table_id, 2, "uk")  # asked again: the first stands
        async with db.transaction() as tx:
            owed = [(a.user_id, a.lang) for a in await tx.analyses.owed()]
        async with db.transaction() as tx:
            await tx.analyses.sent(table_id, 2)
        async with db.transaction() as tx:
            left = [a.user_id for a in await tx.analyses.owed()]
            await tx.analyses.give_up(0.0)  # none asked that long ago
            kept = [a.user_id for a in await tx.analyses.owed()]
            await tx.analyses.give_up(time.time() + 1)  # all asked too long ago
            none_left = await tx.analyses.owed()
    finally:
        await db.close()
    assert sorted(owed) == [(1, "ru"), (2, "en")]
    assert left == kept == [1]
    assert none_left == []


async def test_a_game_chooser_is_kept_by_topic_until_a_table_takes_it_over(
    database: str,
) -> None:
    db = await Database.open(database)
    try:
        table_id = await seed(db)
        async with db.transaction() as tx:
            await tx.messages.set_chooser(-100, 0, 5)
            await tx.messages.set_chooser(-100, 0, 6)  # the next one replaces it
            await tx.messages.set_chooser(-100, 7, 8)
        async with db.read() as tx:
            open_ = [await tx.messages.chooser(-100, topic) for topic in (0, 7, 9)]
        async with db.transaction() as tx:
            await tx.messages.set_table_message(table_id, 6, "text", None)  # became the lobby
            await tx.messages.drop_chooser(-100, 8)
        async with db.read() as tx:
            left = [await tx.messages.chooser(-100, topic) for topic in (0, 7)]
    finally:
        await db.close()
    assert open_ == [6, 8, None]
    assert left == [None, None]


async def test_one_open_table_per_chat_and_topic(database: str) -> None:
    db = await Database.open(database)
    await seed(db)
    with pytest.raises(TableExistsError):
        async with db.transaction() as tx:
            await create(tx, -100, 0, 2)
    async with db.transaction() as tx:
        other_topic = await create(tx, -100, 7, 2)
        assert (await tx.tables.open_in(-100, 7)) is not None
        assert other_topic > 0
    await db.close()


async def test_version_check_refuses_a_stale_writer_and_rolls_back(database: str) -> None:
    db = await Database.open(database)
    table_id = await seed(db)
    async with db.transaction() as tx:
        version = await tx.tables.update(
            table_id, 0, status=Status.PLAYING, state={"x": 1}, moves=0
        )
    assert version == 1
    with pytest.raises(StaleVersionError):
        async with db.transaction() as tx:
            await tx.tables.append_move(table_id, 1, 0, "k", [], Actor.PLAYER)
            await tx.tables.update(table_id, 0, state={"x": 2})
    async with db.transaction() as tx:
        table = await tx.tables.get(table_id)
        assert table is not None
        assert table.state == {"x": 1}
        assert table.version == 1
        assert await tx.tables.last_moves(table_id, 5) == []  # all of it rolled back
    await db.close()


async def test_a_writer_cancelled_while_its_transaction_begins_leaves_none_open(
    database: str,
) -> None:
    """A stop cancels tasks wherever they are; one cancelled while its BEGIN
    is under way must not leave the connection inside a transaction (the next
    writer would fail with "cannot start a transaction within a transaction")."""
    db = await Database.open(database)
    table_id = await seed(db)

    async def writer() -> None:
        async with db.transaction() as tx:
            await tx.tables.update(table_id, 0, state={"x": 1})

    for _ in range(20):  # the cancel lands at a different point now and then
        task = asyncio.create_task(writer())
        await asyncio.sleep(0)  # the writer has handed its BEGIN to the thread
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        async with db.transaction() as tx:
            table = await tx.tables.get(table_id)
            assert table is not None
            assert table.version == 0  # nothing of the cancelled writer stayed
    await db.close()


async def test_seats_close_gaps_and_keep_names(database: str) -> None:
    db = await Database.open(database)
    table_id = await seed(db)
    async with db.transaction() as tx:
        await tx.tables.remove_seat(table_id, 0)
        await tx.tables.add_seat(table_id, computer=3)
        table = await tx.tables.get(table_id)
    assert table is not None
    assert [(s.seat, s.first_name, s.computer) for s in table.seats] == [
        (0, "Boris", None),
        (1, "Vera", None),
        (2, None, 3),
    ]
    assert table.has_computers
    with pytest.raises(IntegrityError):  # one seat per person
        async with db.transaction() as tx:
            await tx.tables.add_seat(table_id, user_id=2)
    await db.close()


async def test_scores_and_supergroup_migration_keep_everything(database: str) -> None:
    db = await Database.open(database)
    table_id = await seed(db)
    async with db.transaction() as tx:
        scores = tx.scores
        await scores.record_result(table_id, -100, "durak", {"losers": [1]})
        await scores.add(
            -100,
            "durak",
            [ScoreDelta(1, True, False, False), ScoreDelta(2, False, True, False)],
            with_computers=False,
        )
        await scores.add(-100, "durak", [ScoreDelta(1, True, False, False)], with_computers=False)
        await scores.add(-100, "durak", [ScoreDelta(1, False, True, False)], with_computers=True)
        assert await tx.people.migrate_chat(-100, -1001)
        assert not await tx.people.migrate_chat(-100, -1001)
        board = await scores.leaderboard(-1001)
        moved = await tx.tables.open_in(-1001, 0)
        stats = await scores.user_stats(1)
    assert [(r.first_name, r.played, r.wins, r.losses) for r in board] == [
        ("Ann", 2, 2, 0),
        ("Boris", 1, 0, 1),
    ]
    assert moved is not None
    assert moved.id == table_id
    assert [(s.game, s.with_computers, s.played, s.wins) for s in stats] == [
        ("durak", False, 2, 2),
        ("durak", True, 1, 0),
    ]
    await db.close()


async def test_a_group_merged_into_a_supergroup_that_exists_adds_up_its_scores(
    database: str,
) -> None:
    db = await Database.open(database)
    await seed(db)
    async with db.transaction() as tx:
        await tx.people.upsert_chat(-1001, "supergroup", "Friends")
        win, loss = ScoreDelta(1, True, False, False), ScoreDelta(2, False, True, False)
        await tx.scores.add(-100, "durak", [win, loss], with_computers=False)
        await tx.scores.add(-1001, "durak", [win], with_computers=False)
        await tx.ratings.season_told(-100, "2026-10")
        await tx.ratings.season_told(-100, "2026-11")
        await tx.ratings.season_told(-1001, "2026-11")
        assert await tx.people.migrate_chat(-100, -1001)
        board = await tx.scores.leaderboard(-1001)
        await tx.ratings.move_chat(-100, -1001)
        moved = await tx.tables.open_in(-1001, 0)
    assert [(r.first_name, r.played, r.wins, r.losses) for r in board] == [
        ("Ann", 2, 2, 0),
        ("Boris", 1, 0, 1),
    ]
    assert moved is not None
    told = execute(database, "SELECT chat_id, season FROM season_ends ORDER BY chat_id, season")
    assert [tuple(r) for r in told] == [(-1001, "2026-10"), (-1001, "2026-11"), (-100, "2026-11")]
    await db.close()


async def test_move_log_is_ordered(database: str) -> None:
    db = await Database.open(database)
    table_id = await seed(db)
    async with db.transaction() as tx:
        for n in range(1, 8):
            await tx.tables.append_move(
                table_id, n, n % 3, f"a{n}", [{"kind": "k", "seat": n % 3}], Actor.PLAYER
            )
        last = await tx.tables.last_moves(table_id, 3)
        every = await tx.tables.last_moves(table_id, 100)
        after = await tx.tables.moves_after(table_id, 5, 100)
        table = await tx.tables.get(table_id)
    assert [m.n for m in last] == [5, 6, 7]
    assert len(every) == 7
    assert [m.n for m in after] == [6, 7]
    assert table is not None
    assert [s.last_move for s in table.seats] == [6, 7, 5]
    with pytest.raises(IntegrityError):
        async with db.transaction() as tx:
            await tx.tables.append_move(table_id, 7, 0, "dup", [], Actor.PLAYER)
    await db.close()


async def _lock_waits(url: str) -> int:
    rows = execute(
        url,
        "SELECT COUNT(*) FROM pg_stat_activity"
        " WHERE wait_event_type = 'Lock' AND datname = current_database()",
    )
    return int(rows[0][0])


async def _until_one_waits_for_a_lock(url: str) -> None:
    """Until another connection to the database waits for a lock (5 s at most)."""
    for _ in range(1000):
        if await _lock_waits(url):
            break
        await asyncio.sleep(0.005)
    assert await _lock_waits(url) == 1


async def test_postgres_a_table_read_for_a_change_waits_for_the_change_before(
    postgres: Cluster,
) -> None:
    """Two processes (two pools) change one table: the second one's read of the
    table waits for the first one's commit, and then sees its version."""
    url = postgres.create()
    first, second = await Database.open(url), await Database.open(url)
    table_id = await seed(first)
    seen: list[object] = []

    async def other() -> None:
        async with second.transaction() as tx:
            table = await tx.tables.get(table_id)
            assert table is not None
            seen.append(("second read", table.version, table.state))
            await tx.tables.update(table_id, table.version, state={"by": "second"})

    async with first.transaction() as tx:
        table = await tx.tables.get(table_id)
        assert table is not None
        waiting = asyncio.create_task(other())
        await _until_one_waits_for_a_lock(url)
        seen.append("first writes")
        await tx.tables.update(table_id, table.version, state={"by": "first"})
    await waiting
    assert seen == ["first writes", ("second read", 1, {"by": "first"})]
    async with second.read() as tx:
        final = await tx.tables.get(table_id)
    assert final is not None
    assert (final.version, final.state) == (2, {"by": "second"})
    await first.close()
    await second.close()
    postgres.drop(url)


async def test_postgres_games_are_rated_one_transaction_at_a_time(postgres: Cluster) -> None:
    """Two games finishing at once in two processes: the second one's rating
    waits for the first one's commit (it rates from the ratings that left)."""
    url = postgres.create()
    first, second = await Database.open(url), await Database.open(url)
    order: list[str] = []

    async def other() -> None:
        async with second.transaction() as tx:
            await tx.ratings.lock()
            order.append("second rates")

    async with first.transaction() as tx:
        await tx.ratings.lock()
        waiting = asyncio.create_task(other())
        await _until_one_waits_for_a_lock(url)
        order.append("first rates")
    await waiting
    assert order == ["first rates", "second rates"]
    await first.close()
    await second.close()
    postgres.drop(url)


async def test_a_file_that_cannot_be_opened_is_refused_before_any_worker_thread(
    tmp_path: Path,
) -> None:
    """aiosqlite reports a failed open from its worker thread after the await has
    raised; at start-up the loop may already be closed then, and the report
    became a traceback under the one translated line (seen in CI)."""
    folder = tmp_path / "a-folder"
    folder.mkdir()
    with pytest.raises(DatabaseError, match="unable to open"):
        await Database.open(sqlite_url(folder))
    workers = [t for t in threading.enumerate() if "_connection_worker_thread" in t.name]
    assert workers == []
