"""Playing from one's DM, in Russian and in English: the table, what just
happened, whose move it is, one's own result; the live table pinned while the
game runs; /table moves it down; the leaderboard in the players' words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from playground.botapi import FakeTelegram
from tests.e2e.harness import GROUP_ID, Table, bot_config, running_bot, seat_players


def live_dm(server: FakeTelegram, user: int) -> str:
    """The text of the user's latest hand message."""
    return [m for m in server.chat_messages(user) if not m.deleted][-1].text


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "ru",
            {
                "header": "Дурак · «Cards club»",
                "trump": "Козырь:",
                "turn": "Ход:",
                "table": ("На столе:", "Ваш ход."),
                "result": "🏁 Партия окончена",
                "draw": "ничья",
                "durak": "Вы — дурак.",
                "place": "Ваше место —",
                "score": "дураком",
            },
        ),
        (
            "en",
            {
                "header": "Durak · “Cards club”",
                "trump": "Trump:",
                "turn": "Move:",
                "table": ("On the table:", "Your attack."),
                "result": "🏁 Game over",
                "draw": "a draw",
                "durak": "You are the durak.",
                "place": "Your place:",
                "score": "durak",
            },
        ),
    ],
)
async def test_a_three_player_game_as_each_player_saw_it(
    server: FakeTelegram, db_path: Path, lang: str, words: dict[str, Any]
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        names = ["Anna", "Boris", "Vera"]
        players = []
        for i, name in enumerate(names):
            server.add_user(100 + i, name, language_code=lang)
            players.append(100 + i)
        server.add_group(GROUP_ID, "Cards club", supergroup=True, creator=100, bot_is_admin=True)
        table = Table(server, GROUP_ID, players, app)
        await table.start_bots()
        await table.command(100, "/newgame durak")
        for user in players[1:]:
            await table.press(user, table.lobby(), table.lobby().callback_data("🙋"))
        await table.press(100, table.lobby(), table.lobby().callback_data("⚙️"))
        turn_label = "На ход" if lang == "ru" else "Turn"
        for _ in range(5):
            label = next(b for b in table.lobby().button_texts if b.startswith(turn_label))
            if label.endswith(("без лимита", "unlimited")):
                break
            await table.press(100, table.lobby(), table.lobby().callback_data(turn_label))
        await table.press(100, table.lobby(), table.lobby().callback_data("«"))
        await table.press(100, table.lobby(), table.lobby().callback_data("▶️"))

        pinned = [m for m in table.group_messages() if m.pinned]
        assert len(pinned) == 1  # the live table, pinned where the bot may pin
        seen_acting = seen_waiting = False
        while await table.play_random_move() is not None:
            for user in players:
                text = live_dm(server, user)
                assert words["header"] in text
                if table.hand(user) is not None:
                    seen_acting = True
                    assert words["trump"] in text
                    assert any(part in text for part in words["table"])
                elif words["turn"] in text:
                    seen_waiting = True
        assert seen_acting
        assert seen_waiting
        finals = [live_dm(server, user) for user in players]
        assert all(words["result"] in text for text in finals), finals
        if not any(words["draw"] in text for text in finals):  # a draw names no durak, no place
            assert sum(words["durak"] in text for text in finals) <= 1
            assert sum(words["place"] in text for text in finals) >= 2
        assert not [m for m in table.group_messages() if m.pinned]  # unpinned at the end
        assert all("⏳" not in m.text for m in table.group_messages())  # no waiting marks left

        await table.command(100, "/scores")
        board = server.last_bot_message(GROUP_ID)
        assert board is not None
        assert words["score"] in board.text


async def test_table_moves_the_table_down_and_a_leaving_creator_hands_it_on(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris", "Vera"], app)
        anna, boris, vera = table.players
        await table.start_bots()
        await table.command(anna, "/newgame durak")
        for user in (boris, vera):
            await table.press(user, table.lobby(), table.lobby().callback_data("🙋"))
        await table.command(anna, "/leave")
        assert "Boris 👑" in table.lobby().text  # the next person seated holds the table now
        await table.press(boris, table.lobby(), table.lobby().callback_data("▶️"))
        old = [m for m in table.group_messages() if m.rows][-1]
        await table.command(vera, "/table")
        moved = server.bot_message(table.group_id, old.message_id)
        assert moved.text == "Стол ниже ⬇️"
        assert moved.rows == []
        assert table.group_messages()[-1].has_button("Мои карты")
