"""Presses and commands that must be refused clearly, changing nothing."""

from __future__ import annotations

import re
from pathlib import Path

from handlers.commands import PRIVATE_COMMANDS
from playground.botapi import FakeTelegram
from tests.e2e.harness import MOVE_DATA, Probe, bot_config, running_bot, seat_players, settle

STRANGER = 999


async def test_deep_link_join_for_a_player_who_never_started_the_bot(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        server.start_bot(table.players[0])
        await table.command(table.players[0], "/newgame durak")
        lobby = table.lobby()
        # Seated without a working DM: his hands can come to him in the group.
        answer = await table.press_text(table.players[1], lobby, "Сесть")
        assert answer.get("url") is None
        assert "Boris" in table.lobby().text
        await table.press_text(table.players[1], table.lobby(), "Встать")
        assert "Boris" not in table.lobby().text

        # A join link (given out before) still seats him, from his DM.
        server.start_bot(table.players[1], "j1")
        await settle(server, app)
        assert "Boris" in table.lobby().text
        reply = server.last_bot_message(table.players[1])
        assert reply is not None
        assert "Friends" in reply.text

        # A link to a table that is not taking players is refused politely.
        await table.press_text(table.players[0], table.lobby(), "Начать")
        server.send(table.players[1], table.players[1], "/start j1")
        await table.command(table.players[1], "/start j77", chat_id=table.players[1])
        texts = [m.text for m in server.chat_messages(table.players[1])[-2:]]
        assert any("уже не действует" in t for t in texts)
        assert any("не работает" in t for t in texts)


async def test_strangers_stale_and_doubled_presses_change_nothing(
    server: FakeTelegram, db_path: Path
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        server.add_user(STRANGER, "Mallory")
        await table.open_and_start("durak")
        mover = next(u for u in table.players if table.hand(u) is not None)
        hand = table.hand(mover)
        assert hand is not None
        data = next(d for d in hand.callback_datas if d.startswith("m:"))

        # A stranger forging the mover's button on a message in his own DM.
        server.start_bot(STRANGER)
        await settle(server, app)
        welcome = server.last_bot_message(STRANGER)
        assert welcome is not None
        query = server.press(STRANGER, STRANGER, welcome.message_id, data, forged=True)
        answer = await server.answered(query)
        assert answer["show_alert"]
        assert "не играете" in answer["text"]
        assert probe.table() == ("playing", 0)

        # The other player forging it in his own DM: not his move.
        other = next(u for u in table.players if u != mover)
        own = server.last_bot_message(other)
        assert own is not None
        query = server.press(other, other, own.message_id, data, forged=True)
        answer = await server.answered(query)
        assert answer["show_alert"]
        assert probe.table() == ("playing", 0)

        # Two quick presses of the same button: one move.
        first = server.press(mover, hand.chat_id, hand.message_id, data)
        second = server.press(mover, hand.chat_id, hand.message_id, data, forged=True)
        answers = [await server.answered(first), await server.answered(second)]
        assert sorted(bool(a.get("show_alert")) for a in answers) == [False, True]
        refused = next(a for a in answers if a.get("show_alert"))
        assert "устарела" in refused["text"]
        await settle(server, app)
        assert probe.table() == ("playing", 1)

        # The old keyboard, pressed again later: stale.
        query = server.press(mover, hand.chat_id, hand.message_id, data, forged=True)
        answer = await server.answered(query)
        assert answer["show_alert"]
        assert probe.table() == ("playing", 1)

        # Garbage callback data.
        query = server.press(mover, hand.chat_id, hand.message_id, "m:zz:!!", forged=True)
        answer = await server.answered(query)
        assert answer["show_alert"]
        assert "не работает" in answer["text"]
        assert probe.table() == ("playing", 1)


async def test_bad_commands_get_a_clear_translated_answer(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna, boris = table.players
        await table.start_bots()

        async def group_reply(text: str, user_id: int = anna) -> str:
            await table.command(user_id, text)
            message = server.last_bot_message(table.group_id)
            assert message is not None
            return message.text

        assert "Не знаю игру «chess»" in await group_reply("/newgame chess")
        assert "нет варианта «nosuch»" in await group_reply("/newgame durak nosuch")
        # The game by its name, never its key, and the variants there are.
        refused = await group_reply("/rules дурак фу")
        assert "У игры «Дурак» нет варианта «фу». Варианты: подкидной, переводной" in refused
        assert "Акулина" in refused
        assert "durak" not in refused
        assert "«101» нет варианта «<b>»" in await group_reply("/rules 101 <b>")
        assert "нет варианта «podkidnoy extra»" in await group_reply(
            "/newgame durak podkidnoy extra"
        )
        assert "нет открытого стола" in await group_reply("/join")
        await table.command(anna, "/newgame durak")
        assert "уже за столом" in await group_reply("/join")
        assert "Мало игроков" in await group_reply("/startgame")
        assert "уже открыт стол" in await group_reply("/newgame durak")
        assert "Начать может тот" in await group_reply("/startgame", boris)

        await table.command(anna, "/join", chat_id=anna)
        dm = server.last_bot_message(anna)
        assert dm is not None
        assert "работает в группе" in dm.text
        await table.command(anna, "/frobnicate", chat_id=anna)
        dm = server.last_bot_message(anna)
        assert dm is not None
        assert "Такой команды нет" in dm.text
        await table.command(anna, "/help", chat_id=anna)
        dm = server.last_bot_message(anna)
        assert dm is not None
        assert "Команды" in dm.text  # a known command is not also "unknown"
        assert not any("Такой команды нет" in m.text for m in server.chat_messages(anna)[-1:])

        # English after /language en (Anna created the group: she is its owner).
        assert "Language: English" in await group_reply("/language en")
        assert "I don't know the game" in await group_reply("/newgame chess")
        refused = await group_reply("/newgame durak nonsense")
        assert refused.startswith("Durak has no variant “nonsense”. Its variants: ")
        assert "perevodnoy" in refused
        assert "Usage: /language" in await group_reply("/language xx")
        assert "Only the group's admins change its language (now: English)" in await group_reply(
            "/language ru", boris
        )
        # The open lobby speaks the chat's new language at once, not from
        # its next edit on.
        await settle(server, app)
        assert "Players (1/6)" in table.lobby().text
        await table.press_text(boris, table.lobby(), "🙋")
        assert "Players (2/6)" in table.lobby().text


async def test_commands_are_registered_in_every_language(
    server: FakeTelegram, db_path: Path
) -> None:
    groups = {"type": "all_group_chats"}
    private = {"type": "all_private_chats"}
    codes = {"ru": "", "uk": "uk", "en": "en", "ka": "ka"}  # Russian is the fallback list
    async with running_bot(bot_config(server, db_path)):
        listed = {
            lang: {c["command"]: c["description"] for c in server.my_commands(groups, code)}
            for lang, code in codes.items()
        }
        in_private = {
            lang: {c["command"] for c in server.my_commands(private, code)}
            for lang, code in codes.items()
        }
        about = {
            (kind, lang): server.bot_texts.get((kind, code))
            for kind in ("description", "short_description")
            for lang, code in codes.items()
        }
    russian = listed["ru"]
    assert all(set(commands) == set(russian) for commands in listed.values())
    assert set(russian) >= {"newgame", "join", "scores", "rules", "language"}
    assert "start" not in russian
    # A private chat lists what works there: a finished game's replay,
    # proof and analysis, ratings, rules; no table commands.
    assert all(names == set(PRIVATE_COMMANDS) for names in in_private.values())
    assert {"replay", "verify", "analysis", "stats"} <= set(PRIVATE_COMMANDS)
    assert not {"newgame", "join", "kick", "sheet"} & set(PRIVATE_COMMANDS)
    assert russian["join"] == "Сесть за стол"
    assert listed["en"]["join"] == "Take a seat"
    assert listed["uk"]["join"] == "Сісти за стіл"
    assert listed["ka"]["join"] == "მაგიდასთან დაჯდომა"
    assert all(re.fullmatch(r"[a-z]+", c) for c in russian)
    assert not any(MOVE_DATA.match(c) for c in russian)
    assert all(about.values())
    russian_about = str(about[("description", "ru")])
    english_about = str(about[("description", "en")])
    assert "«Запустить»" in russian_about  # the Russian client's label of its Start button
    assert "press Start" in english_about
    for game in ("дурак", "101", "джокер", "Дайтон"):
        assert game in russian_about
        assert game.lower() in str(about[("short_description", "ru")]).lower()
    for game in ("Durak", "101", "Joker", "Daytona"):
        assert game in english_about
        assert game in str(about[("short_description", "en")])
    for game in ("дурня", "101", "джокер", "Дайтон"):
        assert game in str(about[("description", "uk")])
    for game in ("დურაკ", "101", "ჯოკერ", "დეიტონ"):
        assert game in str(about[("description", "ka")])
