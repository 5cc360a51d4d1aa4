"""Whole Durak games played by pressing buttons, from /newgame to /scores."""

from __future__ import annotations

from pathlib import Path

import pytest

from playground.botapi import FakeTelegram
from tests.e2e.harness import Probe, bot_config, quick_options, running_bot, seat_players

NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor"]


@pytest.mark.parametrize(
    ("preset", "players"),
    [
        ("podkidnoy", 2),
        pytest.param("podkidnoy", 3, marks=pytest.mark.slow),
        pytest.param("podkidnoy", 6, marks=pytest.mark.slow),
        pytest.param("perevodnoy", 3, marks=pytest.mark.slow),
        ("refusal", 2),
        ("diamonds", 2),
        pytest.param("akulina", 3, marks=pytest.mark.slow),
        ("believe", 2),
        ("blind", 3),
    ],
)
async def test_a_whole_game_by_buttons_to_the_result_and_leaderboard(
    server: FakeTelegram, db_path: Path, preset: str, players: int
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, NAMES[:players], app)
        await table.open_and_start("durak", preset, options=quick_options("durak", preset))
        assert probe.table() == ("playing", 0)
        for user_id in table.players:  # everybody got a hand in his DM
            assert "Ваши " in server.chat_messages(user_id)[-1].text

        moves = await table.play_to_the_end(probe=probe)

        status, logged = probe.table()
        assert status == "finished"
        assert logged == moves
        result = await server.wait_for(
            lambda: next((m for m in table.group_messages() if "🏁" in m.text), None)
        )
        assert result.has_button("Ещё партию")
        # Every hand keyboard is gone once the game is over.
        for user_id in table.players:
            assert table.hand(user_id) is None
        scores = probe.scores()
        assert [(s[2], s[3]) for s in scores] == [(u, 1) for u in table.players]
        winners = sum(s[4] for s in scores)
        assert winners in (players - 1, 0)  # everybody but the durak, or a draw

        await table.command(table.players[0], "/scores")
        board = server.last_bot_message(table.group_id)
        assert board is not None
        assert "Результаты чата" in board.text
        for name in NAMES[:players]:
            assert name in board.text
        check_final_table_message(table.group_messages()[0].text, preset)


def check_final_table_message(text: str, preset: str) -> None:
    assert f"Дурак</b> · {preset[:-2]}" not in text  # HTML is rendered, not shown
    assert "Дурак" in text
    assert "Дурак:" in text or "Ничья" in text


async def test_rematch_seats_the_same_players(server: FakeTelegram, db_path: Path) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, NAMES[:2], app)
        await table.open_and_start("durak")
        await table.play_to_the_end()
        result = await server.wait_for(
            lambda: next((m for m in table.group_messages() if "🏁" in m.text), None)
        )
        await table.press_text(table.players[1], result, "Ещё партию")
        lobby = table.lobby()
        assert "Anna" in lobby.text
        assert "Boris" in lobby.text
        assert "Игроки (2/6)" in lobby.text
        await table.press_text(table.players[0], lobby, "Начать")
        assert Probe(db_path).table(2) == ("playing", 0)


async def test_a_two_against_two_team_game_by_buttons(server: FakeTelegram, db_path: Path) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, NAMES[:4], app)
        await table.open("durak", "teams")
        for user_id in table.players[1:]:
            await table.press(user_id, table.lobby(), table.lobby().callback_data("🙋"))
        lobby = table.lobby()
        assert "Команда 1: Anna, Vera" in lobby.text
        assert "Команда 2: Boris, Gleb" in lobby.text
        await table.press_text(table.players[0], lobby, "Перемешать команды")
        assert "Команда 1:" in table.lobby().text
        await table.set_turn_time("без лимита")
        await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))
        assert probe.table() == ("playing", 0)
        assert "Команды:" in table.group_messages()[0].text

        await table.play_to_the_end(probe=probe)

        result = await server.wait_for(
            lambda: next((m for m in table.group_messages() if "🏁" in m.text), None)
        )
        scores = probe.scores()
        winners = sum(s[4] for s in scores)
        if "ничья" in result.text:
            assert winners == 0
        else:
            assert "Проигравшая команда" in result.text
            assert winners == 2  # both partners of the winning team
