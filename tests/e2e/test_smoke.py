from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import bot_config, running_bot, seat_players
from tests.fake_telegram import FakeTelegram


async def test_two_players_play_podkidnoy_to_the_end(tmp_path: Path) -> None:
    async with FakeTelegram() as server:
        config = bot_config(server, tmp_path / "k.sqlite3")
        async with running_bot(config):
            table = await seat_players(server, ["Anna", "Boris"])
            await table.open_and_start("durak")
            moves = await table.play_to_the_end()
            assert moves > 5
            await server.wait_for(lambda: any("🏁" in m.text for m in table.group_messages()))
