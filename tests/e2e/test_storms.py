"""Telegram failing at random while games are played: flood waits, server
errors, dropped connections, answers lost after the call was applied, slow
answers.  Every game finishes, every accepted press is one move, every press is
answered (or every attempt to answer it failed), the group and every DM end up
showing the final state, copies made by lost answers are gone, and nothing is
logged as an error."""

from __future__ import annotations

import logging
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from delivery.callback_data import _b36
from delivery.hand_messages import compose_hand
from delivery.table_messages import compose_group
from delivery.telegram_io import ANSWER_PAUSES
from handlers.context import KEY, Koloda
from playground.botapi import FakeTelegram, Fault, SentMessage, Storm
from tests.e2e.harness import (
    Probe,
    Table,
    advance,
    bot_config,
    quick_options,
    running_bot,
    seat_players,
    settle,
)
from tests.e2e.test_seats import add_computers

NAMES = ["Anna", "Boris", "Vera", "Gleb"]
DUPLICATE_SHARE = 0.15
"""Presses that come twice at once, as from an impatient thumb."""
SLOW_SECONDS = (0.01, 0.1)
"""How long a slow answer keeps the bot waiting, in real time: ten to a
hundred times what the bot takes to handle a press, so that the presses,
answers and deliveries under way still overlap it (the bot's own time, the fake
clock, stands still meanwhile however long it takes)."""


@dataclass(frozen=True)
class Game:
    """A table to play under the storm: people press, computers fill the rest."""

    key: str
    preset: str | None = None
    people: int = 2
    computers: int = 0


@dataclass
class Play:
    """One table played under the storm, and what its presses came to."""

    table: Table
    table_id: int
    accepted: int = 0
    refused: int = 0
    unanswered: int = 0
    presses: int = 0
    queries: list[str] = field(default_factory=list)

    def choose(self, rng: random.Random) -> tuple[int, SentMessage, str] | None:
        return self.table.random_press(rng)


def _press(
    server: FakeTelegram, play: Play, user_id: int, message: SentMessage, data: str
) -> Callable[[], bool]:
    """One press; what it returns says, once the bot has settled, whether it
    was a move the bot accepted."""
    query = server.press(user_id, message.chat_id, message.message_id, data)
    play.queries.append(query)
    play.presses += 1

    def accepted() -> bool:
        answer = server.callback_answer(query)
        if answer is None:  # every attempt to answer it failed
            play.unanswered += data.startswith("m:")
            return False
        if not data.startswith("m:"):
            return False
        # A refusal is an alert; an accepted move on the table message is
        # answered with a toast saying what it did.
        if answer.get("show_alert"):
            play.refused += 1
            return False
        play.accepted += 1
        return True

    return accepted


async def _play_under(
    server: FakeTelegram, app: Any, plays: list[Play], probe: Probe, rng: random.Random
) -> int:
    """Press random buttons at every table until every game is over; returns how
    often no move could be made and the players waited for the bot (its time
    moves on, flood waits and back-offs pass).  The presses of a round come
    together, doubled ones among them, and are read once the bot has settled:
    its pauses between attempts to answer pass on its clock meanwhile."""
    waits = 0
    for _ in range(5000):
        await settle(server, app)
        running = [p for p in plays if probe.table(p.table_id)[0] == "playing"]
        if not running:
            return waits
        presses = []
        for play in running:
            choice = play.choose(rng)
            if choice is None:
                continue
            presses.append(_press(server, play, *choice))
            if rng.random() < DUPLICATE_SHARE:
                presses.append(_press(server, play, *choice))
        await settle(server, app)
        made = [accepted() for accepted in presses]  # each press counted
        if not any(made):
            waits += 1  # no buttons, or only old ones: the players wait
            await advance(server, app, 5)
    raise AssertionError("the games did not end")


async def _final_displays(server: FakeTelegram, koloda: Koloda, play: Play, probe: Probe) -> None:
    table = play.table
    snapshot = await koloda.services.snapshots.snapshot(play.table_id)
    screens = koloda.screens[snapshot.table.game]
    now = koloda.services.clock.now()
    lang = await koloda.services.directory.chat_language(table.group_id)
    composed = compose_group(snapshot, lang, screens, now=now)
    ((message_id,),) = probe.query(
        "SELECT message_id FROM table_messages WHERE table_id = ?", (play.table_id,)
    )
    shown = _message(server, table.group_id, message_id)
    assert shown is not None
    assert not shown.deleted
    html = shown.caption_html if shown.kind == "photo" else shown.html
    assert html == composed.text, "the group's table message is not the final state"
    owned = f":{_b36(play.table_id)}:"
    live = [
        m
        for m in server.chat_messages(table.group_id)
        if not m.deleted
        and any(d.startswith(("m:", "l:")) and owned in d for d in m.callback_datas)
    ]
    assert not live, f"group messages with live buttons after the end: {live}"
    for seat in snapshot.table.seats:
        if seat.user_id is None or not snapshot.spec.private_hands:
            continue  # a computer's seat, or a game without hands
        hand, _ = compose_hand(snapshot, seat.seat, lang, screens, now=now)
        ((hand_id,),) = probe.query(
            "SELECT message_id FROM hand_messages WHERE table_id = ? AND seat = ?",
            (play.table_id, seat.seat),
        )
        dm = _message(server, seat.user_id, hand_id)
        assert dm is not None
        assert not dm.deleted
        assert dm.html == hand.text, f"seat {seat.seat}'s DM is not the final state"
        stale = [
            m
            for m in server.chat_messages(seat.user_id)
            if not m.deleted
            and m.message_id != dm.message_id
            and any(d.startswith(("m:", "u:")) and owned in d for d in m.callback_datas)
        ]
        assert not stale, f"old hands with buttons left in seat {seat.seat}'s DM: {stale}"


