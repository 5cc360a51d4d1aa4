"""What nobody may see or do, checked after every move of a whole game of
every game in the registry: no card a person has not been shown (in the seat's
own views or in public) in any group text, caption, button or another
player's DM or ephemeral message in the group (which only its receiver ever
sees), or in the answer to a press; a stranger's forged press of a real
move (real table id, legal now) never moves, and no player moves for another
seat."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.catalog import CATALOG, Catalog
from playground.botapi import FakeTelegram, SentMessage
from tests.e2e.harness import (
    MOVE_DATA,
    Probe,
    Table,
    bot_config,
    faces_in,
    quick_options,
    running_bot,
    seat_group_players,
    seat_players,
    settle,
)
from tests.e2e.test_seats import add_computers
from tests.engines.playout import cards_in

STRANGER = 999
_CODE = re.compile(r"(?<!X)[2-9TJQKA][scdh]")
"""A card's code inside callback data (a move or a menu of the screen); a
joker's code is X1 or X2."""


class Sight:
    """Every card each seat has been shown so far, and every card shown to all
    (both only grow)."""

    def __init__(self, probe: Probe, table_id: int = 1) -> None:
        self.probe = probe
        self.catalog = probe.catalog
        self.table_id = table_id
        self.public: set[str] = set()
        self.seen: dict[int, set[str]] = {}
        rows = probe.query("SELECT seat, user_id FROM seats WHERE table_id = ?", (table_id,))
        self.seats = len(rows)
        self.seat_of = {int(user): int(seat) for seat, user in rows if user is not None}
        self._moves_read = 0

    def update(self) -> None:
        ((game_key, state, rules, seed),) = self.probe.query(
            "SELECT game, state, rules, seed FROM tables WHERE id = ?", (self.table_id,)
        )
        spec = self.catalog.specs[game_key]
        if not self.public:  # what the deal showed all before any move (Joker's draw)
            dealt = spec.game.new(
                spec.rules.from_json(json.loads(rules)), self.seats, random.Random(seed)
            )
            self.public |= {card.code for card in cards_in(dealt.public_view())}
        # The cards in the events of the moves made since the last update.
        for n, events in self.probe.query(
            "SELECT n, events FROM moves WHERE table_id = ? AND n > ? ORDER BY n",
            (self.table_id, self._moves_read),
        ):
            for event in json.loads(events):
                self.public.update(event.get("cards", ()))
            self._moves_read = int(n)
        game = spec.game.load(json.loads(state))
        self.public |= {card.code for card in cards_in(game.public_view())}
        for seat in self.seat_of.values():
            shown = {card.code for card in cards_in(game.view(seat))}
            self.seen.setdefault(seat, set()).update(shown)

    def may_see(self, user_id: int | None) -> set[str]:
        if user_id is None or user_id not in self.seat_of:
            return self.public
        return self.public | self.seen[self.seat_of[user_id]]


def _shown(message: SentMessage) -> set[str]:
    return faces_in(" ".join([message.text, message.caption, *message.button_texts]))


class Watch:
    """Checks what people see against :class:`Sight` after every move.  What a
    person may see only grows, so a message that passed once passes again until
    it changes: each check reads only the messages sent or edited since the
    last one, and the answers given since."""

    def __init__(self, server: FakeTelegram, table: Table, sight: Sight) -> None:
        self.server = server
        self.table = table
        self.sight = sight
        self.answers: list[tuple[int, str]] = []
        self._answers_checked = 0
        self._checked: dict[tuple[int, int], int] = {}  # (chat, message): edit count checked

    def _changed(self, chat_id: int) -> list[SentMessage]:
        changed = []
        for message in self.server.bot_messages(chat_id):
            key = (chat_id, message.message_id)
            if self._checked.get(key) != message.edit_count:
                self._checked[key] = message.edit_count
                changed.append(message)
        return changed

    def check(self) -> None:
        sight = self.sight
        for message in self._changed(self.table.group_id):
            leaked = _shown(message) - sight.public
            assert not leaked, f"the group sees {sorted(leaked)}:\n{message.text}{message.caption}"
        for user_id in self.table.players:
            may_see = sight.may_see(user_id)
            for message in self._changed(user_id):
                leaked = _shown(message) - may_see
                assert not leaked, f"{user_id}'s DM shows {sorted(leaked)}:\n{message.text}"
                carried = {
                    c for d in message.callback_datas for c in _CODE.findall(d.split(":")[-1])
                }
                leaked = carried - may_see
                assert not leaked, f"{user_id}'s buttons carry {sorted(leaked)}"
        for user_id, text in self.answers[self._answers_checked :]:
            leaked = faces_in(text) - sight.may_see(user_id)
            assert not leaked, f"an answer to {user_id} shows {sorted(leaked)}: {text}"
        self._answers_checked = len(self.answers)


