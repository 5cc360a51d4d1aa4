"""After a game, as players meet it: the same deal with the seats turned (a
duplicate pair, its comparison in the group, presses out of order refused),
and an analysis asked for by button and by /analysis arriving in the DM."""

from __future__ import annotations

from pathlib import Path

from playground.botapi import FakeTelegram, SentMessage
from tests.e2e.harness import (
    Probe,
    Table,
    advance,
    bot_config,
    quick_options,
    running_bot,
    seat_group_players,
    seat_players,
    settle,
)

SAME_DEAL = "Те же карты по кругу"
ANALYSIS = "Анализ моей игры"


async def _result(server: FakeTelegram, table: Table, after: int = 0) -> SentMessage:
    """The latest result post (with its buttons) sent after message ``after``."""
    return await server.wait_for(
        lambda: next(
            (
                m
                for m in reversed(table.group_messages())
                if "🏁" in m.text and m.message_id > after and m.callback_datas
            ),
            None,
        )
    )


async def test_a_duplicate_pair_through_the_bot_ends_in_its_comparison(
    server: FakeTelegram, db_path: Path
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        server.add_user(300, "Stranger")
        await table.open_and_start("durak")
        await table.play_to_the_end()
        first = await _result(server, table)
        assert SAME_DEAL in " ".join(first.button_texts)

        refused = await table.press_text(300, first, SAME_DEAL)  # not a player of it
        assert refused.get("show_alert")
        for data in ("d:zz", "d:1:2", "d:-1"):  # forged: another table, garbled
            query = server.press(
                table.players[0], first.chat_id, first.message_id, data, forged=True
            )
            assert (await server.answered(query))["show_alert"]

        await table.press_text(table.players[1], first, SAME_DEAL)
        assert probe.table(2) == ("playing", 0)  # dealt at once, the people turned
        (dup,) = probe.query(
            "SELECT duplicate_of, rotation, seed, commitment FROM tables WHERE id = 2"
        )
        (orig,) = probe.query("SELECT id, seed, commitment FROM tables WHERE id = 1")
        assert dup == (1, 1, orig[1], orig[2])
        seats = probe.query("SELECT table_id, seat, user_id FROM seats ORDER BY table_id, seat")
        assert [s[2] for s in seats if s[0] == 2] == [s[2] for s in seats if s[0] == 1][::-1]
        said = "Те же карты, что у стола 1, места сдвинуты по кругу: игра 2 из 2"
        assert any(said in m.text for m in table.group_messages())  # the new table message
        again = await table.press_text(table.players[0], first, SAME_DEAL)  # a second press
        assert again.get("show_alert")
        assert probe.query("SELECT COUNT(*) FROM tables") == [(2,)]

        await table.play_to_the_end()
        last = await _result(server, table, after=first.message_id)
        assert SAME_DEAL not in " ".join(last.button_texts)  # every seat has played it
        comparison = await server.wait_for(
            lambda: next((m for m in table.group_messages() if "каждую руку" in m.text), None)
        )
        assert "Рука места 1 (в первой игре — Anna)" in comparison.text
        assert "Рука места 2 (в первой игре — Boris)" in comparison.text
        assert "Итого:" in comparison.text
        assert "балл" in comparison.text

        await table.command(table.players[0], "/verify 2")
        proof = server.last_bot_message(table.group_id)
        assert proof is not None
        assert "✅ Стол 2" in proof.text
        assert "ему сдана та же сдача, что столу 1" in proof.text


async def test_verify_of_a_duplicate_cancelled_before_any_move_says_what_is_true(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        await table.play_to_the_end()
        await table.press_text(table.players[1], await _result(server, table), SAME_DEAL)
        await table.command(table.players[0], "/cancel")  # before anybody moved
        await table.command(table.players[0], "/verify 2")
        proof = server.last_bot_message(table.group_id)
        assert proof is not None
        assert "✅ Стол 2: сдача честная." in proof.text
        # It never had a lobby: the hash was shown in the lobby of table 1.
        assert "У стола 2 не было лобби: ему сдана та же сдача, что столу 1" in proof.text
        assert "показанным в лобби стола 1 до вкладов игроков" in proof.text
        assert "показанным в лобби до" not in proof.text
        # Nothing was played, so nothing is said to have been replayed.
        assert "Ходов за этим столом не было: кроме сдачи, проверять нечего." in proof.text
        assert "Повтор" not in proof.text
        assert "сыгранная карта" not in proof.text
        lines = proof.text.splitlines()
        assert lines[1].startswith("🃏")  # whose deal it is, before what follows from it


ANALYSIS_PATIENCE = 120.0
"""Real seconds an analysis may take to arrive: it is computed at the lowest
priority (nice 19), behind everything else the machine runs."""


async def test_an_analysis_asked_for_arrives_in_the_dm(server: FakeTelegram, db_path: Path) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        await table.play_to_the_end()
        result = await _result(server, table)
        anna, boris = table.players

        # The answer comes at once; the analysis is background work at the
        # lowest priority, which on a busy machine waits for a free core.
        query = server.press(
            anna, result.chat_id, result.message_id, result.callback_data(ANALYSIS)
        )
        answer = await server.answered(query)
        assert "пришлю в личные сообщения" in answer.get("text", "")
        analysis = await server.wait_for(
            lambda: next(
                (m for m in server.chat_messages(anna) if "Разбор вашей игры" in m.text), None
            ),
            ANALYSIS_PATIENCE,
        )
        assert "стол 1" in analysis.text
        assert "Удача:" in analysis.text
        assert "решени" in analysis.text

        server.send(boris, boris, "/analysis")
        await server.wait_for(
            lambda: any("Разбор вашей игры" in m.text for m in server.chat_messages(boris)),
            ANALYSIS_PATIENCE,
        )
        await settle(server, app, patience=ANALYSIS_PATIENCE)
        await table.command(boris, "/analysis 7", chat_id=boris)
        refusal = server.last_bot_message(boris)
        assert refusal is not None
        assert refusal.text == "Вы не играли за столом 7."


async def test_whoever_never_opened_the_bot_is_given_the_button_that_opens_it(
    server: FakeTelegram, db_path: Path
) -> None:
    """/analysis and "🔍" from someone the bot may not write to: no refusal
    that sends him looking for the bot, but "🤖 Open the bot" (as /language's
    refusal has), whose Start asks for the analysis itself."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_group_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        for user_id in table.players:
            await table.my_cards(user_id)
        await table.play_to_the_end()
        result = await _result(server, table)
        anna, boris = table.players
        link = "https://t.me/koloda_test_bot?start=a1"

        await table.command(anna, "/analysis")
        refusal = server.last_bot_message(table.group_id)
        assert refusal is not None
        assert "откройте бота кнопкой ниже и нажмите «Запустить»" in refusal.text
        assert refusal.button_texts == ["🤖 Открыть бота"]
        assert refusal.find_buttons("Открыть бота")[0].url == link

        answer = await table.press(boris, result, result.callback_data(ANALYSIS))
        assert answer.get("url") == link, "the press opens the bot"
        assert server.chat_messages(boris) == []

        server.start_bot(boris, "a1")
        queued = await server.wait_for(
            lambda: next((m for m in server.chat_messages(boris) if "🔍" in m.text), None)
        )
        assert "стол" in queued.text or "столом 1" in queued.text
        await server.wait_for(
            lambda: any("Разбор вашей игры" in m.text for m in server.chat_messages(boris)),
            ANALYSIS_PATIENCE,
        )
        await settle(server, app, patience=ANALYSIS_PATIENCE)


async def test_an_analysis_asked_for_twice_at_once_is_promised_once(
    server: FakeTelegram, db_path: Path
) -> None:
    """/analysis sent twice and "🔍" pressed before the first had started:
    each was promised ("пришлю в личные сообщения"), then two DMs said it
    was already under way.  The first is promised; the others are told at
    once that it is under way, and nothing more comes of them."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        await table.play_to_the_end()
        result = await _result(server, table)
        anna = table.players[0]
        await settle(server, app)
        before = len(server.chat_messages(anna))

        server.send(anna, anna, "/analysis")
        server.send(anna, anna, "/analysis 1")
        query = server.press(
            anna, result.chat_id, result.message_id, result.callback_data(ANALYSIS)
        )
        answer = await server.answered(query)
        assert answer.get("text") == "Разбор игры за столом 1 уже идёт.", answer
        assert answer.get("show_alert")
        await server.wait_for(
            lambda: any("Разбор вашей игры" in m.text for m in server.chat_messages(anna)),
            ANALYSIS_PATIENCE,
        )
        await settle(server, app, patience=ANALYSIS_PATIENCE)
        said = [m.text for m in server.chat_messages(anna)[before:]]
        assert [s for s in said if "Разбираю" in s] == [
            "🔍 Разбираю вашу игру за столом 1 — пришлю в личные сообщения."
        ], said
        assert [s for s in said if "уже идёт" in s] == ["Разбор игры за столом 1 уже идёт."], said
        assert sum("Разбор вашей игры" in s for s in said) == 1, said
        assert "уже идёт" in said[1], said  # the second was told at once, before the analysis

        server.send(anna, anna, "/analysis")  # once it is done, it may be asked again
        await server.wait_for(
            lambda: sum("Разбор вашей игры" in m.text for m in server.chat_messages(anna)) == 2,
            ANALYSIS_PATIENCE,
        )
        await settle(server, app, patience=ANALYSIS_PATIENCE)


async def test_the_luck_of_a_joker_game_is_that_of_every_deal(
    server: FakeTelegram, db_path: Path
) -> None:
    """Joker's luck stopped at the end of the first deal, one card each, and
    was told as the luck of "эту сдачу": it is measured on each of the
    game's deals."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris", "Vera"], app)
        await table.open_and_start("joker", options=quick_options("joker"))
        await table.play_to_the_end()
        anna = table.players[0]
        server.send(anna, anna, "/analysis")
        analysis = await server.wait_for(
            lambda: next(
                (m for m in server.chat_messages(anna) if "Разбор вашей игры" in m.text), None
            ),
            ANALYSIS_PATIENCE,
        )
        assert "каждую раздачу вашей игры (12)" in analysis.text, analysis.text
        await settle(server, app, patience=ANALYSIS_PATIENCE)


async def test_an_analysis_cut_off_by_a_restart_arrives_after_it_once(
    server: FakeTelegram, db_path: Path
) -> None:
    """The bot promised "I will send it to your DM": a stop (or a kill) while
    the analysis runs does not break the promise.  The bot started again
    analyses anew and sends it, once; a later start sends nothing more."""
    # At full thinking time an analysis takes far longer than the stop waits.
    async with running_bot(bot_config(server, db_path, computer_thinking_percent=100)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        await table.play_to_the_end()
        anna = table.players[0]
        server.send(anna, anna, "/analysis")
        await server.wait_for(
            lambda: "пришлю в личные сообщения" in server.chat_messages(anna)[-1].text
        )

    def analyses() -> list[SentMessage]:
        return [m for m in server.chat_messages(anna) if "Разбор вашей игры" in m.text]

    assert analyses() == []
    async with running_bot(bot_config(server, db_path)) as app:
        await server.wait_for(lambda: analyses(), ANALYSIS_PATIENCE)
        await settle(server, app, patience=ANALYSIS_PATIENCE)
    async with running_bot(bot_config(server, db_path)) as app:
        await settle(server, app, patience=ANALYSIS_PATIENCE)
    (analysis,) = analyses()
    assert "стол 1" in analysis.text


async def test_an_analysis_held_up_by_a_flood_wait_is_sent_after_it(
    server: FakeTelegram, db_path: Path
) -> None:
    """The analysis's one sendMessage met a flood wait: nothing was sent, yet
    the promise was struck off as kept, and the analysis never came."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        await table.play_to_the_end()
        anna = table.players[0]
        await settle(server, app)
        server.send(anna, anna, "/analysis")
        await server.wait_for(
            lambda: "пришлю в личные сообщения" in server.chat_messages(anna)[-1].text
        )
        tried = len(server.calls_to("sendMessage", anna))
        server.inject_error("sendMessage", 429, retry_after=5)
        await server.wait_for(
            lambda: len(server.calls_to("sendMessage", anna)) > tried, ANALYSIS_PATIENCE
        )
        await advance(server, app, 10)
        await server.wait_for(
            lambda: any("Разбор вашей игры" in m.text for m in server.chat_messages(anna)),
            ANALYSIS_PATIENCE,
        )
        await settle(server, app, patience=ANALYSIS_PATIENCE)