def _message(server: FakeTelegram, chat_id: int, message_id: int) -> SentMessage | None:
    return next((m for m in server.chat_messages(chat_id) if m.message_id == message_id), None)


async def _open(table: Table, game: Game) -> None:
    """Open the table with its quick options, seat everybody, no turn timer, start."""
    await table.open(game.key, game.preset)
    await table.set_options(quick_options(game.key, game.preset))
    if game.computers:
        await add_computers(table, game.computers)
    for user_id in table.players[1:]:
        await table.press(user_id, table.lobby(), table.lobby().callback_data("🙋"))
    await table.set_turn_time("без лимита")
    await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))


async def _storm_games(
    server: FakeTelegram,
    db_path: Path,
    caplog: pytest.LogCaptureFixture,
    games: Sequence[Game],
    storm: Storm,
    seed: int,
) -> None:
    caplog.set_level(logging.WARNING)
    probe = Probe(db_path)
    rng = random.Random(seed)
    # Over HTTP: the storm's dropped and lost connections meet the bot's
    # real transport.
    async with running_bot(bot_config(server, db_path), over_http=True) as app:
        koloda: Koloda = app.bot_data[KEY]
        plays = []
        for index, game in enumerate(games):
            table = seat_players(
                server,
                NAMES[: game.people],
                app,
                group_id=-1001 - index,
                first_user=100 + 10 * index,
            )
            table.rng = random.Random(seed + index)
            await _open(table, game)
            plays.append(Play(table, index + 1))
        server.storm = storm
        waits = await _play_under(server, app, plays, probe, rng)
        server.storm = None
        await advance(server, app, 600)  # whatever is still owed goes out

        lost = [
            c
            for c in server.calls
            if c.fault == Fault.LOST.value and c.method in ("sendMessage", "sendPhoto")
        ]
        for play in plays:
            status, _ = probe.table(play.table_id)
            assert status == "finished"
            by_players = sum(1 for m in probe.moves(play.table_id) if m[2] == "player")
            assert play.accepted <= by_players <= play.accepted + play.unanswered
            await _final_displays(server, koloda, play, probe)
            for query in play.queries:
                if server.callback_answer(query) is None:
                    attempts = [
                        c
                        for c in server.calls_to("answerCallbackQuery")
                        if c.params.get("callback_query_id") == query
                    ]
                    assert len(attempts) == len(ANSWER_PAUSES) + 1
                    assert all(c.fault for c in attempts)
        for call in lost:
            copy = _message(server, int(call.chat_id or 0), call.result["message_id"])
            assert copy is not None
            assert copy.deleted, f"a copy left by a lost send: {call}"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    presses = sum(p.presses for p in plays)
    moves = sum(len(probe.moves(p.table_id)) for p in plays)
    print(
        f"\nstorm: {len(plays)} games, {moves} moves, {presses} presses "
        f"({sum(p.refused for p in plays)} refused as doubled or stale), "
        f"{storm.total} faults {dict(Counter({f.value: n for f, n in storm.counts.items()}))}, "
        f"{len(lost)} copies made by lost answers removed, {waits} waits for the bot's time"
    )


@pytest.mark.stand_in  # for the long storm below
async def test_games_finish_and_show_their_end_through_a_storm(
    server: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    games = [Game("durak", people=3), Game("durak", "perevodnoy", people=2)]
    await _storm_games(
        server, db_path, caplog, games, Storm(rate=0.15, seed=1, slow_seconds=SLOW_SECONDS), seed=11
    )


@pytest.mark.slow  # left out of a quick run (-m "not slow") too
@pytest.mark.soak
async def test_every_game_survives_a_long_heavier_storm(
    server: FakeTelegram, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    games = [
        Game("durak", people=4),
        Game("durak", "perevodnoy", people=3),
        Game("101", people=3),
        Game("joker", people=2, computers=2),
    ]
    await _storm_games(
        server, db_path, caplog, games, Storm(rate=0.25, seed=2, slow_seconds=SLOW_SECONDS), seed=12
    )