def _last_message(server: FakeTelegram, chat_id: int) -> SentMessage | None:
    """The chat's last bot message not deleted (copying only that one)."""
    for message in reversed(server.bot_messages(chat_id)):
        if not message.deleted:
            return message.snapshot()
    return None


async def _refused(
    server: FakeTelegram, user_id: int, message: SentMessage, data: str, probe: Probe
) -> None:
    before = probe.table()
    query = server.press(user_id, message.chat_id, message.message_id, data, forged=True)
    answer: dict[str, Any] = await server.answered(query)
    assert answer.get("show_alert"), f"{user_id}'s forged {data} was not refused: {answer}"
    assert probe.table() == before


FORGED_EVERY = 3
"""The forged presses (the other player's, a stranger's) come at every third
move: each is a whole update through the bot, and a refusal does not depend
on the move number."""
QUICK_PRESETS = {"daytona": "sprint"}
"""Presets that let a random game end in a few thousand presses (a Daytona
race where back wins may take thousands of draws)."""


VARIANTS = [(listing.spec.key, QUICK_PRESETS.get(listing.spec.key)) for listing in CATALOG.listings]
VARIANTS.append(("durak", "believe"))  # face-down covers: nobody sees them before the verdict
VARIANTS.append(("durak", "blind"))  # nobody sees his own cards, not even his client


@pytest.mark.slow
@pytest.mark.parametrize(("game", "preset"), VARIANTS)
async def test_nothing_hidden_leaks_and_nobody_moves_for_another(
    server: FakeTelegram, db_path: Path, game: str, preset: str | None
) -> None:
    await play_watched(server, db_path, game, preset)


async def play_watched(
    server: FakeTelegram,
    db_path: Path,
    game: str,
    preset: str | None,
    catalog: Catalog = CATALOG,
) -> None:
    """Two people and a computer play a whole game of ``catalog``'s ``game``,
    every move checked: nobody sees what he may not, a stranger's forged press
    and a press for another seat never move."""
    probe = Probe(db_path, catalog)
    async with running_bot(bot_config(server, db_path), catalog=catalog) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        server.add_user(STRANGER, "Mallory")
        server.start_bot(STRANGER)
        await _open_and_start(table, game, preset)
        sight = Sight(probe)
        watch = Watch(server, table, sight)

        def forged_on(user_id: int) -> SentMessage:
            """A forger presses on the last message in his own chat with the bot."""
            message = _last_message(server, user_id)
            assert message is not None
            return message

        await _play_to_the_end(table, probe, watch, random.Random(3), forged_on)


async def _open_and_start(table: Table, game: str, preset: str | None) -> None:
    await table.open(game, preset)
    await table.set_options(quick_options(game, preset))
    await add_computers(table, 1)
    await table.press(table.players[1], table.lobby(), table.lobby().callback_data("🙋"))
    await table.set_turn_time("без лимита")
    await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))


