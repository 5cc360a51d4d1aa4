"""Replays of every game and variant: refused while the game is played, then
every frame from the deal to the last move, each painted by the game's own
screens, the last one the game as it ended; the buttons step through them all."""

from __future__ import annotations

import random
import re

import pytest

from bot.catalog import CATALOG
from delivery import callback_data as cd
from delivery.replay_messages import replay_message
from screens.common import names_of
from screens.replay import replay_frames, replay_text
from services import ServiceError
from storage import Actor
from tests.backends import sweep
from tests.services.world import GROUP, PEOPLE, World

VARIANTS = [(game, preset) for game, spec in CATALOG.specs.items() for preset in spec.presets]
TELEGRAM_TEXT = 4096
"""Characters a message's text may have (once its HTML tags are parsed)."""


def _visible(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


@sweep(("game", "preset"), VARIANTS)
async def test_every_variant_replays_every_move_from_the_deal_to_its_end(
    world: World, game: str, preset: str
) -> None:
    spec, screens = CATALOG.specs[game], CATALOG.screens[game]
    people = max(2, spec.seat_range(spec.presets[preset]).start)
    snapshot = await world.table(game, preset, people=people)
    replays = world.services.replays
    # Nothing hidden while the game is played: no replay of it at all.
    with pytest.raises(ServiceError) as early:
        await replays.of(snapshot.table.id)
    assert early.value.key == "replay.in_play"
    with pytest.raises(ServiceError) as none:
        await replays.find(GROUP, PEOPLE[0].id, None)
    assert none.value.key == "replay.none"

    over = await world.play_out(snapshot.table.id, 5)
    table = over.table
    history = await replays.find(GROUP, PEOPLE[0].id, None)
    assert history.table.id == table.id
    assert (await replays.find(None, PEOPLE[1].id, None)).table.id == table.id  # his DM
    frames = list(replay_frames("ru", history, screens))
    assert len(frames) == table.moves + 1
    assert "Раздача" in frames[0]
    for at, frame in enumerate(frames[1:], 1):
        assert f"Ход {at} из {table.moves}: " in frame
        assert len(_visible(frame)) <= TELEGRAM_TEXT, (at, len(_visible(frame)))
    for frame in frames:
        # Whoever watches, nobody's hand is called his: "Ваши карты" under
        # Boris's name was Anna's replay telling her Boris's cards were hers.
        assert not re.search(r"\b(Ваш|Вы|вас|вам)\b", _visible(frame)), frame

    # The last frame is the game as it ended: the table and every hand painted
    # from the final state's own views.
    final = spec.game.load(table.state or {})
    names = names_of("ru", table)
    ended = screens.table("ru", final.public_view(), names, live=False).text
    assert ended in frames[-1]
    if spec.private_hands:
        views = [final.view(seat) for seat in range(people)]
        assert "<b>Карты на руках</b>" in frames[-1]
        for seat in range(people):
            held = screens.held("ru", views, seat) or "нет карт"
            assert f"<b>{names[seat]}</b>: {held}\n" in frames[-1] + "\n"
    middle = table.moves // 2
    for at in (0, middle, table.moves):
        assert replay_text("ru", history, screens, at) == frames[at]

    # ▶ from the deal reaches every move, ⏭ the end, ⏮ the deal again.
    at, seen = 0, [0]
    while True:
        _, keys = replay_message("ru", history, screens, at, PEOPLE[0].id)
        assert keys is not None
        pressed = {b.label: cd.parse(b.data) for row in keys for b in row}
        if at == table.moves:
            assert set(pressed) == {"⏮", "◀"}
            assert pressed["⏮"] == cd.ReplayButton(table.id, 0, PEOPLE[0].id)
            break
        step = pressed["▶"]
        assert isinstance(step, cd.ReplayButton)
        assert pressed["⏭"] == cd.ReplayButton(table.id, table.moves, PEOPLE[0].id)
        at = step.at
        seen.append(at)
        if at > 3 and at < table.moves - 3:
            at = table.moves - 3  # the rest of the way was checked frame by frame above
            seen.append(at)
    assert seen[:4] == [0, 1, 2, 3]


async def test_a_replay_is_refused_for_a_table_elsewhere_never_dealt_or_unknown(
    world: World,
) -> None:
    replays = world.services.replays
    over = await world.play_out((await world.table("durak")).table.id, 5)
    for chat, table_id in ((GROUP, 10_000), (GROUP - 1, over.table.id)):
        with pytest.raises(ServiceError) as unknown:
            await replays.find(chat, PEOPLE[0].id, table_id)
        assert unknown.value.key == "replay.unknown"
    # In a DM any finished table by its number: its cards are public once over.
    assert (await replays.find(None, PEOPLE[3].id, over.table.id)).table.id == over.table.id
    with pytest.raises(ServiceError) as never:
        await replays.find(None, PEOPLE[3].id, None)  # Gleb played no game
    assert never.value.key == "replay.none"
    lobby = await world.table("durak", start=False)
    await world.services.moderation.cancel(lobby.table.id, PEOPLE[0], is_admin=False)
    with pytest.raises(ServiceError) as undealt:
        await replays.of(lobby.table.id)
    assert undealt.value.key == "replay.unknown"


async def test_a_blind_players_cards_are_face_up_in_the_replay(world: World) -> None:
    """Blind Durak: each player's own cards are backs to him; the replay shows
    them face up under his name, read from what the others see."""
    snapshot = await world.table("durak", "blind", people=2)
    over = await world.play_out(snapshot.table.id, 5)
    history = await world.services.replays.of(over.table.id)
    deal = replay_text("ru", history, CATALOG.screens["durak"], 0)
    hands = deal.split("<b>Карты на руках</b>\n")[1].splitlines()
    assert [line.split("</b>: ")[0] for line in hands] == ["<b>Anna", "<b>Boris"]
    for line in hands:
        cards = line.split("</b>: ", 1)[1]
        assert "🂠" not in cards
        assert len(_visible(cards).split()) == 6  # the deal, every card by its face


async def test_a_replay_marks_the_moves_nobody_pressed_for(world: World) -> None:
    """Boris left the game by «/leave» and a computer played his seat; the
    replay read «Boris ходит: 9♠️» for its moves, as if his, where the live
    table had read «🤖 Boris ходит: 9♠️».  Moves a computer or the timer made
    for a person are marked as the group saw them."""
    anna, boris = PEOPLE[0], PEOPLE[1]
    snapshot = await world.table(people=2, turn=60)
    table_id = snapshot.table.id
    await world.services.lobby.leave(table_id, boris)
    await world.play_people(table_id, random.Random(3), only={anna.id})
    history = await world.services.replays.of(table_id)
    screens = CATALOG.screens["durak"]
    seen = set()
    for at, move in enumerate(history.moves, 1):
        line = replay_text("ru", history, screens, at).splitlines()[1]
        seen.add(move.actor)
        if move.actor is Actor.COMPUTER:
            assert "🤖 " in line, line
        else:
            assert "🤖" not in line, line
    assert seen == {Actor.PLAYER, Actor.COMPUTER}
