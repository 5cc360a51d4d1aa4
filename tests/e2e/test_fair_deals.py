"""Provably fair deals as players meet them: the commitment in the table message
while the game runs, the seed once it is over, /verify in the group, and the
offline command an operator runs on the database file."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from playground.botapi import FakeTelegram
from tests.e2e.harness import Probe, bot_config, running_bot, seat_players


def _reply(server: FakeTelegram, group_id: int) -> str:
    last = server.last_bot_message(group_id)
    assert last is not None
    return last.text


async def test_the_deal_is_committed_shown_revealed_and_proven(
    server: FakeTelegram, db_path: Path
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        ((table_id, seed, digest),) = probe.query("SELECT id, seed, commitment FROM tables")
        assert len(digest) == 64
        shown = table.group_messages()[0]
        assert f"🔒 Сдача закреплена: {digest[:16]}" in shown.text
        assert str(seed) not in shown.text  # the seed stays secret while the game runs

        await table.command(table.players[1], "/verify")
        assert "ещё идёт" in _reply(server, table.group_id)
        assert "🔒" in _reply(server, table.group_id)

        moves = await table.play_to_the_end(probe=probe)
        await server.wait_for(lambda: "🔓" in table.group_messages()[0].text)
        final = table.group_messages()[0].text
        assert f"🔓 Сдача {digest[:16]} — сид {seed}. Проверить: /verify {table_id}" in final

        await table.command(table.players[1], "/verify")
        proof = _reply(server, table.group_id)
        assert f"✅ Стол {table_id}: сдача честная. Сид {seed}" in proof
        assert digest[:16] in proof
        assert f"{moves} ход" in proof

        await table.command(table.players[0], f"/verify {table_id}")
        assert "✅" in _reply(server, table.group_id)
        await table.command(table.players[0], "/verify 999")
        assert _reply(server, table.group_id) == "Стола 999 в этом чате нет."
        await table.command(table.players[0], "/verify twelve")
        assert _reply(server, table.group_id).startswith("Напишите /verify")
        assert probe.table(table_id) == ("finished", moves)  # nothing changed

        # In a DM, as the result's "/verify N" may be copied there: the
        # person's last game by default, any table by its number.
        anna, vera = table.players[0], 999_001
        server.add_user(vera, "Vera")
        await table.command(anna, "/verify", chat_id=anna)
        assert f"✅ Стол {table_id}: сдача честная. Сид {seed}" in _reply(server, anna)
        await table.command(anna, f"/verify {table_id}", chat_id=anna)
        assert "✅" in _reply(server, anna)
        await table.command(anna, "/verify 999", chat_id=anna)
        assert _reply(server, anna) == "Стола 999 нет."
        await table.command(vera, "/verify", chat_id=vera)  # she never played
        assert _reply(server, vera) == "У вас ещё нет законченных игр — проверять нечего."

    # Offline, on the database file, as docs/fair-deals.md shows.
    env = dict(os.environ, DATABASE_PATH=str(db_path))
    done = await asyncio.to_thread(offline_verify, [str(table_id)], env)
    assert done.returncode == 0, done.stderr
    assert f"Table {table_id}: the deal was fair" in done.stdout
    assert f"commitment: {digest}" in done.stdout
    missing = await asyncio.to_thread(offline_verify, ["999", "--database", str(db_path)], None)
    assert missing.returncode == 2
    assert "no table 999" in missing.stderr


def offline_verify(args: list[str], env: dict[str, str] | None) -> subprocess.CompletedProcess[str]:
    """``python -m bot.verify`` with ``args``, as an operator runs it."""
    return subprocess.run(  # noqa: S603 - our own entry point, our own arguments
        [sys.executable, "-m", "bot.verify", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=60,
    )
