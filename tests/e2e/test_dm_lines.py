"""The real bot's DMs read to their reader: a Durak bout played by buttons as
the attacker and the defender see it, and 101's next round started from a
player's DM, after which nobody is offered it again."""

from __future__ import annotations

from pathlib import Path

from playground.botapi import FakeTelegram, SentMessage
from tests.e2e.harness import (
    MOVE_DATA,
    Table,
    bot_config,
    running_bot,
    seat_players,
)


def live_dm(server: FakeTelegram, user: int) -> str:
    """The text of the user's latest DM message."""
    return [m for m in server.chat_messages(user) if not m.deleted][-1].text


def attacker_of(table: Table) -> tuple[int, SentMessage]:
    """The one player with buttons at the start of a bout, and his hand."""
    acting = [(u, m) for u in table.players if (m := table.hand(u)) is not None]
    assert len(acting) == 1
    return acting[0]


async def test_a_durak_bout_as_the_attacker_and_the_defender_read_it(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        names = dict(zip(table.players, ["Anna", "Boris"], strict=True))
        attacker, hand = attacker_of(table)
        defender = next(u for u in table.players if u != attacker)
        lead = next(d for d in hand.callback_datas if MOVE_DATA.match(d) and ":a" in d)
        await table.press(attacker, hand, lead)

        defending = live_dm(server, defender)
        assert f"{names[attacker]} ходит на вас: " in defending
        assert "Отбивайтесь!" in defending or "— берите." in defending
        assert f"{names[attacker]} ходит: " not in defending
        assert names[defender] not in defending  # nobody is named to himself
        assert "Вы ходите: " in live_dm(server, attacker)
        assert names[attacker] not in live_dm(server, attacker)

        take = table.hand(defender)
        assert take is not None
        await table.press_text(defender, take, "🫳 Беру")
        taking = live_dm(server, defender)
        thrower = table.hand(attacker)
        if thrower is not None and "Забирай" in " ".join(thrower.button_texts):
            # the attacker may still throw in: each reads his own part
            assert "Вы берёте — вам могут подкинуть." in taking
            assert "можно подкинуть" not in taking
            assert f"{names[defender]} берёт — можно подкинуть." in thrower.text
            await table.press_text(attacker, thrower, "✋ Забирай")
            taking = live_dm(server, defender)
        # the bout is over: the taker reads what he picked up
        assert "Вы забираете " in taking
        assert f"{names[defender]} забирает" not in taking


async def test_101s_next_round_is_started_from_a_players_dm(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("101")
        while table.group_move() is None:
            assert await table.play_random_move() is not None
        boris = table.players[1]
        hands = {u: table.hand(u) for u in table.players}
        for user, hand in hands.items():
            assert hand is not None
            assert hand.button_texts == ["▶️ Следующий кон"]
            text = live_dm(server, user)
            assert "🏆 Кон ваш!" in text or "Кон окончен, победа: " in text
        boris_hand = hands[boris]
        assert boris_hand is not None
        assert boris_hand.callback_datas[0].endswith(":n")  # the move's own code

        await table.press_text(boris, boris_hand, "▶️ Следующий кон")
        assert table.group_move() is None  # the round was dealt from the DM
        assert any(table.hand(u) is not None for u in table.players)
        for user in table.players:  # nobody is offered it again
            hand = table.hand(user)
            assert hand is None or "▶️ Следующий кон" not in hand.button_texts
        (leader,) = [u for u in table.players if table.hand(u) is not None]
        assert "Кон 2, начинаете вы" in live_dm(server, leader)
