"""The ledger's records in memory match the database they are written through to,
and writes made together commit together."""

from __future__ import annotations

import asyncio
from pathlib import Path

from delivery.ledger import HandMessageRow, Ledger
from services import Background
from storage import Database, IntegrityError
from tests.storage.test_storage import seed


async def test_what_the_ledger_keeps_is_what_the_database_holds(database: str) -> None:
    db = await Database.open(database)
    try:
        table_id = await seed(db)
        ledger = Ledger(db, Background())
        assert (await ledger.table_message(table_id)).message_id is None  # read once, kept
        assert await ledger.hands(table_id) == {}
        await ledger.set_table_message(table_id, 7, "photo", "d1")
        await ledger.set_pinned(table_id, True)
        await ledger.set_announced(table_id, 11, 1)  # one post of move 12 made
        await ledger.set_announced(table_id, 11, 2)  # and its second
        await ledger.set_announced(table_id, 11, 1)  # never goes back
        assert (await Ledger(db, Background()).table_message(table_id)).announced_posts == 2
        await ledger.set_announced(table_id, 12)
        await ledger.set_announced(table_id, 5)  # never goes back
        await ledger.set_announced(table_id, 5, 3)
        hand = HandMessageRow(table_id, 1, 2, 40, "h1", 3, True)
        await ledger.save_hands(
            table_id, [hand, HandMessageRow(table_id, 0, 1, 41, None, None, False)]
        )
        assert await ledger.retiring(table_id) == {}
        # A new hand message, and the one it replaces to delete, in one write.
        await ledger.save_hands(
            table_id,
            [HandMessageRow(table_id, 1, 2, 42, "h2", 4, False, focus="jX1")],
            {(2, 40): "old"},
        )
        await ledger.save_hands(table_id, [], {(1, 39): None})

        fresh = Ledger(db, Background())
        assert await ledger.table_message(table_id) == await fresh.table_message(table_id)
        assert (await fresh.table_message(table_id)).announced == 12
        assert (await fresh.table_message(table_id)).announced_posts == 0
        assert await ledger.hands(table_id) == await fresh.hands(table_id)
        assert (await fresh.hands(table_id))[1].message_id == 42
        assert (await fresh.hands(table_id))[1].focus == "jX1"  # its sub-menu
        assert await fresh.retiring(table_id) == {(2, 40): "old", (1, 39): None}
        await ledger.retired(table_id, [(2, 40)])
        assert await ledger.retiring(table_id) == {(1, 39): None}
        assert await Ledger(db, Background()).retiring(table_id) == {(1, 39): None}

        (await ledger.hands(table_id)).clear()  # a copy: the kept records stay
        assert len(await ledger.hands(table_id)) == 2

        async with db.transaction() as tx:  # as another process would
            await tx.messages.set_table_message(table_id, 8, "text", None)
        assert (await ledger.table_message(table_id)).message_id == 7
        ledger.forget(table_id)
        assert (await ledger.table_message(table_id)).message_id == 8
    finally:
        await db.close()


async def test_writes_queued_while_the_database_is_busy_commit_in_one_transaction(
    tmp_path: Path,
) -> None:
    db = await Database.open(tmp_path / "koloda.sqlite3")
    try:
        table_id = await seed(db)
        ledger = Ledger(db, Background())
        async with db.transaction():  # busy: the writes below have to queue
            queued = [
                asyncio.create_task(ledger.set_announced(table_id, 3)),
                asyncio.create_task(ledger.set_table_message(table_id, 7, "text", "d")),
                # No such table: this write fails, and with it its batch.
                asyncio.create_task(
                    ledger.save_hands(
                        table_id + 99, [HandMessageRow(table_id + 99, 0, 1, 40, None, None, False)]
                    )
                ),
            ]
            await asyncio.sleep(0.01)
            assert not any(task.done() for task in queued)
        results = await asyncio.gather(*queued, return_exceptions=True)
        assert all(isinstance(r, IntegrityError) for r in results)
        fresh = Ledger(db, Background())
        assert await fresh.table_message(table_id) == await ledger.table_message(table_id)
        assert (await fresh.table_message(table_id)).announced == 0

        # The next batch is a transaction of its own, and every writer of it
        # returns once its write is durable.
        await asyncio.gather(
            ledger.set_announced(table_id, 5),
            ledger.save_hands(table_id, [HandMessageRow(table_id, 0, 1, 41, None, None, False)]),
        )
        fresh = Ledger(db, Background())
        assert (await fresh.table_message(table_id)).announced == 5
        assert (await fresh.hands(table_id))[0].message_id == 41
    finally:
        await db.close()


async def test_a_writer_given_up_on_does_not_take_its_batch_with_it(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "koloda.sqlite3")
    try:
        table_id = await seed(db)
        ledger = Ledger(db, Background())
        async with db.transaction():
            impatient = asyncio.create_task(ledger.set_announced(table_id, 4))
            patient = asyncio.create_task(ledger.set_pinned(table_id, True))
            await asyncio.sleep(0.01)
            impatient.cancel()
        await patient
        assert impatient.cancelled()
        row = await Ledger(db, Background()).table_message(table_id)
        assert (row.announced, row.pinned) == (4, True)
    finally:
        await db.close()


def idle(background: Background) -> bool:
    return background.idle


async def test_the_committer_is_a_background_task(tmp_path: Path) -> None:
    """While a commit is in hand the bot is not idle (a test on the fake clock
    waits for it), and a stop ends the committer like every other task."""
    db = await Database.open(tmp_path / "koloda.sqlite3")
    try:
        table_id = await seed(db)
        background = Background()
        ledger = Ledger(db, background)
        assert idle(background)
        async with db.transaction():  # busy: the committer waits for the database
            write = asyncio.create_task(ledger.set_announced(table_id, 3))
            await asyncio.sleep(0.01)
            assert not idle(background)
        await write
        assert idle(background)  # committed, and the committer is done
        assert (await Ledger(db, Background()).table_message(table_id)).announced == 3

        async with db.transaction():
            stopped = asyncio.create_task(ledger.set_pinned(table_id, True))
            await asyncio.sleep(0.01)
            await background.stop()
        await asyncio.gather(stopped, return_exceptions=True)
        assert stopped.cancelled()
        assert not (await Ledger(db, Background()).table_message(table_id)).pinned
    finally:
        await db.close()


async def test_a_read_waits_for_the_tables_write_under_way(database: str) -> None:
    """A sync of a chat taken back a moment ago reads the announcement cursor
    while its last sync's write of it is still queued: the read waits for
    the write, instead of taking the cursor from before it."""
    db = await Database.open(database)
    try:
        table_id = await seed(db)
        ledger = Ledger(db, Background())
        async with db.transaction() as tx:
            # The table's row is locked: the write below has to wait.
            await tx.messages.set_table_message(table_id, 5, "text", None)
            written = asyncio.create_task(ledger.set_announced(table_id, 7))
            await asyncio.sleep(0.01)
            ledger.forget(table_id)  # the chat dropped and taken back
            read = asyncio.create_task(ledger.table_message(table_id))
            await asyncio.sleep(0.01)
            assert not read.done()
        await written
        assert (await read).announced == 7
        assert (await ledger.table_message(table_id)).announced == 7
    finally:
        await db.close()
