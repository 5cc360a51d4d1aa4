"""Seats that act on their own, as users see it: turn timers and computer players."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from i18n import t
from playground.botapi import FakeTelegram, SentMessage
from tests.e2e.harness import (
    MOVE_DATA,
    Probe,
    Table,
    advance,
    bot_config,
    faces_in,
    running_bot,
    seat_players,
    start_bot_process,
    stop_bot_process,
    wait_exit,
)


async def test_the_timer_plays_out_a_player_who_never_presses_again(
    server: FakeTelegram, db_path: Path
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak", timer=True)
        anna, boris = table.players
        warned = False
        for _ in range(400):
            if probe.table()[0] != "playing":
                break
            hand = table.hand(anna)
            if hand is not None and any(d.startswith("m:") for d in hand.callback_datas):
                data = table.rng.choice([d for d in hand.callback_datas if d.startswith("m:")])
                answer = await table.press(anna, hand, data)
                assert not answer.get("show_alert"), answer
                continue
            await advance(server, app, 41)  # past Boris's warning
            warned = warned or any("⏳ Осталось" in m.text for m in server.chat_messages(boris))
            await advance(server, app, 20)  # past his deadline
        assert probe.table()[0] == "finished"
        assert warned
        shown = [str(c.params.get("text", "")) for c in server.calls_to("editMessageText")]
        assert any("⏰" in text for text in shown)  # the group saw that the timer moved
        assert any("💤" in text for text in shown)  # and that Boris was away
        result = next(m for m in table.group_messages() if "🏁" in m.text)
        assert "Дурак" in result.text or "ничья" in result.text  # a draw names nobody
        # His first timed-out turn marked him away (he had pressed nothing): his DM
        # said so and offered a way back.  (His hand is edited in place while he
        # is away: what it showed then.)
        shown_to_boris = [text for m in server.chat_messages(boris) for text in m.history]
        assert any("отсутствующий" in text for text in shown_to_boris)
        with closing(sqlite3.connect(db_path)) as conn:
            seat_of_boris = conn.execute(
                "SELECT seat FROM seats WHERE user_id = ?", (boris,)
            ).fetchone()[0]
            actors = {
                a
                for (a,) in conn.execute("SELECT actor FROM moves WHERE seat = ?", (seat_of_boris,))
            }
        assert actors <= {"timer", "computer"}
        assert "timer" in actors


COMPUTER_PAUSE = 1.5
"""The longest pause of a computer before its move (the default settings)."""


async def test_an_idle_players_seat_is_taken_over_within_one_turn(
    server: FakeTelegram, db_path: Path
) -> None:
    """101 with the default minute: Boris never presses.  His first turn is
    played out by the timer exactly one minute after it began (a draw and
    the play after it at the same moment, if he had to draw), which marks him
    away; from then on a computer plays each of his moves within its pause of
    at most 1.5 s, so the table waited on him one minute in all, and the
    group's table shows his seat with 💤 and never a countdown."""
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("101", timer=True)
        anna, boris = table.players
        ((boris_seat,),) = probe.query("SELECT seat FROM seats WHERE user_id = ?", (boris,))

        def absent() -> bool:
            ((flag,),) = probe.query("SELECT absent FROM seats WHERE user_id = ?", (boris,))
            return bool(flag)

        def boris_moves() -> list[tuple[int, float, str, int]]:
            return [m for m in probe.moves() if m[3] == boris_seat]

        first_due: float | None = None
        painted_before = 0
        for _ in range(400):
            if probe.table()[0] != "playing" or len(boris_moves()) >= 8:
                break
            if first_due is None:
                first_due = next((due for s, due in probe.deadlines() if s == boris_seat), None)
                if first_due is not None:
                    assert not boris_moves()
            if absent() and not painted_before:
                painted_before = len(group_texts(table))
            hand = table.hand(anna)
            if hand is not None and any(MOVE_DATA.match(d) for d in hand.callback_datas):
                data = table.rng.choice([d for d in hand.callback_datas if MOVE_DATA.match(d)])
                answer = await table.press(anna, hand, data)
                assert not answer.get("show_alert"), answer
                continue
            group = table.group_move()
            if group is not None:  # the next round
                await table.press(anna, group, group.callback_datas[0])
                continue
            await advance(server, app, 5)

        assert first_due is not None
        moves = probe.moves()
        timed = [m for m in moves if m[2] == "timer"]
        assert timed
        assert {m[3] for m in timed} == {boris_seat}
        assert {m[1] for m in timed} == {first_due}  # his whole first turn, at its deadline
        assert absent()
        later = [m for m in moves if m[3] == boris_seat and m[1] > first_due]
        assert later
        for n, at, actor, _ in later:
            assert actor == "computer"
            assert at - moves[n - 2][1] <= COMPUTER_PAUSE  # n counts from 1
        assert all(s != boris_seat for s, _ in probe.deadlines())

        waiting = [waiting_line(text) for text in group_texts(table)]
        assert any(line.startswith("⏳ Boris — ") for line in waiting[:painted_before])
        since = waiting[painted_before:]
        # The table's edits coalesce, so the group may never see a moment
        # when the computer had not moved for him yet; whenever it does, his
        # seat shows 💤 and no clock (tests/screens paints that line).
        assert all(line == "⏳ Boris 💤" for line in since if "Boris" in line), since


