"""Daytona through the real bot: three people race a match to its target on the
group's table message — a picture of the track edited in place — none of them
having opened the bot, with a pit stop on the way and races the draw limit
ends."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from playground.botapi import FakeTelegram
from tests.e2e.harness import Probe, bot_config, running_bot, seat_players


@pytest.mark.slow
async def test_three_people_race_a_match_on_the_table_message(
    server: FakeTelegram, db_path: Path
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open("daytona")  # the default: sprint, at most 120 draws a race
        vera = 300
        server.add_user(vera, "Vera")  # she never opens the bot
        for user_id in (table.players[1], vera):
            await table.press(user_id, table.lobby(), table.lobby().callback_data("🙋"))
        table.players.append(vera)
        await table.set_turn_time("без лимита")
        started = await table.press(
            table.players[0], table.lobby(), table.lobby().callback_data("▶️")
        )
        # Nobody has cards in a DM: the toast says where the moves are.
        assert started.get("text") == "Игра началась! Ходят прямо здесь, на сообщении стола."
        assert probe.table() == ("playing", 0)
        assert [s[0] for s in probe.query("SELECT user_id FROM seats")] == table.players
        assert server.chat_messages(vera) == []

        shown = table.group_move()
        assert shown is not None
        assert shown.kind == "photo"
        assert "Заезд 1 · цель: 30 очков" in shown.caption
        assert "⏱ Ход 1 из 40" in shown.caption  # 120 draws among three cars
        image = Image.open(io.BytesIO(shown.photo.data if shown.photo else b""))
        assert image.format == "PNG"
        (mover,) = probe.public_view()["to_move"]
        draw = shown.callback_data("🎴")
        other = table.players[(mover + 1) % 3]
        answer = await table.press(other, shown, draw)
        assert answer.get("text"), "a press out of turn gets a polite refusal"
        assert probe.table()[1] == 0

        moves = 0
        while (group := table.group_move()) is not None:
            # Whoever the table waits for presses one of its buttons (Draw, the
            # deuce's two readings, or "next race" for anybody).
            movers = probe.public_view()["to_move"]
            data = table.rng.choice([d for d in group.callback_datas if d.startswith("m:")])
            answer = await table.press(table.players[movers[0]], group, data)
            assert not answer.get("show_alert"), answer
            moves += 1
            assert moves < 6000, "the match did not end"

        status, logged = probe.table()
        assert status == "finished"
        assert logged == moves
        view = probe.public_view()
        assert max(view["scores"]) >= 30
        events = [e for (raw,) in probe.query("SELECT events FROM moves") for e in json.loads(raw)]
        kinds = {e["kind"] for e in events}
        assert {"pit", "wait", "forward", "back", "race", "points", "time_up"} <= kinds
        draws = sum(e["kind"] == "draw" for e in events)
        assert draws <= 120 * view["race"]
        result = await server.wait_for(
            lambda: next((m for m in table.group_messages() if "🏁 Гонки окончены" in m.body), None)
        )
        assert "Победитель" in result.body
        ((message_id,),) = probe.query("SELECT message_id FROM table_messages")
        (final,) = [m for m in table.group_messages() if m.message_id == message_id]
        assert final.kind == "photo"
        assert len(final.caption) <= 1024
        assert not any(d.startswith("m:") for d in final.callback_datas)
        # One picture of the track, edited in place after every turn (the
        # lobby's text message was replaced by it once, at the start).
        assert [m.message_id for m in table.group_messages() if m.kind == "photo"] == [message_id]
        assert len(final.photo_history) > 50
        assert server.chat_messages(vera) == []  # she raced without a DM
