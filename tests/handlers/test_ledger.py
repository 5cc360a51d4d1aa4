"""The ledger's records in memory match the database they are written through to."""

from __future__ import annotations

from pathlib import Path

from handlers.ledger import HandMessageRow, Ledger
from storage import Database
from tests.storage.test_storage import seed


async def test_what_the_ledger_keeps_is_what_the_database_holds(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "koloda.sqlite3")
    try:
        table_id = await seed(db)
        ledger = Ledger(db)
        assert (await ledger.table_message(table_id)).message_id is None  # read once, kept
        assert await ledger.hands(table_id) == {}
        await ledger.set_table_message(table_id, 7, "photo", "d1")
        await ledger.set_pinned(table_id, True)
        await ledger.set_announced(table_id, 12)
        await ledger.set_announced(table_id, 5)  # never goes back
        hand = HandMessageRow(table_id, 1, 2, 40, "h1", 3, True)
        await ledger.save_hands([hand, HandMessageRow(table_id, 0, 1, 41, None, None, False)])
        await ledger.save_hands([HandMessageRow(table_id, 1, 2, 42, "h2", 4, False)])

        fresh = Ledger(db)
        assert await ledger.table_message(table_id) == await fresh.table_message(table_id)
        assert (await fresh.table_message(table_id)).announced == 12
        assert await ledger.hands(table_id) == await fresh.hands(table_id)
        assert (await fresh.hands(table_id))[1].message_id == 42

        (await ledger.hands(table_id)).clear()  # a copy: the kept records stay
        assert len(await ledger.hands(table_id)) == 2

        async with db.transaction() as tx:  # as another process would
            await tx.messages.set_table_message(table_id, 8, "text", None)
        assert (await ledger.table_message(table_id)).message_id == 7
        ledger.forget(table_id)
        assert (await ledger.table_message(table_id)).message_id == 8
    finally:
        await db.close()
