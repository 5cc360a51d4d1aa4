"""Computer levels through the real bot: no level button where every level
plays alike (Daytona), a person
racing hard computers to the result, and the bot answering a person while a
computer thinks in its worker process.

(Durak and 101 against three hard computers: ``test_seats``; Joker:
``test_joker``; hard is the level a new table starts with.)"""

from __future__ import annotations

import multiprocessing
import sqlite3
from contextlib import closing
from pathlib import Path

from playground.botapi import FakeTelegram
from tests.e2e.harness import MOVE_DATA, Probe, bot_config, running_bot, seat_players, settle
from tests.e2e.test_seats import add_computers

LEVEL = "Уровень 🤖"
COMPUTERS_PATIENCE = 90.0
"""Real seconds a chain of full-time computer moves may take between two turns."""


async def test_the_creator_picks_the_level_and_daytona_races_hard_computers(
    server: FakeTelegram, db_path: Path
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna"], app)
        await table.open("daytona", "sprint")
        await table.set_option("До очков", "10")  # a match of one race
        await add_computers(table, 1)  # one hard computer races it
        # Its one choice (a deuce's reading) is worked out exactly at every
        # level: the lobby says so, and offers no level to choose.
        assert "Уровень здесь не важен" in table.lobby().text
        assert LEVEL not in table.lobby().text
        creator = table.players[0]
        await table.press(creator, table.lobby(), table.lobby().callback_data("⚙️"))
        assert not any(b.startswith(LEVEL) for b in table.lobby().button_texts)
        assert probe.query("SELECT computer_level FROM tables") == [("hard",)]
        await table.press(creator, table.lobby(), table.lobby().callback_data("« Назад"))
        await table.press(creator, table.lobby(), table.lobby().callback_data("▶️"))
        await table.play_to_the_end(max_moves=3000, probe=probe)
        assert probe.table()[0] == "finished"
        with closing(sqlite3.connect(db_path)) as conn:
            actors = {a for (a,) in conn.execute("SELECT DISTINCT actor FROM moves")}
        assert actors == {"player", "computer"}


async def test_the_bot_answers_a_person_while_a_computer_thinks(
    server: FakeTelegram, db_path: Path
) -> None:
    """Computers think their full hard-level second here, with no pause: a
    person's press is answered while the table still waits for one."""
    probe = Probe(db_path)
    config = bot_config(server, db_path, computer_thinking_percent=100, computer_pause_ms=0)
    async with running_bot(config) as app:
        table = seat_players(server, ["Anna"], app)
        anna = table.players[0]
        await table.open("durak")
        await add_computers(table, 3)
        assert "🤖 Сильный: разыгрывает куда больше раскладов" in table.lobby().text
        await table.set_turn_time("без лимита")
        # Started, the computers may take many moves before Anna's first turn.
        lobby = table.lobby()
        await server.answered(
            server.press(anna, lobby.chat_id, lobby.message_id, lobby.callback_data("▶️"))
        )
        await settle(server, app, patience=COMPUTERS_PATIENCE)
        answered_while_thinking = 0
        for _ in range(200):
            hand = table.hand(anna)
            if hand is None:
                break  # the game is over
            data = table.rng.choice([d for d in hand.callback_datas if MOVE_DATA.match(d)])
            # Press and take the answer, without waiting for the computers.
            await server.answered(server.press(anna, hand.chat_id, hand.message_id, data))
            moves = probe.table()[1]
            if 0 not in probe.public_view().to_move:  # a computer thinks now
                # The same button again (a doubled press, from a client that still
                # shows it): refused at once.
                again = server.press(anna, hand.chat_id, hand.message_id, data, forged=True)
                assert (await server.answered(again)).get("text")
                answered_while_thinking += probe.table()[1] == moves
            # Three computers may take many moves before Anna's turn, each of
            # them up to the hard level's second (longer on a busy machine).
            await settle(server, app, patience=COMPUTERS_PATIENCE)
            if answered_while_thinking >= 3:
                break
        assert answered_while_thinking >= 3
        # They searched in the one process COMPUTER_WORKERS allows.
        assert len(multiprocessing.active_children()) == 1
