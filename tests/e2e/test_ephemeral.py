"""Playing without leaving the group: each player's hand is an ephemeral
message in the group that he alone sees, for people who never opened the bot,
with the bot an administrator of the group (it brings a player his hand when
his turn comes) or not (the player's press of "🂠 My cards" brings it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from telegram.error import BadRequest

from playground.botapi import ApiCall, FakeTelegram, SentMessage
from tests.e2e.harness import (
    GROUP_ID,
    MOVE_DATA,
    GroupTable,
    Probe,
    advance,
    bot_config,
    quick_options,
    running_bot,
    seat_group_players,
    settle,
)
from tests.e2e.test_seats import add_computers


@pytest.mark.parametrize(
    ("admin", "told"),
    [(False, True), (True, True), (True, False)],
    ids=["member", "admin", "admin never told"],
)
async def test_ephemeral_durak_played_wholly_in_the_group(
    server: FakeTelegram, db_path: Path, admin: bool, told: bool
) -> None:
    """Never told (made an administrator before the bot kept it, or the update
    lost), the bot asks Telegram once, at the first hand it would bring."""
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_group_players(server, ["Anna", "Boris"], app, admin=admin, told=told)
        await settle(server, app)
        await table.open_and_start("durak")
        calls = server.calls_to("getChatMember", GROUP_ID)
        asked = [c for c in calls if str(c.params.get("user_id")) == str(server.bot.id)]
        assert len(asked) == (0 if admin and told else 1)  # no update said, either way
        assert "Boris" in table.table_message().text  # seated without opening the bot
        if not admin:
            assert all(table.seen(u) == [] for u in table.players)  # none sent unasked
            for user_id in table.players:
                await table.my_cards(user_id)
        assert all(len(table.seen(u)) == 1 for u in table.players)
        await table.play_to_the_end(probe=probe)
        assert probe.table()[0] == "finished"
        assert table.dms() == []  # nothing ever went to a private chat
        # The hands' buttons said what they do: take red, pass / done green, and
        # the cards that could not be played shown disabled (never pressed).
        keyboards = [
            json.dumps(call.params.get("reply_markup"), separators=(",", ":"), ensure_ascii=False)
            for method in ("sendMessage", "editEphemeralMessageText")
            for call in server.calls_to(method, GROUP_ID)
            if "ephemeral_message_parameters" in call.params or method != "sendMessage"
        ]
        assert any('"style":"danger"' in k for k in keyboards)
        assert any('"style":"success"' in k for k in keyboards)
        assert any('"disabled":{}' in k for k in keyboards)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "computers", "admin"),
    [
        # A bot that is no administrator: test_secrecy plays 101 and Joker so,
        # every move watched (and Durak: test_ephemeral_durak_played_wholly_in_the_group).
        ("101", 0, True),
        ("joker", 2, True),
        # Played on the table message: no hands, so the bot's rights change nothing.
        ("daytona", 0, False),
    ],
)
async def test_ephemeral_whole_game_of_each_kind_in_the_group(
    server: FakeTelegram, db_path: Path, admin: bool, game: str, computers: int
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_group_players(server, ["Anna", "Boris"], app, admin=admin)
        await settle(server, app)
        await table.open(game)
        await table.set_options(quick_options(game))
        await table.press(table.players[1], table.lobby(), table.lobby().callback_data("🙋"))
        if computers:
            await add_computers(table, computers)
        await table.set_turn_time("без лимита")
        await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))
        assert probe.table()[0] == "playing"
        if game != "daytona" and not admin:  # Daytona is played on the table message
            for user_id in table.players:
                await table.my_cards(user_id)
        await table.play_to_the_end(max_moves=4000, probe=probe)
        assert probe.table()[0] == "finished"
        assert table.dms() == []


def _attacker_first(table: GroupTable, probe: Probe) -> tuple[int, int]:
    """The two players, the one who moves first (the attacker) first."""
    game = probe.game()
    assert game is not None
    seats = dict(probe.query("SELECT seat, user_id FROM seats"))
    first = seats[next(iter(game.waits()))]
    return first, next(u for u in table.players if u != first)


def ephemeral_sends(server: FakeTelegram, receiver: int) -> list[ApiCall]:
    """The bot's sends of an ephemeral message to ``receiver``."""
    return [
        call
        for call in server.calls_to("sendMessage")
        if (parameters := call.params.get("ephemeral_message_parameters")) is not None
        and json.loads(parameters)["receiver_user_id"] == receiver
    ]


async def test_ephemeral_hands_keep_the_15_second_rule(server: FakeTelegram, db_path: Path) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_group_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        anna, boris = _attacker_first(table, Probe(db_path))
        await table.my_cards(anna)
        query = server.calls_to("answerCallbackQuery")[-1].params["callback_query_id"]

        # The stand-in keeps Telegram's rule: a bot that is no administrator
        # sends one only in answer to the receiver's own press, 15 s at most.
        def send(receiver: int, answering: str | None) -> Any:
            parameters: dict[str, Any] = {"receiver_user_id": receiver}
            if answering is not None:
                parameters["callback_query_id"] = answering
            return app.bot.do_api_request(
                "sendmessage",
                api_kwargs={
                    "chat_id": GROUP_ID,
                    "text": "x",
                    "ephemeral_message_parameters": json.dumps(parameters),
                },
            )

        with pytest.raises(BadRequest, match=r"(?i)not enough rights"):
            await send(boris, None)
        with pytest.raises(BadRequest, match=r"(?i)query is too old"):
            await send(boris, query)  # Anna's press answers nobody but her
        server.age_presses(16)
        with pytest.raises(BadRequest, match=r"(?i)query is too old"):
            await send(anna, query)

        # Anna attacks: Boris must answer, but nothing is sent to him unasked;
        # the table message says whose move it is, and his press brings his hand.
        tried = len(ephemeral_sends(server, boris))  # the two refused above
        hand = table.hand(anna)
        assert hand is not None
        await table.press(anna, hand, next(d for d in hand.callback_datas if d.startswith("m:")))
        assert table.seen(boris) == []
        assert len(ephemeral_sends(server, boris)) == tried
        await table.my_cards(boris)
        defence = table.hand(boris)
        assert defence is not None

        await table.press(boris, defence, next(d for d in defence.callback_datas if "m:" in d))
        seat = dict(Probe(db_path).query("SELECT user_id, seat FROM seats"))[boris]
        assert Probe(db_path).moves()[-1][3] == seat  # his move, made in the group


