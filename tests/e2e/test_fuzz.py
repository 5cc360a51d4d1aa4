"""Thousands of random and malformed updates against a bot with live games:
forged callback data (valid prefixes with wrong numbers, other tables' ids,
huge and negative numbers, unicode), presses on foreign, deleted and unknown
messages, commands with long, right-to-left, zero-width and emoji arguments,
channel posts, edited and service messages, a chat migration.  No unhandled
exception, no live game changed, every callback query answered."""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any

import pytest

from handlers.commands import COMMANDS
from handlers.context import KEY
from playground.botapi import FakeTelegram
from tests.e2e.harness import Probe, Table, bot_config, running_bot, seat_players, settle

STRANGERS = [900 + i for i in range(5)]
READ_ONLY = ["table", "sheet", "scores", "stats", "rules", "help", "start"]
"""Commands a player may send mid-game without changing it (strangers send any)."""
NASTY = [
    "",
    "x" * 5000,
    "\u202eперевернуто\u202c",
    "שלום עולם",
    "\u200b\u200c\u200d\ufeff",
    "🂡🃏👨‍👩‍👧‍👦" * 40,
    "-1",
    "99999999999999999999999",
    "../../etc/passwd",
    "<b>bold</b> & <i>",
    "durak perevodnoy extra args",
    "101 " + "0" * 300,
    "\x00\x01\x7f",
    "@koloda_test_bot",
]
NUMBERS = [0, 1, 2, 3, 7, -1, -999, 2**31, 2**63, 10**30]
WRONG = [-1, -999, 2**31, 2**63, 10**30]
"""Numbers that are never a live table's id or move count: a player's forged
data built with them can never be a legal press of his own move."""
PREFIXES = ["m", "u", "l", "s", "j", "x", "", "m:", "l:0", "🂡"]


def _b36(number: int) -> str:
    """As the bot writes ids in callback data (a minus sign kept)."""
    if number < 0:
        return "-" + _b36(-number)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, rest = divmod(number, 36)
        text = digits[rest] + text
        if not number:
            return text


def _forged_data(rng: random.Random, real: list[str], stale_only: bool) -> str:
    """Callback data a client could forge: real data taken apart and put back
    wrong, or noise; at most 64 bytes, as Telegram allows."""
    kind = rng.randrange(5)
    numbers = WRONG if stale_only else NUMBERS
    if kind == 0 and real:  # a real button, with another table's id or a wrong counter
        parts = rng.choice(real).split(":")
        index = rng.randrange(1, len(parts)) if len(parts) > 1 else 0
        number = rng.choice(numbers)
        parts[index] = rng.choice([str(number), _b36(number)])
        data = ":".join(parts)
    elif kind == 1 and real and not stale_only:  # a real move as it is
        data = rng.choice(real)
    elif kind == 2:
        data = f"{rng.choice(PREFIXES)}:{_b36(rng.choice(numbers))}:{rng.choice(numbers)}:pAs"
    elif kind == 3:
        data = "".join(rng.choice("m:ul0123456789abzAs♠️🃏\u202e") for _ in range(rng.randrange(40)))
    else:
        data = rng.choice(NASTY)
    return data.encode()[:64].decode(errors="ignore") or "m"


def _game_state(probe: Probe, live: int) -> list[Any]:
    """Everything stored about the games of tables 1..``live`` (but the row's
    version: a seated player's own press that makes no move, a sub-menu,
    records that he is present, which is no change to the game)."""
    return [
        probe.query(
            "SELECT id, chat_id, game, rules, status, seed, state, moves"
            " FROM tables WHERE id <= ? ORDER BY id",
            (live,),
        ),
        probe.query(
            "SELECT table_id, seat, user_id FROM seats WHERE table_id <= ? ORDER BY table_id, seat",
            (live,),
        ),
        probe.query("SELECT COUNT(*) FROM moves WHERE table_id <= ?", (live,)),
        probe.query("SELECT COUNT(*) FROM results WHERE table_id <= ?", (live,)),
        # The live games' chats only: strangers may open a table in the spare
        # group and race a Daytona (no private hands) to its end with real presses.
        probe.query(
            "SELECT * FROM scores WHERE chat_id IN (SELECT chat_id FROM tables WHERE id <= ?)"
            " ORDER BY chat_id, game, user_id",
            (live,),
        ),
        probe.query("SELECT table_id, seat, due_at FROM deadlines WHERE table_id <= ?", (live,)),
    ]


