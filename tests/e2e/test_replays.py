"""Replays as people use them: nothing before the game is over, then the result
post's "▶️ Replay" opening it in the DM, ◀ ▶ ⏮ ⏭ stepping its one message,
/replay in the group stepped by the person who asked, forged steps refused."""

from __future__ import annotations

from pathlib import Path

from delivery import callback_data as cd
from playground.botapi import FakeTelegram
from playground.botapi.models import SentMessage
from tests.e2e.harness import Probe, Table, advance, bot_config, running_bot, seat_players

BAD_BUTTON = "Эта кнопка не работает."


def _last(server: FakeTelegram, chat_id: int) -> SentMessage:
    message = server.last_bot_message(chat_id)
    assert message is not None
    return message


async def _step(table: Table, user_id: int, message: SentMessage, label: str) -> SentMessage:
    answer = await table.press(user_id, message, message.callback_data(label))
    assert not answer.get("show_alert"), answer
    if table.application is not None and message.chat_id < 0:
        await advance(table.server, table.application, 5)  # the group's edit waits its slot
    (now,) = [
        m for m in table.server.chat_messages(message.chat_id) if m.message_id == message.message_id
    ]
    return now


async def test_a_finished_game_replays_move_by_move_in_the_dm_and_in_the_group(
    server: FakeTelegram, db_path: Path
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna, boris = table.players
        await table.open_and_start("durak")

        # While the game is on, there is nothing to replay: no card it hides is shown.
        await table.command(boris, "/replay", chat_id=boris)
        assert _last(server, boris).text == "Законченных игр для повтора пока нет."
        await table.command(boris, "/replay 1", chat_id=boris)
        assert "ещё идёт" in _last(server, boris).text
        await table.command(anna, "/replay")
        assert "ещё идёт" not in _last(server, table.group_id).text  # the group has no game over
        assert "Законченных игр" in _last(server, table.group_id).text

        await table.play_to_the_end(probe=probe)
        _, moves = probe.table()
        result = await server.wait_for(
            lambda: next((m for m in table.group_messages() if "🏁" in m.text), None)
        )
        assert result.button("Повтор").url == "https://t.me/koloda_test_bot?start=p1"
        assert result.has_button("Ещё партию")

        # Boris follows the link: the replay in his DM, at the deal.
        await table.command(boris, "/start p1", chat_id=boris)
        replay = _last(server, boris)
        assert "🎬 Повтор, стол 1: Дурак · подкидной" in replay.text
        assert f"Раздача · ходов в игре: {moves}" in replay.text
        hands = replay.text.split("\nКарты на руках\n")[1].splitlines()  # every hand, face up
        assert [hand.split(": ")[0] for hand in hands] == ["Anna", "Boris"]
        assert all(len(hand.split(": ")[1].split()) == 6 for hand in hands)
        assert replay.button_texts == ["▶", "⏭"]
        first = await _step(table, boris, replay, "▶")
        assert f"Ход 1 из {moves}: " in first.text
        assert first.button_texts == ["⏮", "◀", "▶", "⏭"]
        second = await _step(table, boris, first, "▶")
        assert f"Ход 2 из {moves}: " in second.text
        last = await _step(table, boris, second, "⏭")
        assert f"Ход {moves} из {moves}: " in last.text
        assert "🤡 Дурак" in last.text or "Ничья" in last.text
        assert last.button_texts == ["⏮", "◀"]
        back = await _step(table, boris, last, "◀")
        assert f"Ход {moves - 1} из {moves}: " in back.text
        start = await _step(table, boris, back, "⏮")
        assert start.text == replay.text
        assert start.edit_count == 5  # one message, edited at every step
        assert _last(server, boris).message_id == replay.message_id

        # Forged steps: past the end, malformed, of a table never dealt.
        for forged in (
            cd.pack(cd.ReplayButton(1, moves + 1, boris)),  # past the end
            cd.pack(cd.ReplayButton(9, 0, boris)),  # no such table
            cd.pack(cd.ReplayButton(1, 3, boris)),  # a frame the message has no button for
            "p:1:1",
            "p:1:1:1:1",
            "p:-1:1:1",
        ):
            query = server.press(boris, boris, replay.message_id, forged, forged=True)
            answer = await server.answered(query)
            assert answer.get("show_alert"), forged
        assert _last(server, boris).text == replay.text

        # /replay in the group: one message, stepped by Anna who asked for it.
        await table.command(anna, "/replay")
        shared = _last(server, table.group_id)
        assert "🎬 Повтор, стол 1" in shared.text
        stepped = await _step(table, anna, shared, "⏭")
        assert f"Ход {moves} из {moves}: " in stepped.text
        # Boris pressing it is sent to a replay of his own, in his DM; the same
        # button with his own id forged in is refused.
        answer = await table.press(boris, stepped, stepped.callback_data("◀"))
        assert answer["url"] == "https://t.me/koloda_test_bot?start=p1"
        mine = cd.pack(cd.ReplayButton(1, 0, boris))
        query = server.press(boris, table.group_id, shared.message_id, mine, forged=True)
        assert (await server.answered(query)).get("show_alert")
        (unchanged,) = [m for m in table.group_messages() if m.message_id == shared.message_id]
        assert unchanged.text == stepped.text


async def test_a_link_to_a_move_opens_the_replay_at_that_move(
    server: FakeTelegram, db_path: Path
) -> None:
    """The analysis names a move ("Ход 44") by a link to the replay at it:
    its Start opens the replay there, stepped as any other; a move the game
    never had is a bad link."""
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna, boris = table.players
        await table.open_and_start("durak")
        await table.command(boris, "/start p1_3", chat_id=boris)
        assert "ещё идёт" in _last(server, boris).text  # no open cards before the end
        await table.play_to_the_end(probe=probe)
        _, moves = probe.table()

        await table.command(boris, "/start p1_5", chat_id=boris)
        replay = _last(server, boris)
        assert f"Ход 5 из {moves}: " in replay.text
        assert replay.button_texts == ["⏮", "◀", "▶", "⏭"]
        back = await _step(table, boris, replay, "◀")
        assert f"Ход 4 из {moves}: " in back.text

        await table.command(anna, f"/start p1_{moves}", chat_id=anna)
        assert f"Ход {moves} из {moves}: " in _last(server, anna).text
        for bad in (f"p1_{moves + 1}", "p1_", "p1_x", "p1_5_6"):
            await table.command(anna, f"/start {bad}", chat_id=anna)
            assert "ссылка" in _last(server, anna).text.lower(), bad


async def test_replay_opens_at_a_move_its_number_names(server: FakeTelegram, db_path: Path) -> None:
    """ "/replay 1 44" (the move an analysis names, to show the group) opened
    nothing but its usage: the table's replay opens at that move; a move the
    game never had is told how many it had."""
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna, boris = table.players
        await table.open_and_start("durak")
        await table.play_to_the_end(probe=probe)
        _, moves = probe.table()

        await table.command(anna, "/replay 1 5")
        shown = _last(server, table.group_id)
        assert f"Ход 5 из {moves}: " in shown.text
        stepped = await _step(table, anna, shown, "▶")
        assert f"Ход 6 из {moves}: " in stepped.text

        await table.command(boris, "/replay #1 0", chat_id=boris)
        assert f"Раздача · ходов в игре: {moves}" in _last(server, boris).text
        await table.command(boris, f"/replay 1 {moves + 1}", chat_id=boris)
        assert _last(server, boris).text == f"В игре за столом 1 ходов: {moves} — такого хода нет."
        for wrong in ("/replay 1 x", "/replay 1 2 3"):
            await table.command(boris, wrong, chat_id=boris)
            assert "/replay" in _last(server, boris).text
            assert "номер хода" in _last(server, boris).text
