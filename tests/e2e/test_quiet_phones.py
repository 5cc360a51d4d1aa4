"""How often the bot makes a phone buzz, through the real bot: an away
player's seat played by the computer sends him nothing that notifies, and one
press brings him back; Joker posts nothing that notifies per deal (the deal's
line is on the table message); the turn warning is silent and goes when the
turn ends, after a restart too; and over a whole game of each kind nobody is
notified more than once per move he must make (``bench.notifications``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.notifications import GAMES, notifications, play_game
from playground.botapi import FakeTelegram, SentMessage
from tests.clock import FakeClock
from tests.e2e.harness import (
    MOVE_DATA,
    Probe,
    Table,
    advance,
    bot_config,
    running_bot,
    seat_players,
)
from tests.e2e.test_joker import state as joker_state
from tests.e2e.test_seats import add_computers

TURN = 60.0
"""The default turn time."""
BACK = "🙋 Я здесь"
WARNING = "⏳ Осталось"


def notifying_dms(server: FakeTelegram, user_id: int) -> int:
    return sum(1 for _, chat, _ in notifications(server) if chat == user_id)


def warnings_of(server: FakeTelegram, user_id: int) -> list[SentMessage]:
    return [m for m in server.chat_messages(user_id) if m.text.startswith(WARNING)]


def absent(probe: Probe, user_id: int) -> bool:
    rows = probe.query("SELECT absent FROM seats WHERE user_id = ?", (user_id,))
    return bool(rows and rows[0][0])


def message(server: FakeTelegram, chat_id: int, message_id: int) -> SentMessage:
    return next(m for m in server.chat_messages(chat_id) if m.message_id == message_id)


async def press_as(table: Table, user_id: int) -> bool:
    """A random move of the user's hand (a sub-menu only if it has no move);
    False when he has no buttons."""
    hand = table.hand(user_id)
    if hand is None:
        return False
    datas = [d for d in hand.callback_datas if MOVE_DATA.match(d)]
    data = table.rng.choice([d for d in datas if d.startswith("m:")] or datas)
    await table.press(user_id, hand, data)
    return True


async def test_an_away_player_gets_nothing_that_notifies_and_comes_back_with_one_press(
    server: FakeTelegram, db_path: Path
) -> None:
    """Boris lets his time run out until he is away (💤); while the computer
    plays his seat for a dozen moves, his hand is edited in place and nothing
    notifies him.  "I'm here" on it brings him back at once."""
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path), seeds=lambda: 3) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        anna, boris = table.players
        await table.open_and_start("durak", timer=True)
        for _ in range(200):
            if absent(probe, boris):
                break
            if not await press_as(table, anna):
                await advance(server, app, TURN / 2)
        assert absent(probe, boris)
        before = notifying_dms(server, boris)
        computer_moves = 0
        for _ in range(200):
            if computer_moves >= 12 or probe.table()[0] != "playing":
                break
            moves = len(probe.moves())
            if not await press_as(table, anna):
                await advance(server, app, 5)
            computer_moves += sum(
                1
                for _, _, actor, seat in probe.moves()[moves:]
                if actor == "computer" and seat == 1
            )
        assert computer_moves >= 3
        assert notifying_dms(server, boris) == before
        hand = table.hand(boris)
        assert hand is not None
        assert hand.edit_count > 0
        assert hand.has_button(BACK)
        if probe.table()[0] == "playing":
            await table.press_text(boris, hand, BACK)
            assert not absent(probe, boris)


async def test_a_joker_game_posts_nothing_that_notifies_per_deal(
    server: FakeTelegram, db_path: Path
) -> None:
    """Three deals of Joker: no group message notifies after the start, and
    the table message shows the deal before with what ``1/0`` means."""
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna"], app)
        await table.open("joker")
        await add_computers(table, 3)
        await table.set_turn_time("без лимита")
        before = len(table.group_messages())
        await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))
        while joker_state(db_path).public_view().deal < 4:
            assert await table.play_random_move() is not None
        posted = table.group_messages()[before:]
        assert all(m.disable_notification for m in posted)
        shown = [text for m in table.group_messages() for text in m.history]
        assert any("Сдача 2 (" in text and "заказ/взято: " in text for text in shown)


async def test_the_turn_warning_is_silent_and_goes_when_the_turn_ends(
    server: FakeTelegram, db_path: Path
) -> None:
    """The warning a third of the time before the end comes without a sound,
    and is deleted when the turn ends: by a move, or (after a restart) by the
    timer."""
    clock = FakeClock()
    async with running_bot(bot_config(server, db_path), clock) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("durak", timer=True)
        mover = next(u for u in table.players if table.hand(u) is not None)
        await advance(server, app, TURN * 0.7)
        (warning,) = warnings_of(server, mover)
        assert warning.disable_notification
        assert not warning.deleted
        assert await press_as(table, mover)
        assert message(server, warning.chat_id, warning.message_id).deleted
        # The next warning, then a restart before the turn ends.
        await advance(server, app, TURN * 0.7)
        (warning,) = [m for u in table.players for m in warnings_of(server, u) if not m.deleted]
    async with running_bot(bot_config(server, db_path), clock) as app:
        await advance(server, app, TURN)  # the timer moves
        assert message(server, warning.chat_id, warning.message_id).deleted


@pytest.mark.slow
@pytest.mark.parametrize("game", list(GAMES))
async def test_nobody_is_notified_more_than_once_per_move_he_must_make(game: str) -> None:
    """A whole game: Anna at people's pace (one move in ten past the warning),
    Boris away from the start (the timer, then a computer, plays for him)."""
    figures = await play_game(game, "one away", seed=1)
    for name, person in figures.people.items():
        assert person.worst_gap <= 1, f"{name}: {person}"
        assert person.warnings_left == 0, f"{name}: {person}"
    assert figures.people["Boris"].dm <= figures.people["Boris"].decisions


async def test_daytonas_mention_of_the_player_on_move_goes_when_his_turn_ends(
    server: FakeTelegram, db_path: Path
) -> None:
    """Daytona races on the group's message: the warning is a silent mention
    of him there, deleted once his turn has passed."""
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open_and_start("daytona", timer=True)
        await advance(server, app, TURN * 0.7)
        (mention,) = [m for m in table.group_messages() if m.text.startswith("⏳")]
        assert mention.disable_notification
        assert not mention.deleted
        board = table.group_move()
        assert board is not None
        data = next(d for d in board.callback_datas if d.startswith("m:"))
        # The one not on move presses first (his press is refused and changes
        # nothing), then the one the mention names draws.
        on_move = table.players[0] if mention.text.startswith("⏳ Anna") else table.players[1]
        other = next(u for u in table.players if u != on_move)
        assert (await table.press(other, board, data)).get("show_alert")
        # A draw may keep the turn his (a deuce to count, a card that draws
        # again): the mention stays until the turn has passed.
        seat = table.players.index(on_move)
        for _ in range(20):
            assert not (await table.press(on_move, board, data)).get("show_alert")
            if seat not in probe.public_view().to_move:
                break
            assert not message(server, mention.chat_id, mention.message_id).deleted
            board = table.group_move()
            assert board is not None
            data = next(d for d in board.callback_datas if d.startswith("m:"))
        assert message(server, mention.chat_id, mention.message_id).deleted
