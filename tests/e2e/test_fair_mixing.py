"""Deals nobody can choose, as players meet them: the bot's seed committed in
the lobby message before anybody joins, the players' presses and words mixed
in, /verify proving both and refusing a tampered contribution or deal, and the
offline command printing what it checked."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from contextlib import closing
from pathlib import Path

from playground.botapi import FakeTelegram
from services.fairness import SCHEME_V2, commitment, mixed_seed
from tests.e2e.harness import Probe, bot_config, running_bot, seat_players
from tests.e2e.test_fair_deals import offline_verify


def _reply(server: FakeTelegram, group_id: int) -> str:
    last = server.last_bot_message(group_id)
    assert last is not None
    return last.text


def _sql(db_path: Path, statement: str, *params: object) -> None:
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute(statement, params)


async def test_fair_the_bots_seed_is_committed_before_joins_and_verify_proves_the_mix(
    server: FakeTelegram, db_path: Path
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna, boris = table.players
        await table.open("durak")
        ((table_id, committed, kept),) = probe.query(
            "SELECT id, seed_commitment, contributions FROM tables"
        )
        assert kept is None  # nobody has had a say yet
        assert f"🔒 Сид бота: {committed[:16]} · 0 вкладов игроков" in table.lobby().text

        await table.press(boris, table.lobby(), table.lobby().callback_data("🙋"))
        await table.command(boris, "/salt рябина")
        await server.wait_for(lambda: "2 вклада игроков" in table.lobby().text)
        await table.set_turn_time("без лимита")
        await table.press(anna, table.lobby(), table.lobby().callback_data("▶️"))
        ((scheme, bot_seed, seed, raw, deal, digest),) = probe.query(
            "SELECT scheme, server_seed, seed, contributions, deal, commitment FROM tables"
        )
        contributions = json.loads(raw)
        assert scheme == SCHEME_V2
        assert len(contributions) == 3  # Boris's join, his word, Anna's start
        assert f"word:{boris}:рябина" in contributions
        assert seed == mixed_seed(bot_seed, contributions)
        assert digest == commitment("durak", seed, json.loads(deal), SCHEME_V2)
        shown = table.group_messages()[0].text
        assert f"🔒 Сдача закреплена: {digest[:16]}" in shown
        assert bot_seed not in shown
        assert str(seed) not in shown

        await table.play_to_the_end(probe=probe)
        await server.wait_for(lambda: "🔓" in table.group_messages()[0].text)
        await table.command(boris, "/verify")
        proof = _reply(server, table.group_id)
        assert f"✅ Стол {table_id}: сдача честная. Сид {seed}" in proof
        assert f"совпал с хэшем 🔒 {committed[:16]}" in proof
        # The contributions named: the presses that seated them and started the game.
        assert "смешан с 3 вкладами игроков: нажатия, посадившие их за стол" in proof

        forged = [*contributions[:-1], "press:chosen-by-the-bot"]
        _sql(db_path, "UPDATE tables SET contributions = ? WHERE id = ?", json.dumps(forged), 1)
        await table.command(boris, "/verify")
        assert _reply(server, table.group_id).startswith(
            f"❌ Стол {table_id}: сид бота и вклады игроков не дают сид {seed}"
        )
        _sql(db_path, "UPDATE tables SET contributions = ? WHERE id = ?", raw, table_id)

        # Another deal, committed to honestly under the real seed: refused.
        ((final,),) = probe.query("SELECT state FROM tables")
        honest = commitment("durak", seed, json.loads(final), SCHEME_V2)
        _sql(db_path, "UPDATE tables SET deal = ?, commitment = ? WHERE id = ?", final, honest, 1)
        await table.command(anna, "/verify")
        assert _reply(server, table.group_id).startswith(f"❌ Стол {table_id}: сид {seed} сдаёт")
        _sql(db_path, "UPDATE tables SET deal = ?, commitment = ? WHERE id = ?", deal, digest, 1)

    env = dict(os.environ, DATABASE_PATH=str(db_path))
    done = await asyncio.to_thread(offline_verify, [str(table_id)], env)
    assert done.returncode == 0, done.stderr
    assert f"bot's seed commitment: {committed}" in done.stdout
    assert f"bot's seed: {bot_seed}" in done.stdout
    assert f"contribution: word:{boris}:рябина" in done.stdout