def _message_json(server: FakeTelegram, chat_id: int, message_id: int) -> dict[str, Any]:
    record = server.message(chat_id, message_id)
    if record is not None:
        return server.message_json(record)
    chat: dict[str, Any] = {"id": chat_id, "type": "private" if chat_id > 0 else "supergroup"}
    if chat_id < 0:
        chat["title"] = "Nowhere"
    else:
        chat["first_name"] = "Ghost"
    return {"message_id": message_id, "chat": chat, "date": 1_700_000_000, "text": "…"}


async def _fuzz(server: FakeTelegram, db_path: Path, updates: int, seed: int) -> None:
    rng = random.Random(seed)
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        tables: list[Table] = []
        for index, (game, names) in enumerate(
            [("durak", ["Anna", "Boris", "Vera"]), ("101", ["Gleb", "Dina"])]
        ):
            table = seat_players(
                server, names, app, group_id=-1001 - index, first_user=100 + 10 * index
            )
            await table.open_and_start(game)
            for _ in range(4):
                await table.play_random_move()
            tables.append(table)
        lobby = seat_players(server, ["Egor"], app, group_id=-1003, first_user=130)
        await lobby.open("joker")
        for user_id in STRANGERS:
            server.add_user(user_id, f"Stranger {user_id}", username=f"s{user_id}")
        server.start_bot(STRANGERS[0])
        spare = seat_players(
            server, ["Zoya"], app, group_id=-1004, first_user=140, supergroup=False
        )
        await spare.command(spare.players[0], "/help")
        live = 2  # tables 1 and 2; the lobby (3) takes anybody's real presses: joins, settings
        before = _game_state(probe, live)

        groups = [t.group_id for t in [*tables, lobby, spare]]
        players = [u for t in [*tables, lobby] for u in t.players]
        queries: list[str] = []
        counts: dict[str, int] = {}
        caplog_errors: list[logging.LogRecord] = []
        handler = _Collect(caplog_errors)
        logging.getLogger().addHandler(handler)
        try:
            for step in range(updates):
                kind = rng.choices(
                    ["press", "raw press", "command", "text", "other"], [40, 15, 25, 5, 15]
                )[0]
                counts[kind] = counts.get(kind, 0) + 1
                if kind == "press":
                    queries.append(_forged_press(server, rng, groups, players))
                elif kind == "raw press":
                    queries.append(_raw_press(server, rng, groups, players))
                elif kind == "command":
                    _command(server, rng, groups, players)
                elif kind == "text":
                    user = rng.choice(STRANGERS + players)
                    server.send(user, rng.choice(groups), rng.choice(NASTY) or ".")
                else:
                    _other(server, rng, groups, step)
                if step == updates // 2:  # the spare group becomes a supergroup
                    groups.remove(spare.group_id)
                    spare.group_id = server.migrate(spare.group_id, -1_000_000_001_004).id
                    groups.append(spare.group_id)
                if step % 25 == 24:
                    await settle(server, app)
            await settle(server, app)
        finally:
            logging.getLogger().removeHandler(handler)
        after = _game_state(probe, live)
        for was, now in zip(before, after, strict=True):
            assert was == now, f"a live game changed: {set(was) ^ set(now)}"
        unanswered = [q for q in queries if server.callback_answer(q) is None]
        assert not unanswered, f"{len(unanswered)} presses never answered"
        koloda = app.bot_data[KEY]
        assert koloda.services.background.idle
    assert not caplog_errors, [r.getMessage() for r in caplog_errors[:5]]
    print(f"\nfuzz: {updates} updates {counts}, {len(queries)} presses all answered")


class _Collect(logging.Handler):
    def __init__(self, into: list[logging.LogRecord]) -> None:
        super().__init__(logging.ERROR)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(record)