async def _play_to_the_end(
    table: Table,
    probe: Probe,
    watch: Watch,
    rng: random.Random,
    forged_on: Callable[[int], SentMessage],
) -> None:
    """Random presses by the seated people until the game ends, checked by
    ``watch`` after each; at every :data:`FORGED_EVERY`-th move the other
    person (where it is not his move too) and the stranger press it first, on
    the message ``forged_on`` gives each, and are refused."""
    server = watch.server
    sight = watch.sight
    moves = 0
    for _ in range(6000):
        if probe.table()[0] != "playing":
            break
        sight.update()
        watch.check()
        options = [(u, m) for u in table.players if (m := table.hand(u)) is not None]
        if options:
            user_id, message = rng.choice(options)
            data = rng.choice([d for d in message.callback_datas if MOVE_DATA.match(d)])
            if data.startswith("m:") and moves % FORGED_EVERY == 0:
                other = next(u for u in table.players if u != user_id)
                others = table.hand(other)
                if others is None or data not in others.callback_datas:  # not his move too
                    await _refused(server, other, forged_on(other), data, probe)
                await _refused(server, STRANGER, forged_on(STRANGER), data, probe)
        else:
            group = table.group_move()
            if group is None:
                await table.command(table.players[0], "/table")
                continue
            data = rng.choice([d for d in group.callback_datas if d.startswith("m:")])
            if moves % FORGED_EVERY == 0:
                await _refused(server, STRANGER, group, data, probe)
            user_id, message = rng.choice(table.players), group
        answer = await table.press(user_id, message, data)
        watch.answers.append((user_id, str(answer.get("text", ""))))
        moves += data.startswith("m:")
    else:
        raise AssertionError("the game did not end")
    sight.update()
    watch.check()
    assert moves > 10


class EphemeralWatch(Watch):
    """:class:`Watch`, and every ephemeral message the bot sent in the group
    (seen by its receiver or lost on the way): it shows and carries only what
    its receiver may see, and nobody else ever sees it."""

    def __init__(self, server: FakeTelegram, table: Table, sight: Sight) -> None:
        super().__init__(server, table, sight)
        self._ephemeral_checked: dict[int, int] = {}  # ephemeral id: edit count checked

    def check(self) -> None:
        super().check()
        for message in self.server.every_ephemeral():
            if self._ephemeral_checked.get(message.message_id) == message.edit_count:
                continue
            self._ephemeral_checked[message.message_id] = message.edit_count
            receiver = message.receiver_id
            assert receiver in self.table.players, f"an ephemeral message to {receiver}"
            may_see = self.sight.may_see(receiver)
            leaked = _shown(message) - may_see
            assert not leaked, f"{receiver}'s ephemeral hand shows {sorted(leaked)}"
            carried = {c for d in message.callback_datas for c in _CODE.findall(d.split(":")[-1])}
            assert not carried - may_see, (
                f"{receiver}'s ephemeral buttons carry {carried - may_see}"
            )
        for user_id in (*self.table.players, STRANGER):
            for message in self.server.ephemeral_messages(self.table.group_id, user_id):
                assert message.receiver_id == user_id, "an ephemeral message seen by another"


@pytest.mark.slow
@pytest.mark.parametrize(("game", "preset"), [("durak", None), ("101", None), ("joker", None)])
async def test_an_ephemeral_hand_never_reaches_another_member(
    server: FakeTelegram, db_path: Path, game: str, preset: str | None
) -> None:
    """Two people who never opened the bot and a computer play a whole game in
    the group, every move checked as above, the hands being ephemeral messages."""
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_group_players(server, ["Anna", "Boris"], app)
        server.add_user(STRANGER, "Mallory")
        await settle(server, app)
        await _open_and_start(table, game, preset)
        for user_id in table.players:
            await table.my_cards(user_id)
        # A stranger's "my cards" shows him nothing.
        answer = await table.my_cards(STRANGER)
        assert answer.get("show_alert")
        assert server.ephemeral_messages(table.group_id, STRANGER) == []
        sight = Sight(probe)
        watch = EphemeralWatch(server, table, sight)
        # Forged on the table message, by the other player and by a stranger.
        await _play_to_the_end(
            table, probe, watch, random.Random(5), lambda _: table.table_message()
        )
        assert server.every_ephemeral()
        assert all(server.chat_messages(u) == [] for u in table.players)  # no DM at all
