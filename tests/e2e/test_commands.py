"""Commands that speak to the person reading them: /rules in the players' words
and of the table just played, /help with every variant explained, /kick that
says what it did, /language for a non-admin, a stranger's first message, a
toast in the presser's own language, and /scores in a fair order."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from playground.botapi import FakeTelegram
from tests.e2e.harness import Probe, bot_config, running_bot, seat_players, settle


def last_text(server: FakeTelegram, chat_id: int) -> str:
    message = server.last_bot_message(chat_id)
    assert message is not None
    return message.text


async def test_rules_take_the_players_words_and_explain_the_table_just_played(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna = table.players[0]

        await table.command(anna, "/rules дурак переводной")
        text = last_text(server, table.group_id)
        assert "Дурак · переводной" in text
        assert "Отбивающийся может перевести ход картой того же достоинства." in text
        assert "Настройки этого варианта" in text
        assert "Перевод: есть" in text

        await table.command(anna, "/rules 101 пентагон")
        text = last_text(server, table.group_id)
        assert "101 · пентагон" in text
        assert "Только в масть" in text
        # The general rules below say «того же достоинства»: pentagon overrides them.
        overridden = "где вариант «пентагон» (выше) и его настройки (ниже) говорят иное"
        assert text.index("Только в масть") < text.index(overridden)
        assert text.index(overridden) < text.index("того же достоинства")

        await table.command(anna, "/rules дурак")  # the game alone: its variants, each explained
        text = last_text(server, table.group_id)
        assert "бубновый — Козыри всегда бубны" in text
        assert "Акулина — Ходят одной или несколькими картами одной масти" in text

        await table.command(anna, "/rules")  # nothing played here yet: how to ask
        text = last_text(server, table.group_id)
        assert "/rules дурак переводной" in text
        assert "дурак, 101, джокер, дайтона" in text

        await table.open_and_start("durak", "perevodnoy")
        await table.play_to_the_end()
        await table.command(anna, "/rules")  # the table just played, with its options
        text = last_text(server, table.group_id)
        assert "Дурак · переводной" in text
        assert "Настройки прошлой партии (стол №1)" in text
        assert "Перевод: есть" in text
        assert "На ход: без лимита" in text

        await table.command(anna, "/rules дурак переводной", chat_id=anna)  # in private too
        assert "Настройки этого варианта" in last_text(server, anna)


async def test_help_and_the_chooser_explain_every_variant(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna = table.players[0]
        await table.command(anna, "/help")
        text = last_text(server, table.group_id)
        for line in (
            "бубновый — Козыри всегда бубны, а пики бьются только старшими пиками.",
            "Акулина — Ходят одной или несколькими картами одной масти",
            "пентагон — Только в масть",
            "минусовой — Минусовой джокер",
            "спринт — Гонка на вечер",
            "/rules [игра] [вариант]",
            "места по доле побед, в зачёте — от 3 партий",
        ):
            assert line in text

        server.start_bot(anna)
        await table.command(anna, "/newgame")
        chooser = server.last_bot_message(table.group_id)
        assert chooser is not None
        await table.press_text(anna, chooser, "Дурак")
        presets = server.bot_message(table.group_id, chooser.message_id)
        assert "Дурак: какой вариант?" in presets.text
        assert "бубновый — Козыри всегда бубны" in presets.text
        assert "веришь — не веришь — Простой дурак, но отбиваются рубашкой вверх" in presets.text
        assert "бубновый" in presets.button_texts


async def test_kick_in_a_three_player_durak_game_lets_the_other_two_play_on(
    server: FakeTelegram, db_path: Path
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris", "Vera"], app)
        anna, boris, vera = table.players
        said = server.send(vera, table.group_id, "brb")
        await table.open_and_start("durak")
        await table.play_random_move()

        server.send(boris, table.group_id, "/kick", reply_to=said["message_id"])
        await settle(server, app)
        assert "Убрать игрока может только создатель" in last_text(server, table.group_id)
        assert probe.table()[0] == "playing"

        server.send(anna, table.group_id, "/kick", reply_to=said["message_id"])
        await settle(server, app)
        group = [m.text for m in table.group_messages()]
        assert any("🚪 Anna убирает из игры: Vera. Остальные играют дальше" in t for t in group)
        dm = last_text(server, vera)
        assert "Anna убирает вас из игры в чате «Friends»" in dm
        assert "ни победой, ни поражением" in dm
        assert probe.table()[0] == "playing"  # Anna and Boris play on
        view = probe.public_view()
        assert view.left == (2,)
        assert view.active == {0, 1}
        assert any("🚪 Vera — вне игры" in m.text for m in table.group_messages())
        assert table.hand(vera) is None
        assert any(  # her hand says she is no longer in it, not that she went out
            "Вы больше не в этой партии: она идёт без вас." in m.text
            for m in server.bot_messages(vera)
        )

        await table.play_to_the_end()
        assert probe.table()[0] == "finished"
        rows = probe.query("SELECT user_id, played, wins, losses FROM scores ORDER BY user_id")
        assert [r[0] for r in rows] == [anna, boris]  # nothing for Vera: no loss as the durak
        assert sorted(r[2] + r[3] for r in rows) == [1, 1]


async def test_kick_in_a_lobby_unseats_and_says_so(server: FakeTelegram, db_path: Path) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris", "Vera"], app)
        anna, _, vera = table.players
        await table.open("durak")
        await table.press_text(vera, table.lobby(), "Сесть")
        said = server.send(vera, table.group_id, "one moment")
        server.send(anna, table.group_id, "/kick", reply_to=said["message_id"])
        await settle(server, app)
        assert "🚪 Anna убирает со стола: Vera." in last_text(server, table.group_id)
        assert "Anna убирает вас из-за стола в чате «Friends»" in last_text(server, vera)
        assert "Vera" not in table.lobby().text


async def test_a_non_admin_asking_for_the_language_is_told_what_he_may_do(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        boris = table.players[1]
        for command in ("/language", "/language en"):
            await table.command(boris, command)
            reply = server.last_bot_message(table.group_id)
            assert reply is not None
            assert "Язык группы меняют только её админы (сейчас: русский)" in reply.text
            assert "откройте бота и наберите /language" in reply.text
            assert reply.callback_datas == []  # no buttons that would only refuse him
            assert reply.button_texts == ["🤖 Открыть бота"]


async def test_a_strangers_first_message_from_the_bot_is_a_welcome_with_the_table(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna, boris = table.players
        server.start_bot(anna)
        await table.command(anna, "/newgame durak perevodnoy")
        answer = await table.press_text(boris, table.lobby(), "Сесть")
        assert answer.get("url") is None  # seated: his hands may come to him in the group
        assert "Boris" in table.lobby().text
        assert server.chat_messages(boris) == []  # he never opened the bot: nothing reached him
        assert server.calls_to("sendMessage", boris) == []

        server.start_bot(boris, "j1")
        await settle(server, app)
        (first,) = server.chat_messages(boris)
        assert "👋 Привет, Boris! Я Колода" in first.text
        assert "Вы за столом в чате «Friends»" in first.text
        assert "Дурак · переводной" in first.text  # the table he joined
        assert "2. Boris" in first.text
        assert "Boris" in table.lobby().text

        server.add_user(300, "Gleb")
        server.start_bot(300)  # /start with no payload
        await settle(server, app)
        (welcome,) = server.chat_messages(300)
        assert "Привет! Я Колода" in welcome.text
        assert "дурак, 101, джокер и «Дайтона»" in welcome.text
        assert "Не знаю" not in welcome.text


async def test_a_toast_answers_in_the_pressers_language_in_a_group_of_another(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna"], app)
        anna = table.players[0]
        server.add_user(200, "John", language_code="en")
        server.start_bot(200)
        await table.start_bots()
        await table.command(anna, "/newgame durak")
        answer = await table.press_text(200, table.lobby(), "Сесть")
        assert answer["text"] == "You are seated."
        assert "Игроки (2/6)" in table.lobby().text  # the group's own message stays Russian
        refused = await table.press_text(200, table.lobby(), "Настройки")
        assert refused["show_alert"]
        assert refused["text"] == "Only the table's creator can change options."


async def test_scores_rank_by_share_of_wins_from_three_games(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris", "Vera", "Gleb"], app)
        for user_id in table.players:  # the bot learns their names
            await table.command(user_id, "/stats")
        # Durak figures (played, wins, losses): Anna has won most, but Boris
        # was the durak least often; Gleb has one lucky game only.
        figures = {
            table.players[0]: (10, 6, 4),
            table.players[1]: (4, 4, 0),
            table.players[2]: (5, 4, 1),
            table.players[3]: (1, 1, 0),
        }
        with closing(sqlite3.connect(db_path)) as conn:
            conn.executemany(
                "INSERT INTO scores (chat_id, game, user_id, with_computers, played, wins,"
                " losses, draws) VALUES (?, 'durak', ?, 0, ?, ?, ?, 0)",
                [(table.group_id, user, *row) for user, row in figures.items()],
            )
            conn.commit()
        await table.command(table.players[0], "/scores")
        lines = last_text(server, table.group_id).splitlines()
        ranked = [line for line in lines if line[:2] in ("1.", "2.", "3.")]
        assert [line.split(" — ")[0] for line in ranked] == ["1. Boris", "2. Vera", "3. Anna"]
        assert ranked[0].endswith("· 100%")
        assert ranked[2].endswith("· 60%")
        assert any("Пока не в зачёте (меньше 3 партий): Gleb (1)" in line for line in lines)
        assert any("Места — по доле побед" in line for line in lines)


async def test_sheet_says_whether_the_game_keeps_one_or_has_none_yet(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna = table.players[0]
        none = (
            "В игре «Дурак» записи очков нет:"
            " /sheet показывает её в играх, где её ведут (101, Джокер)."
        )
        await table.open("durak")
        await table.command(anna, "/sheet")  # Durak never has one: no "yet"
        assert last_text(server, table.group_id) == none
        await table.command(anna, "/cancel")
        await table.open("joker")
        await table.command(anna, "/sheet")  # Joker keeps one, from its first deal played
        assert last_text(server, table.group_id) == "Записи пока нет: первые очки ещё не записаны."


async def test_the_start_toast_tells_the_presser_where_his_own_cards_are(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna, vova = table.players
        server.start_bot(anna)  # Vova never opens the bot: his DM does not work
        await table.command(vova, "/newgame durak")
        await table.press(anna, table.lobby(), table.lobby().callback_data("🙋"))
        started = await table.press(vova, table.lobby(), table.lobby().callback_data("▶️"))
        assert started.get("text") == (
            "Игра началась! Ваши карты — здесь, по кнопке «🂠 Мои карты»: их видите только вы."
        )
        await table.command(anna, "/cancel")

        await table.command(anna, "/newgame durak")
        await table.press(vova, table.lobby(), table.lobby().callback_data("🙋"))
        started = await table.press(anna, table.lobby(), table.lobby().callback_data("▶️"))
        assert started.get("text") == (  # her DM works: both ways are hers
            "Игра началась! Карты — в личке с ботом или здесь, по кнопке «🂠 Мои карты»."
        )


async def test_kick_by_name_or_username_and_a_clear_answer_when_the_name_is_not_one_player(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna, boris = table.players
        vera, other_vera = 300, 301
        server.add_user(vera, "Vera", username="verka")
        server.add_user(other_vera, "Vera", username="vera_b")
        server.start_bot(vera)  # her DM works: she is told there
        await table.open("durak")
        for user_id in (boris, vera, other_vera):
            await table.press(user_id, table.lobby(), table.lobby().callback_data("🙋"))
        at_table = "Anna, Boris, Vera (@verka), Vera (@vera_b)"

        await table.command(anna, "/kick")  # neither a name nor a reply
        said = last_text(server, table.group_id)
        assert "Напишите /kick и имя игрока (или его @username)" in said
        assert f"За столом: {at_table}." in said

        await table.command(anna, "/kick Gleb")
        assert last_text(server, table.group_id) == (
            f"За столом нет игрока «Gleb». За столом: {at_table}."
        )
        await table.command(anna, "/kick vera")  # two of them: which one?
        said = last_text(server, table.group_id)
        assert said.startswith(f"«vera» — так зовут нескольких за столом: {at_table}.")
        assert "Vera" in table.lobby().text

        await table.command(anna, "/kick @VERKA")  # the username, in any case
        assert "🚪 Anna убирает со стола: Vera." in last_text(server, table.group_id)
        assert "Anna убирает вас из-за стола в чате «Friends»" in last_text(server, vera)
        await table.command(anna, "/kick vera")  # now only one Vera is left
        assert "🚪 Anna убирает со стола: Vera." in last_text(server, table.group_id)
        await table.command(anna, "/kick BORIS")
        assert "🚪 Anna убирает со стола: Boris." in last_text(server, table.group_id)
        lobby = table.lobby().text
        assert "Boris" not in lobby
        assert "Vera" not in lobby
