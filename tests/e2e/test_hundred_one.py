"""101 played by buttons: a whole match, queen orders, round score sheets, and
the six's rule in a two-player game."""

from __future__ import annotations

import itertools
import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from playground.botapi import FakeTelegram
from tests.clock import FakeClock
from tests.e2e.harness import Probe, advance, bot_config, running_bot, seat_players, settle


def move_log(db_path: Path) -> list[tuple[int, str, list[dict[str, object]]]]:
    with closing(sqlite3.connect(db_path)) as conn:
        rows = conn.execute("SELECT seat, action, events FROM moves ORDER BY n").fetchall()
    return [(int(seat), str(action), json.loads(events)) for seat, action, events in rows]


@pytest.mark.slow
async def test_a_three_player_match_to_its_winner(server: FakeTelegram, db_path: Path) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris", "Vera"], app)
        await table.open_and_start("101")
        # Round one is played; then the next round is dealt with /startgame.
        while (await table.play_random_move()) is not None and table.group_move() is None:
            pass
        assert table.group_move() is not None
        sheet = next(m for m in table.group_messages() if "📋" in m.text)
        assert "Кон 1" in sheet.text
        await table.command(table.players[1], "/startgame")
        assert move_log(db_path)[-1][1] == "n"  # /startgame dealt round two
        assert any(table.hand(u) is not None for u in table.players)
        await table.play_to_the_end(max_moves=5000, probe=probe)

        assert probe.table()[0] == "finished"
        result = await server.wait_for(
            lambda: next((m for m in table.group_messages() if "Места —" in m.text), None)
        )
        assert "Победа:" in result.text
        # The table message itself says so too, above the result.
        (over,) = [line for line in result.text.splitlines() if line.startswith("🏁")]
        board = server.bot_message(
            table.group_id, probe.query("SELECT message_id FROM table_messages")[0][0]
        )
        assert over in board.text.splitlines()
        # The places are numbered and the order explained: the later out, the higher.
        assert "Места — по выбыванию" in result.text
        assert "1. " in result.text
        assert "вне игры после кона" in result.text
        actions = [a for _, a, _ in move_log(db_path)]
        assert any(a.startswith("o") for a in actions), "a queen ordered a suit"
        assert actions.count("n") >= 1
        sheets = [m for m in table.group_messages() if "📋" in m.text]
        assert len(sheets) >= actions.count("n")  # every round the next one followed
        scores = probe.scores()
        assert [s[3] for s in scores] == [1, 1, 1]
        assert sum(s[4] for s in scores) == 1  # one winner
        final = probe.public_view()
    # A player out of the match before its last round is told so in his hand,
    # which then stays as it is until the end tells him his place (two who go
    # out in the same last round have nothing to wait for).
    early = [seat for seat in final.eliminated if final.out[seat] < final.round]
    out = 0
    for user_id in table.players:
        texts = [
            str(c.params.get("text"))
            for c in server.calls
            if c.chat_id == user_id and c.method in ("sendMessage", "editMessageText")
        ]
        told = [i for i, text in enumerate(texts) if "Вы выбыли — ждите конца матча." in text]
        if told:
            out += 1
            assert len(texts) == told[0] + 2, texts[told[0] :]
            assert "Матч окончен" in texts[-1]
    assert out == len(early)