def waiting_line(text: str) -> str:
    """The line of a table message saying whose decision it waits for ("" if none)."""
    return next((line for line in text.splitlines() if line.startswith("⏳")), "")


def group_texts(table: Table) -> list[str]:
    """Every text the bot has sent or edited into the group, oldest first."""
    return [
        str(call.params.get("text", ""))
        for call in table.server.calls
        if call.chat_id == table.group_id and call.method in ("sendMessage", "editMessageText")
    ]


async def add_computers(table: Table, count: int) -> None:
    """The creator seats ``count`` computers from the lobby's settings (waiting
    for each change to show, as a bot in another process paints it later)."""
    creator = table.players[0]
    server = table.server

    async def tap(label: str, shown: Callable[[str], bool] = lambda _: True) -> None:
        def ready() -> SentMessage | None:
            lobby = table.lobby()
            has = any(label in b for b in lobby.button_texts) and shown(lobby.text)
            return lobby if has else None

        lobby = await server.wait_for(ready)
        await table.press(creator, lobby, lobby.callback_data(label))

    computers = table.lobby().text.count("🤖")
    await tap("⚙️")
    for added in range(count):
        before = computers + added
        await tap("+ компьютер", lambda text: text.count("🤖") == before)  # noqa: B023
    await tap("« Назад", lambda text: text.count("🤖") == computers + count)
    await server.wait_for(lambda: any("▶️" in b for b in table.lobby().button_texts))


async def test_one_person_and_three_computers_play_to_the_result(
    server: FakeTelegram, db_path: Path
) -> None:
    """Durak: the whole game is short.  (101's matches with computers are
    played through the bot by the secrecy tests, and with three computers
    by the services tier.)"""
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna"], app)
        await table.open("durak")
        await add_computers(table, 3)
        lobby = table.lobby().text
        assert lobby.count(". 🤖") == 3
        await table.set_turn_time("без лимита")
        await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))
        assert probe.table()[0] == "playing"
        await table.play_to_the_end(max_moves=3000, probe=probe)
        assert probe.table()[0] == "finished"
        result = await server.wait_for(
            lambda: next((m for m in table.group_messages() if "🏁" in m.text), None)
        )
        assert "🤖" in result.text
        # Computers never get a DM; the person got hers.
        dms = {c.chat_id for c in server.calls_to("sendMessage") if c.chat_id != table.group_id}
        assert dms == {table.players[0]}
        with closing(sqlite3.connect(db_path)) as conn:
            actors = {a for (a,) in conn.execute("SELECT DISTINCT actor FROM moves")}
        assert actors == {"player", "computer"}
        # The leaderboard ranks people in games among people only; /stats keeps this one.
        await table.command(table.players[0], "/scores")
        board = server.last_bot_message(table.group_id)
        assert board is not None
        assert "ещё никто" in board.text
        await table.command(table.players[0], "/stats")
        stats = server.last_bot_message(table.group_id)
        assert stats is not None
        assert "с компьютерами: игр 1" in stats.body


@pytest.mark.slow
async def test_a_deadline_pending_at_a_kill_fires_once_after_the_restart(
    server: FakeTelegram, db_path: Path, tmp_path: Path
) -> None:
    """A real bot process on real time, killed while a 30-second turn runs and
    down for a while: after the restart the turn still gets its 30 seconds of
    the bot's time, and then the timer moves once."""
    probe = Probe(db_path)
    log = tmp_path / "bot.log"
    table = seat_players(server, ["Anna", "Boris"])
    process = start_bot_process(server, db_path, tmp_path, log)
    try:
        await server.wait_for(lambda: server.active_polls, timeout=30)
        await table.open("durak")
        await table.press(table.players[1], table.lobby(), table.lobby().callback_data("🙋"))
        await table.set_turn_time("30 с")
        await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))
        ((seat, due),) = await server.wait_for(probe.deadlines, timeout=10)
        await asyncio.sleep(2)  # a couple of heartbeats
        process.send_signal(signal.SIGKILL)
        assert await wait_exit(process, 10) == -signal.SIGKILL
        alive = probe.alive_at()
        assert alive is not None
        assert time.time() - alive < 2  # the heartbeat knew it was up until the kill

        await asyncio.sleep(5)  # down
        restarted = time.time()
        process = start_bot_process(server, db_path, tmp_path, log)
        ((_, later),) = await server.wait_for(
            lambda: [d for d in probe.deadlines() if d[1] != due], timeout=30
        )
        # The time it was down, from its last heartbeat to its start, is given back.
        assert restarted - alive <= later - due <= time.time() - alive
        ((n, at, actor, mover),) = await server.wait_for(probe.moves, timeout=60, interval=0.05)
        assert (n, actor, mover) == (1, "timer", seat)
        assert later - 0.05 <= at <= later + 1.5
        await asyncio.sleep(2)
        assert len(probe.moves()) == 1  # once
    finally:
        await stop_bot_process(process)
    errors = log.read_text(encoding="utf-8")
    assert "Traceback" not in errors, errors