async def test_a_lost_ephemeral_hand_comes_back_with_my_cards(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_group_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak")
        anna, boris = _attacker_first(table, Probe(db_path))
        server.offline.add(boris)  # he is offline: what is sent to him is lost
        for user_id in table.players:
            await table.my_cards(user_id)
        assert table.seen(boris) == []
        server.offline.discard(boris)  # back, a while later
        server.age_presses(16)
        await advance(server, app, 13)
        hand = table.hand(anna)
        assert hand is not None
        await table.press(anna, hand, next(d for d in hand.callback_datas if d.startswith("m:")))
        # His turn now: his lost hand cannot be edited, and the bot, no
        # administrator, may not send him a new one unasked.
        assert table.seen(boris) == []
        await table.my_cards(boris)  # his own press brings a new one
        hand = table.hand(boris)
        assert hand is not None
        assert "Ваши карты" in hand.text or "Вы" in hand.text
        await table.play_to_the_end()
        assert Probe(db_path).table()[0] == "finished"


async def test_ephemeral_and_dm_hands_at_one_mixed_table(
    server: FakeTelegram, db_path: Path
) -> None:
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_group_players(server, ["Anna", "Boris", "Vera"], app)
        anna, boris, vera = table.players
        server.start_bot(anna)  # Anna plays from her DM; Boris and Vera never open the bot
        await settle(server, app)
        await table.open_and_start("durak")
        for user_id in (boris, vera):
            await table.my_cards(user_id)
        assert [m for m in server.chat_messages(anna) if m.has_button("🂠")] == []
        dm_hand = _dm_hand(server, anna)
        assert dm_hand is not None
        assert table.seen(anna) == []
        assert server.chat_messages(boris) == []
        assert server.chat_messages(vera) == []
        assert table.seen(boris)
        assert table.seen(vera)

        # Anna moves her hand into the group too, then back to her DM.
        await table.my_cards(anna)
        assert len(table.seen(anna)) == 1
        assert _dm_hand(server, anna) is None  # one hand at a time: the DM's went
        here = table.seen(anna)[0]
        await table.press(anna, here, here.callback_data("✉️"))
        assert table.seen(anna) == []
        assert _dm_hand(server, anna) is not None

        moves = 0
        while await _play_mixed(table) is not None:
            moves += 1
            assert moves < 2000
        assert Probe(db_path).table()[0] == "finished"


def _dm_hand(server: FakeTelegram, user_id: int) -> SentMessage | None:
    """The user's hand in his DM (the latest message there that shows one)."""
    return next(
        (
            m
            for m in reversed(server.chat_messages(user_id))
            if not m.deleted and "Козырь" in m.text
        ),
        None,
    )


async def _play_mixed(table: GroupTable) -> str | None:
    """One random legal press from a hand, wherever it is."""
    options = []
    for user_id in table.players:
        hand = table.hand(user_id) or _dm_hand(table.server, user_id)
        if hand is not None:
            moves = [d for d in hand.callback_datas if MOVE_DATA.match(d)]
            if moves:
                options.append((user_id, hand, moves))
    if not options:
        return None
    user_id, hand, moves = table.rng.choice(options)
    data = table.rng.choice(moves)
    answer = await table.press(user_id, hand, data)
    assert not answer.get("show_alert"), answer
    return data


async def test_ephemeral_hands_keep_timers_absence_and_computers(
    server: FakeTelegram, db_path: Path
) -> None:
    """In the group, Boris never presses anything: he is warned by a silent
    mention there, the timer moves for him until he is away (💤), then a
    computer plays his seat to the end; nothing waits for a hand he never saw."""
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path), seeds=lambda: 3) as app:
        table = seat_group_players(server, ["Anna", "Boris"], app)
        anna, boris = table.players
        await table.open_and_start("durak", timer=True)
        await table.my_cards(anna)
        seat = dict(probe.query("SELECT user_id, seat FROM seats"))[boris]
        for _ in range(400):
            if probe.table()[0] != "playing":
                break
            hand = table.hand(anna)
            if hand is None:
                await advance(server, app, 30)
                continue
            datas = [d for d in hand.callback_datas if MOVE_DATA.match(d)]
            data = table.rng.choice([d for d in datas if d.startswith("m:")] or datas)
            await table.press(anna, hand, data)
        assert probe.table()[0] == "finished"
        actors = {actor for _, _, actor, s in probe.moves() if s == seat}
        assert {"timer", "computer"} <= actors
        assert any("⏳" in m.text and "Boris" in m.text for m in table.group_messages())
        assert table.seen(boris) == []
        assert table.dms() == []