async def test_sheet_shows_the_matchs_rounds_and_totals(
    server: FakeTelegram, db_path: Path
) -> None:
    """/sheet in 101 asks the game's screens as in Joker: nothing before the
    first round is scored, then every round's points and the totals."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna = table.players[0]
        await table.open_and_start("101")
        await table.command(anna, "/sheet")
        last = server.last_bot_message(table.group_id)
        assert last is not None
        assert last.text == "Записи пока нет: первые очки ещё не записаны."
        while (await table.play_random_move()) is not None and table.group_move() is None:
            pass
        assert table.group_move() is not None
        await table.command(anna, "/sheet")
        last = server.last_bot_message(table.group_id)
        assert last is not None
        lines = last.text.splitlines()
        assert lines[0] == "📋 Запись очков · сыграно конов: 1"
        assert lines[2].startswith("Кон 1 · победа: ")
        assert "Anna " in lines[3]
        assert "Boris " in lines[3]
        assert " → " in lines[3]
        assert lines[5] == "Итого:"
        assert {line.split(" — ")[0] for line in lines[6:]} == {"• Anna", "• Boris"}


async def test_a_six_keeps_the_turn_in_a_two_player_game(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("101")
        sixes = 0
        for _ in range(600):
            if await table.play_random_move() is None:
                break
            log = move_log(db_path)
            sixes = sum(1 for _, a, _ in log[:-1] if a.startswith("p6"))
            if sixes >= 3:
                break
        log = move_log(db_path)
        checked = 0
        for (seat, action, events), (next_seat, next_action, _) in itertools.pairwise(log):
            ended = any(e["kind"] == "round_over" for e in events)
            if action.startswith("p6") and not ended and next_action != "n":
                assert next_seat == seat, f"after {action} seat {next_seat} moved, not {seat}"
                assert any(e["kind"] == "skip" for e in events)
                checked += 1
        assert checked >= 1


async def test_a_round_sheet_posted_late_shows_its_own_round(
    server: FakeTelegram, db_path: Path
) -> None:
    """A round's score sheet shows that round, however late it is posted: a
    bot stopped before it posted two rounds' sheets posts both when it starts
    again, each as it was, not the latest round's twice (the match played
    to 501, so that its second round is not its last, which has no sheet)."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("101", options={"Потолок:": "501"})
        for _ in range(2):
            if table.group_move() is not None:
                await table.command(table.players[0], "/startgame")  # the next round
            while (await table.play_random_move()) is not None and table.group_move() is None:
                pass
        sheets = [m.text for m in table.group_messages() if "📋" in m.text]
        assert len(sheets) == 2
        assert "Кон 1" in sheets[0]
        assert "Кон 2" in sheets[1]
    # As if the bot had been stopped after the second round, both sheets owed.
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("UPDATE table_messages SET announced = 0, announced_posts = 0")
    async with running_bot(bot_config(server, db_path)) as app:
        await settle(server, app)
        posted = [m.text for m in table.group_messages() if "📋" in m.text]
        assert posted == sheets * 2


async def test_a_rounds_sheet_reaches_the_group_before_the_next_round_on_the_table(
    server: FakeTelegram, db_path: Path
) -> None:
    """Within the group's budget (20 a minute: a running game's table edits
    one per 4 s) the table's edit waits its turn while the players play on
    in their DMs; when a round ends and the next is dealt at once, before
    that edit goes, the round's sheet is posted before the table shows the
    next round, in the edit's slot: no more of the budget spent."""
    config = bot_config(server, db_path, group_edits_per_minute=20)
    clock = FakeClock()
    server.stamp = clock.now
    async with running_bot(config, clock) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("101", options={"Потолок:": "501"})
        await advance(server, app, 60.0)  # the lobby's edits a minute behind
        # Round one played and round two dealt (from a DM) with the clock
        # standing still: the table's edit waits for its slot meanwhile.
        while not any(action == "n" for _, action, _ in move_log(db_path)):
            assert await table.play_random_move() is not None
        assert not any("📋" in m.text for m in table.group_messages())
        await advance(server, app, 60.0)
    calls = [
        c
        for c in server.calls
        if c.chat_id == table.group_id and c.method in ("sendMessage", "editMessageText")
    ]
    texts = [(c.method, str(c.params.get("text"))) for c in calls]
    sheet = next(i for i, (m, text) in enumerate(texts) if m == "sendMessage" and "📋" in text)
    assert "Кон 1" in texts[sheet][1]
    round_two = next(
        i for i, (m, text) in enumerate(texts) if m == "editMessageText" and "Кон 2 ·" in text
    )
    assert sheet < round_two
    # The edit that waited shows round two at once: the round's end, which
    # the sheet tells, costs no edit of its own.
    assert not any("Кон окончен" in text for _, text in texts[: round_two + 1])