def _forged_press(
    server: FakeTelegram, rng: random.Random, groups: list[int], players: list[int]
) -> str:
    """A press with forged data on a real message of the bot's: a stranger's
    anywhere in a group, a player's (never a move that is legal now) anywhere.
    (The server's own records are read here, not copies of them: thousands of
    presses each copying a whole chat cost more than the bot's handling.)"""
    if rng.random() < 0.5:
        user = rng.choice(STRANGERS)
        chat = rng.choice(groups)
    else:
        user = rng.choice(players)
        chat = rng.choice([*groups, user])
    messages = [m for m in server.bot_messages(chat) if not m.deleted]
    if not messages:
        chat, user = groups[0], STRANGERS[0]
        messages = [m for m in server.bot_messages(chat) if not m.deleted]
    message = rng.choice(messages)
    real = [d for m in messages for d in m.callback_datas]
    stale_only = user in players
    data = _forged_data(rng, real, stale_only)
    if stale_only and data in real:
        data = data + ":0"
    return server.press(user, chat, message.message_id, data, forged=True)


def _raw_press(
    server: FakeTelegram, rng: random.Random, groups: list[int], players: list[int]
) -> str:
    """A press on a message that is deleted, another chat's, unknown, or none."""
    user = rng.choice(STRANGERS + players)
    where = rng.randrange(4)
    if where == 0:
        message = None
    elif where == 1:
        message = _message_json(server, rng.choice([-5555, 5555, *groups]), rng.randrange(1, 10**6))
    else:
        chat = rng.choice(groups)
        deleted = [m for m in server.bot_messages(chat) if m.deleted]
        mid = rng.choice(deleted).message_id if deleted else 1
        message = _message_json(server, chat, mid)
    data = _forged_data(rng, [], stale_only=True)
    return server.inject_press(user, data, message)


def _command(
    server: FakeTelegram, rng: random.Random, groups: list[int], players: list[int]
) -> None:
    stranger = rng.random() < 0.6
    user = rng.choice(STRANGERS if stranger else players)
    name = rng.choice([*COMMANDS, "nosuch", "newgame@koloda_test_bot"] if stranger else READ_ONLY)
    argument = rng.choice(NASTY)
    text = f"/{name} {argument}".strip()[:4096]
    chat = rng.choice(groups) if rng.random() < 0.7 else user
    server.send(user, chat, text)


def _other(server: FakeTelegram, rng: random.Random, groups: list[int], step: int) -> None:
    """Updates that are not presses or commands."""
    group = rng.choice(groups)
    chat = server.message_json(server.records(group)[0])["chat"] if server.records(group) else {}
    user = server.user(rng.choice(STRANGERS)).to_api()
    base = {"message_id": 10**6 + step, "date": 1_700_000_000, "chat": chat, "from": user}
    kind = rng.randrange(7)
    if kind == 0:
        channel = {"id": -100777, "type": "channel", "title": "News"}
        post = {"message_id": step + 1, "date": 1_700_000_000, "chat": channel, "text": "/newgame"}
        server.inject_update("channel_post", post)
    elif kind == 1:
        server.inject_update("edited_message", {**base, "text": "/newgame durak", "edit_date": 1})
    elif kind == 2:
        server.inject_update("message", {**base, "new_chat_members": [user]})
    elif kind == 3:
        server.inject_update("message", {**base, "left_chat_member": user})
    elif kind == 4:
        server.inject_update("message", {**base, "new_chat_title": rng.choice(NASTY)[:128] or "t"})
    elif kind == 5:
        server.inject_update("message", {**base, "sticker": None, "text": None})
    else:
        server.inject_update(
            "message",
            {**base, "chat": {"id": -424242, "type": "group", "title": "?"}, "text": "/table"},
        )


@pytest.mark.slow
@pytest.mark.stand_in  # for the six thousand below
async def test_three_thousand_random_and_malformed_updates_change_nothing(
    server: FakeTelegram, db_path: Path
) -> None:
    await _fuzz(server, db_path, updates=3000, seed=21)


@pytest.mark.slow  # left out of a quick run (-m "not slow") too
@pytest.mark.soak
async def test_six_thousand_random_and_malformed_updates_change_nothing(
    server: FakeTelegram, db_path: Path
) -> None:
    await _fuzz(server, db_path, updates=6_000, seed=22)
