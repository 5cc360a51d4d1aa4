"""The lobby by buttons: choosing a game, changing options, and the other
group commands around a table."""

from __future__ import annotations

from pathlib import Path

from bot.catalog import CATALOG
from i18n import t
from playground.botapi import FakeTelegram
from tests.e2e.harness import Probe, bot_config, running_bot, seat_players, settle


async def test_newgame_without_arguments_chooses_by_buttons(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        server.start_bot(table.players[0])
        await table.command(table.players[0], "/newgame")
        chooser = server.last_bot_message(table.group_id)
        assert chooser is not None
        assert chooser.button_texts == [t("ru", spec.name_key) for spec in CATALOG.specs.values()]
        assert chooser.button_texts[:2] == ["Дурак", "101"]
        await table.press_text(table.players[0], chooser, "Дурак")
        presets = server.bot_message(table.group_id, chooser.message_id)
        assert presets.button_texts == [
            "подкидной",
            "переводной",
            "переводной с отказом",
            "командный",
            "вслепую",
            "бубновый",
            "Акулина",
            "веришь — не веришь",
        ]
        await table.press_text(table.players[0], presets, "переводной")
        lobby = server.bot_message(table.group_id, chooser.message_id)  # same message
        assert "переводной" in lobby.text
        assert "с переводом" in lobby.text
        assert "1. Anna" in lobby.text
        assert Probe(db_path).table() == ("lobby", 0)


async def test_a_game_chooser_open_at_a_restart_is_closed_by_the_next_one(
    server: FakeTelegram, db_path: Path
) -> None:
    """/newgame's chooser is closed by the next /newgame, so that the group has
    one to press; a restart between the two does not leave both open, nor
    does one that follows the chooser's becoming a lobby close that lobby."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.start_bots()
        await table.command(table.players[0], "/newgame")
        first = server.last_bot_message(table.group_id)
        assert first is not None
    async with running_bot(bot_config(server, db_path)) as app:
        table.application = app
        await table.command(table.players[1], "/newgame")
        second = server.last_bot_message(table.group_id)
        assert second is not None
        closed = server.bot_message(table.group_id, first.message_id)
        assert closed.text == t("ru", "newgame.closed")
        assert closed.callback_datas == []
        await table.press_text(table.players[1], second, "101")
        presets = server.bot_message(table.group_id, second.message_id)
        await table.press_text(table.players[1], presets, "классика")
        assert table.lobby().message_id == second.message_id
    async with running_bot(bot_config(server, db_path)) as app:
        table.application = app
        await table.command(table.players[1], "/cancel")
        await table.command(table.players[0], "/newgame")
        lobby = server.bot_message(table.group_id, second.message_id)
        assert "101" in lobby.text
        assert lobby.text != t("ru", "newgame.closed")


async def test_the_lobbys_options_open_at_a_restart_stay_open(
    server: FakeTelegram, db_path: Path
) -> None:
    """The creator left the lobby's ⚙️ options open: a restart does not close
    them under his finger (nor edit the message at all); he goes on changing
    options and closes them himself."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open("durak")
        await table.press_text(table.players[0], table.lobby(), "⚙️")
        panel = table.lobby()
        assert any(b.startswith("На ход") for b in panel.button_texts)
    calls = len(server.calls)
    async with running_bot(bot_config(server, db_path)) as app:
        table.application = app
        await settle(server, app)
        assert [c for c in server.calls[calls:] if c.chat_id == table.group_id] == []
        assert table.lobby().button_texts == panel.button_texts
        await table.press(table.players[0], table.lobby(), table.lobby().callback_data("На ход"))
        assert any(b.startswith("На ход: 2 мин") for b in table.lobby().button_texts)
        await table.press_text(table.players[0], table.lobby(), "« Назад")
        assert "⚙️ Настройки" in table.lobby().button_texts
        assert "⏳ На ход: 2 мин" in table.lobby().text


async def test_the_creator_changes_options_and_nobody_else_can(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna, boris = table.players
        await table.start_bots()
        await table.command(anna, "/newgame durak")
        answer = await table.press_text(boris, table.lobby(), "Настройки")
        assert answer["show_alert"]
        assert "открыл стол" in answer["text"]

        await table.press_text(anna, table.lobby(), "Настройки")
        menu = table.lobby()
        assert menu.has_button("Колода: 36")
        await table.press_text(anna, menu, "Колода: 36")
        await table.press_text(anna, table.lobby(), "Колода: 52")  # 36 -> 52 -> 24
        await table.press_text(anna, table.lobby(), "Перевод: нет")
        menu = table.lobby()
        assert menu.has_button("Колода: 24")
        assert menu.has_button("Перевод: есть")
        assert "свои настройки" in menu.text  # no longer a named preset
        answer = await table.press_text(boris, menu, "Колода: 24")
        assert answer["show_alert"]
        await table.press_text(anna, table.lobby(), "Назад")
        lobby = table.lobby()
        assert lobby.has_button("Сесть")
        assert "24 карты · с переводом" in lobby.text
        await table.press_text(boris, lobby, "Сесть")
        await table.press_text(anna, table.lobby(), "Начать")
        assert Probe(db_path).table() == ("playing", 0)
        # The game really uses the options: 24 cards, 12 dealt, 12 in the stock.
        view = Probe(db_path).public_view()
        assert view.stock == 12
        assert view.hands == (6, 6)


async def test_rules_stats_and_table_commands(server: FakeTelegram, db_path: Path) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna = table.players[0]
        await table.command(anna, "/rules")
        usage = server.last_bot_message(table.group_id)
        assert usage is not None
        assert "/rules" in usage.text
        await table.command(anna, "/rules 101")
        rules = server.last_bot_message(table.group_id)
        assert rules is not None
        assert "101" in rules.text
        assert "Дама" in rules.text or "дама" in rules.text

        await table.open_and_start("durak")
        await table.command(anna, "/rules")
        rules = server.last_bot_message(table.group_id)
        assert rules is not None
        assert "Настройки этого стола" in rules.text
        before = len(table.group_messages())
        await table.command(anna, "/table")
        await server.wait_for(lambda: len(table.group_messages()) > before)
        copy = table.group_messages()[-1]
        assert "Козырь" in copy.text
        await table.play_to_the_end()
        await table.command(anna, "/stats")
        stats = server.last_bot_message(table.group_id)
        assert stats is not None
        assert "Дурак: игр 1" in stats.body
        await table.command(anna, "/stats", chat_id=anna)
        private = server.last_bot_message(anna)
        assert private is not None
        assert "Дурак: игр 1" in private.body


def _message(server: FakeTelegram, chat_id: int, message_id: int) -> str:
    return next(m.text for m in server.chat_messages(chat_id) if m.message_id == message_id)


async def test_cancel_and_the_last_leave_are_answered_and_the_lobby_says_why_it_closed(
    server: FakeTelegram, db_path: Path
) -> None:
    """/cancel and the last /leave are answered where they were typed (the
    lobby may be far up), and the closed lobby says why, without who was
    still needed ('Нужен ещё 1 игрок.' above '❌ Стол отменён.' before)."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna, boris = table.players
        await table.command(anna, "/newgame durak")
        lobby = table.lobby().message_id
        await table.command(anna, "/cancel")
        answer = server.last_bot_message(table.group_id)
        assert answer is not None
        assert answer.message_id != lobby
        assert answer.text == "❌ Стол отменён (Anna)."
        closed = _message(server, table.group_id, lobby)
        assert closed.endswith("\n\n❌ Стол отменён (Anna).")
        assert "Нуж" not in closed
        assert "Можно начинать" not in closed
        assert "1. Anna" in closed

        await table.command(anna, "/newgame durak")
        lobby = table.lobby().message_id
        await table.press(boris, table.lobby(), table.lobby().callback_data("🙋"))
        await table.command(anna, "/leave")
        assert server.last_bot_message(table.group_id).text == "🚪 Anna встаёт из-за стола."  # type: ignore[union-attr]
        await table.command(boris, "/leave")
        answer = server.last_bot_message(table.group_id)
        assert answer is not None
        assert answer.text == "🚪 Стол закрыт: все игроки ушли."
        closed = _message(server, table.group_id, lobby)
        assert closed.endswith("\n\n🚪 Стол закрыт: все игроки ушли.")
        assert "Нуж" not in closed
        assert "Игроки (0" not in closed
        assert Probe(db_path).query("SELECT ended_by FROM tables ORDER BY id") == [
            (anna,),
            (None,),
        ]