@pytest.mark.parametrize("absence", ["играет 🤖", "выбывает"])
async def test_leave_in_a_running_game_makes_the_player_away_at_once(
    server: FakeTelegram, db_path: Path, absence: str
) -> None:
    """«/leave» mid-game was refused («Игра уже идёт — встать нельзя»): a
    player who had to go could only walk away, and the table waited for him
    two turns' time. It now does at once what those timeouts would: he is
    away, a computer plays his seat (he comes back with any press of his) or
    he leaves the game, as the table chose, and the group is told which."""
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("101", timer=True, options={"Отсутствующий": absence})
        anna, boris = table.players
        ((boris_seat,),) = probe.query("SELECT seat FROM seats WHERE user_id = ?", (boris,))
        await table.command(boris, "/leave")
        reply = server.last_bot_message(table.group_id)
        assert reply is not None
        if absence == "выбывает":
            # Anna alone is left: his leaving ended the game.
            assert reply.text == t("ru", "table.left.over", name="Boris")
            assert probe.table()[0] == "finished"
            return
        assert reply.text == t("ru", "table.left.computer", name="Boris")
        ((flag,),) = probe.query("SELECT absent FROM seats WHERE user_id = ?", (boris,))
        assert flag
        assert all(seat != boris_seat for seat, _ in probe.deadlines())
        for _ in range(60):
            if len([m for m in probe.moves() if m[3] == boris_seat]) >= 2:
                break
            hand = table.hand(anna)
            if hand is not None and any(MOVE_DATA.match(d) for d in hand.callback_datas):
                data = table.rng.choice([d for d in hand.callback_datas if MOVE_DATA.match(d)])
                await table.press(anna, hand, data)
            else:
                await advance(server, app, 2)
        his = [m for m in probe.moves() if m[3] == boris_seat]
        assert len(his) >= 2
        assert {actor for _, _, actor, _ in his} == {"computer"}


async def test_a_second_leave_is_refused_not_announced_again(
    server: FakeTelegram, db_path: Path
) -> None:
    """Boris's second «/leave» told the group again «💤 Boris уходит из-за
    стола…» (in a game absentees leave, «🚪 Boris выходит из игры.» again):
    he is told he has left already, and the group hears it once."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris", "Vera"], app)
        await table.open_and_start("101", timer=True)
        boris = table.players[1]
        await table.command(boris, "/leave")
        await table.command(boris, "/leave")
        texts = [m.text for m in table.group_messages()]
        assert texts.count(t("ru", "table.left.computer", name="Boris")) == 1
        assert texts[-1] == t("ru", "error.left_already")


async def test_a_press_of_a_player_the_table_removed_does_not_say_he_is_back(
    server: FakeTelegram, db_path: Path
) -> None:
    """Where absentees leave the game, Boris left by «/leave»; his press of a
    card of his old hand must not answer «Вы снова в игре»: he is out of it."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris", "Vera"], app)
        await table.open_and_start("101", timer=True, options={"Отсутствующий": "выбывает"})
        boris = table.players[1]
        (old,) = [m for m in server.bot_messages(boris) if "101 · «Friends»" in m.text]
        card = sorted(faces_in(old.text))[0]
        await table.command(boris, "/leave")
        # The card's button as it was when his turn was on (it may not be now).
        data = f"m:1:0:p{card}"
        query = server.press(boris, old.chat_id, old.message_id, data, forged=True)
        answer = await server.answered(query)
        assert answer.get("text") != t("ru", "hand.back_in_game")


async def test_leave_after_a_kick_is_refused(server: FakeTelegram, db_path: Path) -> None:
    """Boris, removed by /kick, sent «/leave»: the group was told «💤 Boris
    уходит из-за стола: дальше за это место играет 🤖…» of a seat no longer
    in the game. He is told he has left already."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris", "Vera"], app)
        await table.open_and_start("101", timer=True)
        await table.command(table.players[0], "/kick Boris")
        await table.command(table.players[1], "/leave")
        texts = [m.text for m in table.group_messages()]
        assert t("ru", "table.left.computer", name="Boris") not in texts
        assert texts[-1] == t("ru", "error.left_already")


async def test_a_leave_that_ends_the_game_says_so(server: FakeTelegram, db_path: Path) -> None:
    """Team durak where absentees leave: Boris's «/leave» lost the game for
    his team at once; the group read the result, and after it «🚪 Boris
    выходит из игры.», as if he had left a game already over.  The answer
    says that his leaving ended it."""
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris", "Vera", "Gleb"], app)
        await table.open("durak", "teams")
        await table.set_options({"Отсутствующий": "выбывает"})
        for user_id in table.players[1:]:
            await table.press(user_id, table.lobby(), table.lobby().callback_data("🙋"))
        await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))
        await table.command(table.players[1], "/leave")
        assert probe.table()[0] == "finished"
        texts = [m.text for m in table.group_messages()]
        assert texts[-1] == t("ru", "table.left.over", name="Boris")
        assert t("ru", "table.left.remove", name="Boris") not in texts
