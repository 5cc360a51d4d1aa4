"""Joker through the real bot: one person and three computers to the final
sheet and the leaderboard; four people through a pulka that ends in a
premium, with the sheet as a photo and ``/sheet``."""

from __future__ import annotations

import io
import json
import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from PIL import Image

from games.joker import Joker
from games.joker.views import Phase
from players import JokerHeuristic
from playground.botapi import FakeTelegram, SentMessage
from tests.e2e.harness import Probe, Table, bot_config, running_bot, seat_players, settle
from tests.e2e.test_seats import add_computers

PREMIUM_SEED = 1
"""A game of nines whose first pulka ends in a premium for seat 2 when every
seat plays as the computer does (found by playing it out offline)."""


def photos(table: Table) -> list[SentMessage]:
    return [m for m in table.group_messages() if m.kind == "photo"]


def decoded(message: SentMessage) -> Image.Image:
    assert message.photo is not None
    image = Image.open(io.BytesIO(message.photo.data))
    image.load()
    return image


@pytest.mark.slow
async def test_one_person_and_three_computers_play_a_whole_game_to_the_sheet(
    server: FakeTelegram, db_path: Path
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna"], app)
        await table.open("joker")
        await add_computers(table, 3)
        await table.set_turn_time("без лимита")
        await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))
        assert probe.table()[0] == "playing"
        await table.play_to_the_end(max_moves=4000, probe=probe)
        assert probe.table()[0] == "finished"
        view = state(db_path).public_view()
        assert len(view.sheet) == 24
        # A sheet after each of the first three pulkas, and the final one with the result.
        sheets = photos(table)
        assert len(sheets) == 4
        result = sheets[-1]
        assert "🏁" in result.caption
        assert len(result.caption) <= 1024
        for total in view.totals:
            shown = str(total) if total >= 0 else f"−{-total}"
            assert shown in result.caption
        image = decoded(result)
        assert image.width >= 400
        assert image.height >= 600
        # Each deal's line on the table message while the next is played (no
        # group message per deal: nothing but the result notifies the group).
        shown = "\n".join(text for m in table.group_messages() for text in m.history)
        assert sum(f"Сдача {deal} (" in shown for deal in range(1, 24)) >= 20
        notifying = [m for m in table.group_messages() if not m.disable_notification]
        assert notifying[-1].message_id == result.message_id
        with closing(sqlite3.connect(db_path)) as conn:
            actors = {a for (a,) in conn.execute("SELECT DISTINCT actor FROM moves")}
        assert actors == {"player", "computer"}
        await table.command(table.players[0], "/stats")
        stats = server.last_bot_message(table.group_id)
        assert stats is not None
        assert "Джокер" in stats.body
        assert "с компьютерами: игр 1" in stats.body


def state(db_path: Path) -> Joker:
    with closing(sqlite3.connect(db_path)) as conn:
        (raw,) = conn.execute("SELECT state FROM tables WHERE id = 1").fetchone()
    return Joker.load(json.loads(raw))


async def press_action(table: Table, user_id: int, code: str) -> None:
    """Press the buttons that make the move ``code``: a joker's through its menus."""
    path: list[str] = []
    if code.startswith(("l", "f", "v")):
        joker = code[1:3]
        path.append(f"j{joker}")
        if code.startswith("l"):
            path.append(f"j{joker}{code[3]}")
    for focus in path:
        message = table.hand(user_id)
        assert message is not None
        data = next(
            d for d in message.callback_datas if d.startswith("u:") and d.endswith(":" + focus)
        )
        await table.press(user_id, message, data)
    message = table.hand(user_id)
    assert message is not None
    data = next(d for d in message.callback_datas if d.startswith("m:") and d.endswith(":" + code))
    answer = await table.press(user_id, message, data)
    assert not answer.get("show_alert"), answer


