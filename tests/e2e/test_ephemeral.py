"""Playing without leaving the group: each player's hand is an ephemeral
message in the group that he alone sees, for people who never opened the bot,
with the bot an administrator of the group (it brings a player his hand when
his turn comes) or not (the player's press of "🂠 My cards" brings it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from playground.botapi import FakeTelegram
from tests.e2e.harness import Probe, bot_config, running_bot, seat_group_players, settle
from tests.e2e.test_seats import add_computers


@pytest.mark.parametrize("admin", [False, True], ids=["member", "admin"])
async def test_ephemeral_durak_played_wholly_in_the_group(
    server: FakeTelegram, db_path: Path, admin: bool
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_group_players(server, ["Anna", "Boris"], app, admin=admin)
        await settle(server, app)
        await table.open_and_start("durak")
        assert "Boris" in table.table_message().text  # seated without opening the bot
        if not admin:
            assert all(table.seen(u) == [] for u in table.players)  # none sent unasked
            for user_id in table.players:
                await table.my_cards(user_id)
        assert all(len(table.seen(u)) == 1 for u in table.players)
        await table.play_to_the_end(probe=probe)
        assert probe.table()[0] == "finished"
        assert table.dms() == []  # nothing ever went to a private chat


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "computers", "admin"),
    [
        ("101", 0, False),
        ("101", 0, True),
        ("joker", 2, False),
        ("joker", 2, True),
        # Played on the table message: no hands, so the bot's rights change nothing.
        ("daytona", 0, False),
    ],
)
async def test_ephemeral_whole_game_of_each_kind_in_the_group(
    server: FakeTelegram, db_path: Path, admin: bool, game: str, computers: int
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_group_players(server, ["Anna", "Boris"], app, admin=admin)
        await settle(server, app)
        await table.open(game)
        await table.press(table.players[1], table.lobby(), table.lobby().callback_data("🙋"))
        if computers:
            await add_computers(table, computers)
        await table.set_turn_time("без лимита")
        await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))
        assert probe.table()[0] == "playing"
        if game != "daytona" and not admin:  # Daytona is played on the table message
            for user_id in table.players:
                await table.my_cards(user_id)
        await table.play_to_the_end(max_moves=4000, probe=probe)
        assert probe.table()[0] == "finished"
        assert table.dms() == []
