"""What players see: the languages people speak, choosers and refusals that
point the right way, DMs one can play from, and pings only when one must act
and is not looking already."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from delivery.hand_messages import LOOKING
from playground.botapi import FakeTelegram
from tests.e2e.harness import (
    GROUP_ID,
    Probe,
    Table,
    advance,
    bot_config,
    running_bot,
    seat_players,
)


async def test_each_person_is_answered_in_his_telegram_language(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        server.add_user(7, "Kate", language_code="en-GB")
        server.add_user(8, "Оксана", language_code="uk")
        server.add_user(9, "ნინო", language_code="ka")
        server.add_user(10, "Алеся", language_code="be")
        server.add_group(GROUP_ID, "Poker night", supergroup=True, creator=7)
        table = Table(server, GROUP_ID, [7, 8, 9, 10], app)
        await table.start_bots()
        assert "Hi!" in server.chat_messages(7)[-1].text
        assert "Привіт!" in server.chat_messages(8)[-1].text
        assert "გამარჯობა!" in server.chat_messages(9)[-1].text
        assert "Привет!" in server.chat_messages(10)[-1].text  # Belarusian reads Russian
        # A new group starts in the language of whoever spoke first there.
        await table.command(7, "/newgame durak")
        assert "Players (1/6)" in table.lobby().text
        # Words in a DM get a pointer to the commands, in the DM's language.
        await table.command(7, "hello there", chat_id=7)
        assert server.chat_messages(7)[-1].text == "I understand commands: /help."
        await table.command(8, "привіт", chat_id=8)
        assert server.chat_messages(8)[-1].text == "Я розумію команди: /help."
        await table.command(9, "გამარჯობა", chat_id=9)
        assert server.chat_messages(9)[-1].text == "ვიგებ ბრძანებებს: /help."


async def test_language_offers_buttons_and_only_admins_switch_a_group(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna, boris = table.players
        await table.start_bots()
        await table.command(anna, "/language")
        choice = server.last_bot_message(table.group_id)
        assert choice is not None
        assert choice.button_texts == ["Русский", "Українська", "English", "ქართული"]
        answer = await table.press_text(boris, choice, "English")
        assert answer["show_alert"]  # Boris is no admin
        answer = await table.press_text(anna, choice, "English")
        assert answer["text"] == "Language: English."
        assert server.bot_message(table.group_id, choice.message_id).text == "Language: English."
        await table.command(anna, "/newgame")
        assert "What shall we play? Anna chooses." in server.chat_messages(table.group_id)[-1].text


async def test_the_chooser_is_its_owners_and_a_new_one_closes_the_old(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna, boris = table.players
        await table.start_bots()
        await table.command(anna, "/newgame")
        first = server.chat_messages(table.group_id)[-1]
        answer = await table.press_text(boris, first, "Дурак")
        assert answer["show_alert"]
        assert "кто открыл этот выбор" in answer["text"]
        await table.command(boris, "/newgame")
        second = server.chat_messages(table.group_id)[-1]
        assert "Выбирает: Boris" in second.text
        closed = server.bot_message(table.group_id, first.message_id)
        assert closed.rows == []
        assert "закрыт" in closed.text
        await table.press_text(boris, second, "101")
        await table.press_text(
            boris, server.bot_message(table.group_id, second.message_id), "фараон"
        )
        assert Probe(db_path).table() == ("lobby", 0)
        # /newgame also takes the names people use.
        await table.command(
            anna,
            "/cancel",
        )
        await table.command(boris, "/cancel")
        await table.command(anna, "/newgame Дурак переводной")
        assert "переводной" in table.lobby().text


async def test_refusals_point_the_right_way(server: FakeTelegram, db_path: Path) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        server.add_user(999, "Mallory", started=True)
        await table.open_and_start("101")
        # A stranger following the table's "My cards" link.
        await table.command(999, "/start h1", chat_id=999)
        assert "не играете за этим столом" in server.chat_messages(999)[-1].text
        # Play the round out; the second "next round" press is told it began.
        # (About one random match in a thousand ends in its first round, with
        # no next round to offer: then a new match is played.)
        while table.group_move() is None:
            if await table.play_random_move() is None:
                assert any("🏁" in m.body for m in table.group_messages())
                await table.open_and_start("101")
        group = table.group_move()
        assert group is not None
        data = group.callback_data("Следующий кон")
        first = await table.press(table.players[0], group, data)
        assert not first.get("show_alert")
        # Boris's client still showed the button when he pressed it.
        query = server.press(table.players[1], group.chat_id, group.message_id, data, forged=True)
        second = await server.answered(query)
        assert second["show_alert"]
        assert "уже сделано" in second["text"]


async def count_pings(server: FakeTelegram, players: list[int]) -> Counter[int]:
    """New DM messages with sound (a notification), per player."""
    return Counter(
        int(call.chat_id)
        for call in server.calls_to("sendMessage")
        if call.chat_id is not None
        and int(call.chat_id) in players
        and str(call.params.get("disable_notification")).lower() != "true"
        and "reply_markup" in call.params
    )


@pytest.mark.slow
async def test_a_player_is_pinged_only_when_he_must_act(
    server: FakeTelegram, db_path: Path
) -> None:
    """A three-player game: a ping (a new hand message with sound) comes only
    when a player has to attack or defend (and, see below, is not looking),
    never for an optional throw-in, and each DM holds one live hand."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris", "Vera"], app)
        await table.open_and_start("durak")
        moves = await table.play_to_the_end()
        pings = await count_pings(server, table.players)
        decided = Counter(
            table.players[seat] for _, _, actor, seat in Probe(db_path).moves() if actor == "player"
        )
        assert sum(pings.values()) > 0
        for user in table.players:
            assert pings[user] <= decided[user] + 1
            live = [m for m in server.chat_messages(user) if not m.deleted and m.rows]
            assert len(live) <= 1  # one live hand, the others deleted
        print(f"pings per player in a {moves}-move game: {dict(pings)}")


async def test_a_player_looking_at_his_hand_gets_his_turn_in_place(
    server: FakeTelegram, db_path: Path
) -> None:
    """Quick play: each player's turn comes on the hand he has just pressed,
    edited silently (no new message, nothing deleted).  After a pause longer
    than LOOKING his turn comes as a new message that notifies, and the old
    one is deleted: one live hand per DM either way."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        pressed: set[int] = set()
        while pressed != set(table.players):  # each has pressed his hand once
            press = table.random_press(table.rng)
            assert press is not None
            pressed.add(press[0])
            await table.press(*press)

        quick = await count_pings(server, table.players)
        sends, deletes = len(server.calls_to("sendMessage")), len(server.calls_to("deleteMessage"))
        for _ in range(8):
            assert await table.play_random_move() is not None
        assert await count_pings(server, table.players) == quick
        assert len(server.calls_to("deleteMessage")) == deletes
        assert all(int(c.chat_id or 0) < 0 for c in server.calls_to("sendMessage")[sends:])

        # Random presses may be optional throw-ins or sub-menus for a while,
        # with the defender's hand acting all along: press on, slowly, until
        # the turn passes to a player who was not acting.
        for _ in range(40):
            await advance(server, app, LOOKING + 5)
            if await table.play_random_move() is None:
                break
            if (await count_pings(server, table.players)).total() > quick.total():
                break
        assert (await count_pings(server, table.players)).total() > quick.total()
        assert len(server.calls_to("deleteMessage")) > deletes
        for user in table.players:
            live = [m for m in server.chat_messages(user) if not m.deleted and m.rows]
            assert len(live) <= 1