async def test_four_people_play_a_pulka_that_ends_in_a_premium(
    server: FakeTelegram, db_path: Path
) -> None:
    heuristic = JokerHeuristic()
    async with running_bot(bot_config(server, db_path), seeds=lambda: PREMIUM_SEED) as app:
        table = seat_players(server, ["Anna", "Boris", "Vera", "Gleb"], app)
        await table.open("joker")
        for user_id in table.players[1:]:
            await table.press(user_id, table.lobby(), table.lobby().callback_data("🙋"))
        creator = table.players[0]
        await table.press(creator, table.lobby(), table.lobby().callback_data("⚙️"))
        await table.press(creator, table.lobby(), table.lobby().callback_data("Сдачи"))
        assert table.lobby().has_button("Сдачи: только девятки")
        await table.press(creator, table.lobby(), table.lobby().callback_data("« Назад"))
        await table.set_turn_time("без лимита")
        await table.press(creator, table.lobby(), table.lobby().callback_data("▶️"))
        moves = 0
        while True:
            game = state(db_path)
            if game.public_view().pulkas:
                break
            (seat,) = game.to_move()
            rng = random.Random(f"{PREMIUM_SEED}:{moves}:{seat}")
            action = heuristic.choose(game.rules, game.view(seat), game.legal_actions(seat), rng)
            await press_action(table, table.players[seat], action.encode())
            moves += 1
        assert moves == 168  # four deals of nine cards
        record = state(db_path).public_view().pulkas[0]
        assert record.premium == {2}
        assert record.bonus[2] > 0
        (sheet,) = photos(table)
        assert "Сдача 4 " in sheet.caption
        assert "премия: Vera +" in sheet.caption
        assert "списано" in sheet.caption
        image = decoded(sheet)
        assert (image.width, image.height) == (sheet.width, sheet.height)
        # The table goes on to the next pulka, and /sheet shows the sheet so far.
        assert state(db_path).public_view().phase is Phase.DEAL
        await table.command(table.players[1], "/sheet")
        again = photos(table)
        assert len(again) == 2
        assert "Пулька 1" in again[-1].caption
        # Where pictures are turned off, the sheet comes as its text; only admins turn them.
        await table.command(table.players[1], "/pictures off")
        refused = server.last_bot_message(table.group_id)
        assert refused is not None
        assert "админ" in refused.text.lower()
        await table.command(creator, "/pictures off")
        await table.command(creator, "/sheet")
        text_sheet = server.last_bot_message(table.group_id)
        assert text_sheet is not None
        assert text_sheet.kind == "text"
        assert "📋" in text_sheet.text
        assert "Итого" in text_sheet.text
        assert len(photos(table)) == 2
        # Everybody's DM shows the deal's result.
        for user_id in table.players:
            assert any("Сдача 4" in m.text for m in server.chat_messages(user_id))


async def test_a_jokers_menu_open_at_a_restart_stays_open(
    server: FakeTelegram, db_path: Path
) -> None:
    """A player who opened the joker's menu (how to play it) and then saw the
    bot restart finds the menu as he left it, and plays from it; only a move
    of the table closes it."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris", "Vera", "Gleb"], app)
        await table.open_and_start("joker")
        for _ in range(2000):
            opened = [
                (u, h)
                for u in table.players
                if (h := table.hand(u)) is not None
                if any(d.startswith("u:") for d in h.callback_datas)
            ]
            if opened:
                break
            assert await table.play_random_move() is not None
        else:
            pytest.fail("no joker to play in 2000 moves")
        user, hand = opened[0]
        await table.press(user, hand, next(d for d in hand.callback_datas if d.startswith("u:")))
        menu = table.hand(user)
        assert menu is not None
        assert "« Назад" in menu.button_texts
    calls = len(server.calls)
    async with running_bot(bot_config(server, db_path)) as app:
        table.application = app
        await settle(server, app)
        assert [c for c in server.calls[calls:] if c.chat_id == user] == []
        shown = table.hand(user)
        assert shown is not None
        assert shown.button_texts == menu.button_texts
        # Its first button: a way to play the joker, or (leading it) the
        # next menu, its suits.
        assert not (await table.press(user, shown, shown.callback_datas[0])).get("show_alert")
        assert server.bot_message(user, shown.message_id).button_texts != menu.button_texts
