"""Nothing lost: a killed bot, a blocked player, a group upgraded to a
supergroup, and the group's message budget."""

from __future__ import annotations

import itertools
import signal
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Message

from playground.botapi import FakeTelegram, SentMessage
from tests.clock import FakeClock
from tests.e2e.harness import (
    MOVE_DATA,
    Probe,
    Table,
    advance,
    bot_config,
    running_bot,
    seat_players,
    settle,
    start_bot_process,
    stop_bot_process,
    wait_exit,
)


@pytest.mark.slow
async def test_a_killed_bot_resumes_the_game_from_the_database(
    server: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    probe = Probe(db_path)
    log = tmp_path / "bot.log"
    table = seat_players(server, ["Anna", "Boris", "Vera"])
    process = start_bot_process(server, db_path, tmp_path, log)
    try:
        await server.wait_for(lambda: server.active_polls, timeout=30)
        await table.open_and_start("durak")
        while probe.table()[1] < 10:  # sub-menu presses are not moves
            assert await table.play_random_move() is not None
        _, before = probe.table()

        process.send_signal(signal.SIGKILL)
        assert await wait_exit(process, 10) == -signal.SIGKILL
        assert probe.table() == ("playing", before)

        process = start_bot_process(server, db_path, tmp_path, log)
        await server.wait_for(lambda: server.active_polls, timeout=30)
        await settle(server, None)
        # Whoever was on move has working buttons again.
        assert any(table.hand(u) is not None for u in table.players)
        moves = await table.play_to_the_end(probe=probe)
        status, total = probe.table()
        assert status == "finished"
        assert total == before + moves
        await server.wait_for(lambda: any("🏁" in m.text for m in table.group_messages()))
    finally:
        await stop_bot_process(process)
    errors = log.read_text(encoding="utf-8")
    assert "Traceback" not in errors, errors


@pytest.mark.slow
async def test_a_player_who_blocks_the_bot_can_come_back(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        waiting = next(u for u in table.players if table.hand(u) is None)
        server.block(waiting)
        await settle(server, app)
        while await table.play_random_move() is not None:
            pass  # until the blocked player is the one to move
        notice = await server.wait_for(
            lambda: next((m for m in table.group_messages() if "не может писать" in m.text), None)
        )
        # His cards are in the group now, under "my cards" (his press brings them).
        assert notice.rows[0][0][1] == "c:1"
        assert Probe(db_path).table()[0] == "playing"

        server.unblock(waiting)
        await settle(server, app)
        assert table.hand(waiting) is not None
        await table.play_to_the_end()
        assert Probe(db_path).table()[0] == "finished"


@pytest.mark.slow
async def test_a_group_upgraded_to_a_supergroup_keeps_tables_and_scores(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app, group_id=-500, supergroup=False)
        await table.open_and_start("durak")
        await table.play_to_the_end()
        await table.command(table.players[0], "/newgame durak perevodnoy")

        server.migrate(-500, -1000500)
        await settle(server, app)
        table.group_id = -1000500
        await table.command(table.players[0], "/scores")
        board = server.last_bot_message(table.group_id)
        assert board is not None
        assert "Anna" in board.text
        assert "Boris" in board.text
        await table.command(table.players[1], "/join")
        await table.command(table.players[0], "/startgame")
        assert Probe(db_path).table(2)[0] == "playing"
        await table.play_to_the_end()
        assert Probe(db_path).table(2)[0] == "finished"
        assert {s[0] for s in Probe(db_path).scores()} == {-1000500}


async def test_the_group_never_gets_more_than_its_budget(
    server: FakeTelegram, db_path: Path
) -> None:
    """Twenty messages a minute and one a second at most, on the bot's own clock;
    table edits coalesce, so a whole game costs fewer group messages than moves."""
    per_minute = 20
    config = bot_config(server, db_path, group_edits_per_minute=per_minute)
    clock = FakeClock()
    server.stamp = clock.now
    async with running_bot(config, clock) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        moves = await table.play_to_the_end()
        await advance(server, app, 600)  # everything owed goes out in its turn
        assert any("🏁" in m.text for m in table.group_messages())
    sent = sorted(
        c.clock_at
        for c in server.calls
        if c.chat_id == table.group_id and c.method != "answerCallbackQuery"
    )
    assert moves > 20
    assert len(sent) < moves  # edits were coalesced, not one per move
    gaps = [b - a for a, b in itertools.pairwise(sent)]
    assert min(gaps) >= 1.0
    for i, start in enumerate(sent):
        assert sum(1 for t in sent[i:] if t < start + 60) <= per_minute


async def test_a_table_posted_anew_takes_a_slot_for_each_of_its_messages(
    server: FakeTelegram, db_path: Path
) -> None:
    """Posting the table anew (the game's picture after the lobby's text, or
    ``/table``) unpins the old message and points it below, then posts the new
    one, as a game chooser closes the one before it: each of these calls takes
    a slot of the group's budget, a second apart at least, not one slot for
    them all."""
    config = bot_config(server, db_path, group_edits_per_minute=20)
    clock = FakeClock()
    server.stamp = clock.now
    async with running_bot(config, clock) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.start_bots()
        for _ in range(2):
            await table.command(table.players[0], "/newgame")
        await table.open_and_start("daytona")
        await advance(server, app, 30)
        await table.command(table.players[0], "/table")
        await advance(server, app, 30)
    calls = [
        c for c in server.calls if c.chat_id == table.group_id and c.method != "answerCallbackQuery"
    ]
    moved = [c for c in calls if "ниже" in str(c.params.get("text") or c.params.get("caption"))]
    assert len(moved) == 2  # the lobby's text, then the game's picture
    assert len([c for c in calls if c.method == "sendPhoto"]) == 2
    assert any("закрыт" in str(c.params.get("text")) for c in calls)  # the first chooser
    gaps = [b - a for a, b in itertools.pairwise(sorted(c.clock_at for c in calls))]
    assert min(gaps) >= 1.0


async def test_a_group_where_the_bot_may_not_pin_is_not_asked_again_and_again(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)  # the bot is no admin there
        await table.open_and_start("durak")
        for _ in range(15):
            await table.play_random_move()
        pins = server.calls_to("pinChatMessage", table.group_id)
        assert len(pins) == 1
        assert not pins[0].ok
        await advance(server, app, 601)
        await table.play_random_move()
        assert len(server.calls_to("pinChatMessage", table.group_id)) == 2  # a while later


async def test_announcements_owed_at_a_stop_are_posted_after_the_restart(
    server: FakeTelegram, db_path: Path
) -> None:
    """The move log is the record of what the group must be told: a bot stopped
    before it posted a game's result posts it when it starts again, and one
    stopped after it, with the post recorded but not yet the move's end (a
    move may call for several posts), does not post it again."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        await table.play_to_the_end()
        await server.wait_for(lambda: any("🏁" in m.text for m in table.group_messages()))
    results = [m for m in table.group_messages() if "🏁" in m.text]
    assert len(results) == 1
    # As if the bot had been killed between the last move and its announcement.
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("UPDATE table_messages SET announced = 0")
    async with running_bot(bot_config(server, db_path)) as app:
        await settle(server, app)
        results = [m for m in table.group_messages() if "🏁" in m.text]
        assert len(results) == 2
        assert results[-1].has_button("Ещё партию")
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("UPDATE table_messages SET announced = announced - 1, announced_posts = 1")
    async with running_bot(bot_config(server, db_path)) as app:
        await settle(server, app)
        assert len([m for m in table.group_messages() if "🏁" in m.text]) == 2


async def _a_hand_and_its_copy(app: Any, table: Table) -> tuple[int, SentMessage, Message]:
    """A Durak game started, and the bot's copy of a player's hand, buttons
    included, that no record knows: what a kill between its send and its
    record leaves.  Returns the player, his hand and the copy."""
    await table.open_and_start("durak")
    user = next(u for u in table.players if table.hand(u) is not None)
    hand = table.hand(user)
    assert hand is not None
    buttons = [[InlineKeyboardButton(d, callback_data=d)] for d in hand.callback_datas]
    copy = await app.bot.send_message(user, hand.text, reply_markup=InlineKeyboardMarkup(buttons))
    return user, hand, copy


async def test_a_hand_left_behind_by_a_crash_goes_when_its_button_is_refused(
    server: FakeTelegram, db_path: Path
) -> None:
    """A kill between sending a hand and recording it (or between replacing a
    hand and deleting the old one) leaves a DM message with live buttons that
    no record knows.  Pressed once the table has moved on, it is refused and
    deleted; a refused press on a hand itself (a doubled press) deletes
    nothing, nor does data the message has no button with."""
    probe = Probe(db_path)

    def recorded_hands_are_live() -> None:
        for chat_id, message_id in probe.query("SELECT chat_id, message_id FROM hand_messages"):
            assert not server.bot_message(chat_id, message_id).deleted

    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        user, hand, copy = await _a_hand_and_its_copy(app, table)
        data = next(d for d in hand.callback_datas if MOVE_DATA.match(d))
        assert not (await table.press(user, hand, data)).get("show_alert")

        left = server.bot_message(user, copy.message_id)
        forged = server.press(user, user, left.message_id, "m:1:0:zz", forged=True)
        assert (await server.answered(forged)).get("show_alert")
        await settle(server, app)
        assert not server.bot_message(user, copy.message_id).deleted

        assert (await table.press(user, left, data)).get("show_alert")
        assert server.bot_message(user, copy.message_id).deleted
        recorded_hands_are_live()

        mover = next(u for u in table.players if table.hand(u) is not None)
        pressed = table.hand(mover)
        assert pressed is not None
        data = next(d for d in pressed.callback_datas if MOVE_DATA.match(d))
        presses = [server.press(mover, mover, pressed.message_id, data) for _ in range(2)]
        answers = [await server.answered(p) for p in presses]
        assert [bool(a.get("show_alert")) for a in answers] == [False, True]
        await settle(server, app)
        recorded_hands_are_live()
        assert not server.bot_message(mover, pressed.message_id).deleted


async def test_a_hand_replaced_just_before_a_stop_is_deleted_after_the_restart(
    server: FakeTelegram, db_path: Path
) -> None:
    """The message a new hand replaces is recorded, with the new hand, as owed
    deleting: a bot stopped before the delete makes it when it starts again."""
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        user, hand, old = await _a_hand_and_its_copy(app, table)
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute(
            "INSERT INTO retiring_messages (chat_id, message_id, table_id) VALUES (?, ?, 1)",
            (user, old.message_id),
        )
    async with running_bot(bot_config(server, db_path)) as app:
        table.application = app  # the players' presses wait for this bot, not the stopped one
        await settle(server, app)
        assert server.bot_message(user, old.message_id).deleted
        assert not server.bot_message(user, hand.message_id).deleted
        assert probe.query("SELECT * FROM retiring_messages") == []
        await table.play_to_the_end()
        # Every hand replaced by a newer message on the way was deleted.
        assert probe.query("SELECT * FROM retiring_messages") == []
        replaced = [m for u in table.players for m in server.chat_messages(u) if m.deleted]
        assert len(replaced) > 1
        for user_id in table.players:
            hands = [m for m in server.visible_messages(user_id) if m.text.startswith("Дурак ·")]
            assert len(hands) == 1
