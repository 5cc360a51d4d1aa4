"""The seed options of issue 30 through the real bot, each switched on in the
lobby and played: two-player Joker (a whole short game), a joker at face
value (pressed in the first deal, which is played out and scored), and
diamonds durak's turned spade making the game ordinary podkidnoy (a whole
game), and the dealer naming the trump over a turned spade by his buttons
(a whole game)."""

from __future__ import annotations

import random
from pathlib import Path

from games.cards import Suit
from games.joker.actions import FaceValue
from players import JokerHeuristic
from playground.botapi import FakeTelegram
from tests.e2e.harness import Probe, Table, bot_config, running_bot, seat_players
from tests.e2e.test_joker import press_action, state
from tests.e2e.test_seats import add_computers

FACE_VALUE_SEED = 10
"""Deals the first seat a joker in the first deal (found offline)."""
SPADE_TURNED_SEED = 3
"""Deals diamonds durak for two with a spade turned up (found offline)."""


async def set_options(table: Table, labels: list[str]) -> None:
    """The creator presses each option button (by the start of its label) once."""
    creator = table.players[0]
    await table.press(creator, table.lobby(), table.lobby().callback_data("⚙️"))
    for label in labels:
        await table.press(creator, table.lobby(), table.lobby().callback_data(label))
    await table.press(creator, table.lobby(), table.lobby().callback_data("« Назад"))


async def test_two_player_joker_two_people_play_a_short_game_to_the_sheet(
    server: FakeTelegram, db_path: Path
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path)) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open("joker")
        await table.press(table.players[1], table.lobby(), table.lobby().callback_data("🙋"))
        await set_options(table, ["⬜ Можно вдвоём", "Сдачи", "Сдачи"])
        assert "можно вдвоём" in table.lobby().text
        assert "12 сдач" in table.lobby().text
        await table.set_turn_time("без лимита")
        await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))
        assert probe.table()[0] == "playing"
        await table.play_to_the_end(max_moves=2000, probe=probe)
        assert probe.table()[0] == "finished"
        view = state(db_path).public_view()
        assert view.seats == 2
        assert len(view.sheet) == 12
        assert all(len(row.bids) == 2 for row in view.sheet)
        assert any(m.kind == "photo" and "🏁" in m.caption for m in table.group_messages())
        await table.command(table.players[0], "/rules joker")
        rules = server.last_bot_message(table.group_id)
        assert rules is not None
        assert "по уговору — двое" in rules.text
        assert "«по номиналу» — как 6♠ или 6♣" in rules.text


async def test_face_value_a_person_plays_a_joker_as_its_six_by_the_buttons(
    server: FakeTelegram, db_path: Path
) -> None:
    heuristic = JokerHeuristic()
    async with running_bot(bot_config(server, db_path), seeds=lambda: FACE_VALUE_SEED) as app:
        table = seat_players(server, ["Anna"], app)
        await table.open("joker")
        await add_computers(table, 3)
        await set_options(table, ["⬜ Джокер по номиналу", "Сдачи", "Сдачи"])
        await table.set_turn_time("без лимита")
        anna = table.players[0]
        await table.press(anna, table.lobby(), table.lobby().callback_data("▶️"))
        rng = random.Random(1)
        played: FaceValue | None = None
        while played is None:
            game = state(db_path)
            assert not game.is_over, "Anna never held a joker to play at face value"
            legal = game.legal_actions(0)
            faces = [a for a in legal if isinstance(a, FaceValue)]
            action = faces[0] if faces else heuristic.choose(game.rules, game.view(0), legal, rng)
            await press_action(table, anna, action.encode())
            if faces:
                played = faces[0]
        six = "6♠" if played.counts_as.suit is Suit.SPADES else "6♣"
        said = "\n".join(text for m in server.chat_messages(anna) for text in m.history)
        assert f"как {six}" in said
        # The game is played out (its short schedule) with the option on: the
        # deal with the joker played as a six is scored like any other.
        await table.play_to_the_end(max_moves=3000, probe=Probe(db_path))
        final = state(db_path)
        assert final.is_over
        first, *_ = final.public_view().sheet
        assert first.cards == 1
        assert sum(first.tricks) == 1
        assert any("🏁" in m.body for m in table.group_messages())


async def test_spade_turned_podkidnoy_a_diamonds_game_with_a_turned_spade_is_played_out(
    server: FakeTelegram, db_path: Path
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path), seeds=lambda: SPADE_TURNED_SEED) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open("durak", "diamonds")
        await table.press(table.players[1], table.lobby(), table.lobby().callback_data("🙋"))
        await set_options(table, ["Козырь: ", "Козырь: "])
        assert "открытая пика — обычный подкидной" in table.lobby().text
        await table.set_turn_time("без лимита")
        await table.press(table.players[0], table.lobby(), table.lobby().callback_data("▶️"))
        view = probe.public_view()
        assert view.trump is Suit.SPADES
        assert view.trump_card.suit is Suit.SPADES
        await table.play_to_the_end(probe=probe)
        assert probe.table()[0] == "finished"


async def test_spade_turned_named_the_dealer_names_the_trump_by_a_button(
    server: FakeTelegram, db_path: Path
) -> None:
    probe = Probe(db_path)
    async with running_bot(bot_config(server, db_path), seeds=lambda: SPADE_TURNED_SEED) as app:
        table = seat_players(server, ["Anna", "Boris"], app)
        await table.open("durak", "diamonds")
        await table.press(table.players[1], table.lobby(), table.lobby().callback_data("🙋"))
        await set_options(table, ["Козырь: ", "Козырь: ", "Козырь: "])
        assert "козырь (не пики) назначает сдающий" in table.lobby().text
        await table.set_turn_time("без лимита")
        anna, boris = table.players
        await table.press(anna, table.lobby(), table.lobby().callback_data("▶️"))
        assert probe.public_view().phase.value == "name"
        assert "Козырь назначает Anna" in table.group_messages()[0].text
        assert table.hand(boris) is None  # only the dealer has buttons
        hand = table.hand(anna)
        assert hand is not None
        assert "назначьте козырь" in hand.text
        assert len([d for d in hand.callback_datas if d.startswith("m:")]) == 3
        data = next(d for d in hand.callback_datas if d.endswith(":Nh"))
        answer = await table.press(anna, hand, data)
        assert not answer.get("show_alert"), answer
        view = probe.public_view()
        assert view.trump is Suit.HEARTS
        assert view.trump_card.suit is Suit.SPADES
        assert "назначен" in table.group_messages()[0].text
        await table.play_to_the_end(probe=probe)
        assert probe.table()[0] == "finished"
