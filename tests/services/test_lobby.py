"""The lobby, computers at the table, cancel, kick, the bot leaving a group."""

from __future__ import annotations

import random

import pytest

from games.core import IllegalAction
from services import ServiceError, Setting, Snapshot
from storage import Actor, DatabaseError, EndReason, OnAbsence, Status
from tests.services.world import GROUP, PEOPLE, World, fail_commits

ANNA, BORIS, VERA, GLEB = PEOPLE


async def test_seating_people_and_computers(world: World) -> None:
    lobby = world.services.lobby
    snapshot = await world.table(start=False)
    table_id = snapshot.table.id
    assert [s.user_id for s in snapshot.table.seats] == [ANNA.id, BORIS.id]
    assert snapshot.table.turn_seconds == 60
    assert snapshot.table.on_absence is OnAbsence.COMPUTER

    await lobby.add_computer(table_id, ANNA)
    await lobby.add_computer(table_id, ANNA)
    seats = (await world.snapshot(table_id)).table.seats
    assert [(s.user_id, s.computer) for s in seats[2:]] == [(None, 1), (None, 2)]
    with pytest.raises(ServiceError) as not_creator:
        await lobby.add_computer(table_id, BORIS)
    assert not_creator.value.key == "error.only_creator_options"
    await lobby.remove_computer(table_id, ANNA)
    seats = (await world.snapshot(table_id)).table.seats
    assert [s.computer for s in seats] == [None, None, 1]

    with pytest.raises(ServiceError) as seated:
        await lobby.join(table_id, BORIS)
    assert seated.value.key == "error.already_seated"
    await world.services.directory.set_dm_ok(VERA.id, False)  # she blocked the bot
    joined = await lobby.join(table_id, VERA)
    # Seated all the same: her hands come to her in the group (ephemeral).
    assert VERA.id in {s.user_id for s in joined.table.seats}


async def test_a_leaving_creator_hands_the_table_on_and_an_empty_lobby_closes(
    world: World,
) -> None:
    lobby = world.services.lobby
    snapshot = await world.table(start=False, computers=1)
    table_id = snapshot.table.id
    after = await lobby.leave(table_id, ANNA)
    assert after.table.creator_id == BORIS.id
    assert [s.user_id for s in after.table.seats] == [BORIS.id, None]
    closed = await lobby.leave(table_id, BORIS)
    assert closed.table.status is Status.CANCELLED
    assert closed.table.end_reason is EndReason.CANCELLED


async def test_options_and_settings_cycle_and_freeze_at_start(world: World) -> None:
    lobby = world.services.lobby
    snapshot = await world.table(start=False)
    table_id = snapshot.table.id
    after = await lobby.cycle_option(table_id, ANNA, "deck_size")
    assert after.rules.deck_size == 52  # type: ignore[attr-defined]
    turns = [after.table.turn_seconds]
    for _ in range(5):
        after = await lobby.cycle_setting(table_id, ANNA, Setting.TURN)
        turns.append(after.table.turn_seconds)
    # Up from the default 1 min, then no limit, then round from the shortest.
    assert turns == [60, 120, 300, 0, 30, 60]
    after = await lobby.cycle_setting(table_id, ANNA, Setting.ABSENCE)
    assert after.table.on_absence is OnAbsence.REMOVE
    levels = [after.table.computer_level]
    for _ in range(3):
        levels.append(
            (await lobby.cycle_setting(table_id, ANNA, Setting.LEVEL)).table.computer_level
        )
    assert levels == ["hard", "normal", "easy", "hard"]
    with pytest.raises(ServiceError) as not_creator:
        await lobby.cycle_setting(table_id, BORIS, Setting.LEVEL)
    assert not_creator.value.key == "error.only_creator_options"
    with pytest.raises(ServiceError):
        await lobby.cycle_option(table_id, ANNA, "no_such_option")
    await lobby.start(table_id, ANNA, is_admin=False)
    with pytest.raises(ServiceError) as frozen:
        await lobby.cycle_setting(table_id, ANNA, Setting.TURN)
    assert frozen.value.key == "error.not_in_lobby"


async def test_no_level_to_choose_where_every_level_plays_alike(world: World) -> None:
    """Daytona's computers play alike at every level: the lobby's level is not
    a choice there (it would change nothing), while Durak's is."""
    daytona = await world.table("daytona", computers=1, start=False)
    assert not daytona.levels_differ
    with pytest.raises(ServiceError) as refused:
        await world.services.lobby.cycle_setting(daytona.table.id, ANNA, Setting.LEVEL)
    assert refused.value.key == "error.bad_button"
    await world.services.moderation.cancel(daytona.table.id, ANNA, is_admin=False)
    durak = await world.table("durak", computers=1, start=False)
    assert durak.levels_differ
    changed = await world.services.lobby.cycle_setting(durak.table.id, ANNA, Setting.LEVEL)
    assert changed.table.computer_level == "normal"


async def test_cancel_ends_a_running_game_without_scores(world: World) -> None:
    snapshot = await world.table(turn=30)
    table_id = snapshot.table.id
    with pytest.raises(ServiceError) as refused:
        await world.services.moderation.cancel(table_id, BORIS, is_admin=False)
    assert refused.value.key == "error.only_creator_cancels"
    cancelled = await world.services.moderation.cancel(table_id, BORIS, is_admin=True)
    assert cancelled.table.status is Status.CANCELLED
    assert cancelled.deadlines == {}
    assert await world.services.scores.leaderboard(GROUP) == {}
    await world.advance(120)
    assert (await world.snapshot(table_id)).table.moves == 0


async def test_kick_unseats_in_the_lobby_and_removes_from_a_game(world: World) -> None:
    moderation = world.services.moderation
    lobby = await world.table(people=3, start=False)
    after = await moderation.kick(lobby.table.id, VERA.id, ANNA, is_admin=False)
    assert VERA.id not in {s.user_id for s in after.table.seats}
    await world.services.moderation.cancel(lobby.table.id, ANNA, is_admin=False)

    game = await world.table("101", people=3, turn=0)
    with pytest.raises(ServiceError) as not_creator:
        await moderation.kick(game.table.id, VERA.id, BORIS, is_admin=False)
    assert not_creator.value.key == "error.only_creator_kicks"
    with pytest.raises(ServiceError) as stranger:
        await moderation.kick(game.table.id, GLEB.id, ANNA, is_admin=False)
    assert stranger.value.key == "error.kick_not_seated"
    after = await moderation.kick(game.table.id, VERA.id, ANNA, is_admin=False)
    vera = after.table.seat_of(VERA.id)
    assert vera is not None
    assert vera in after.public.eliminated
    assert after.table.status is Status.PLAYING  # 101 goes on without her


async def test_a_creator_removed_from_his_lobby_hands_it_on_as_when_he_leaves(
    world: World,
) -> None:
    moderation = world.services.moderation
    lobby = await world.table(people=2, computers=1, start=False)
    after = await moderation.kick(lobby.table.id, ANNA.id, ANNA, is_admin=False)
    assert after.table.creator_id == BORIS.id  # Boris may start, change and kick now
    assert after.table.status is Status.LOBBY
    emptied = await moderation.kick(lobby.table.id, BORIS.id, BORIS, is_admin=False)
    assert emptied.table.status is Status.CANCELLED  # a computer alone keeps no lobby


async def test_rematch_seats_the_same_people_and_computers(world: World) -> None:
    snapshot = await world.table(computers=1, turn=0, level="normal")
    table_id = snapshot.table.id
    await world.play_people(table_id, random.Random(3))
    assert (await world.snapshot(table_id)).table.status is Status.FINISHED
    again = await world.services.lobby.rematch(table_id, BORIS)
    assert again.table.status is Status.LOBBY
    assert again.table.creator_id == BORIS.id
    assert [(s.user_id, s.computer) for s in again.table.seats] == [
        (ANNA.id, None),
        (BORIS.id, None),
        (None, 1),
    ]
    assert again.table.turn_seconds == 0
    assert again.table.computer_level == "normal"
    with pytest.raises(ServiceError) as twice:
        await world.services.lobby.rematch(table_id, ANNA)
    assert twice.value.key == "error.already_in_rematch"


@pytest.mark.parametrize("how", ["leave", "leave_removed", "kick"])
async def test_a_rematch_does_not_seat_again_who_left_the_game(world: World, how: str) -> None:
    """Boris left the running game (``/leave``; or /kick removed him), the
    others played it out, and Anna's rematch sat him down again: its game
    would wait on a man who had gone.  He is left out (a rematch press of his
    own seats him, as anybody's)."""
    snapshot = await world.table(people=3, turn=60, remove_absent=how == "leave_removed")
    table_id = snapshot.table.id
    if how == "kick":
        await world.services.moderation.kick(table_id, BORIS.id, ANNA, is_admin=False)
    else:
        await world.services.lobby.leave(table_id, BORIS)
    rng = random.Random(5)
    for _ in range(5000):
        await world.advance(2.0)
        snapshot = await world.snapshot(table_id)
        if snapshot.table.status is not Status.PLAYING:
            break
        movers = [
            s.seat
            for s in snapshot.table.seats
            if s.user_id in (ANNA.id, VERA.id) and snapshot.legal(s.seat)
        ]
        if movers:
            seat = rng.choice(movers)
            user_id = snapshot.seat(seat).user_id
            assert user_id is not None
            code = rng.choice(snapshot.legal(seat)).encode()
            await world.services.tables.press(table_id, user_id, code, at_move=snapshot.table.moves)
    assert snapshot.table.status is Status.FINISHED
    again = await world.services.lobby.rematch(table_id, ANNA)
    assert [s.user_id for s in again.table.seats] == [ANNA.id, VERA.id]
    joined = await world.services.lobby.rematch(table_id, BORIS)
    assert [s.user_id for s in joined.table.seats] == [ANNA.id, VERA.id, BORIS.id]


@pytest.mark.parametrize("remove_absent", [False, True])
async def test_leave_of_a_player_already_out_of_the_game_says_so(
    world: World, remove_absent: bool
) -> None:
    """Boris went out of a durak of three (no cards left: he is safe) and sent
    «/leave» to go home.  Where absentees leave, the refusal read «Этот игрок
    уже не в игре.», of someone else; where a computer plays for them, the
    group read that 🤖 would play his seat from now on, which has nothing
    left to play.  He is told he is out of the game already, and nothing
    changes."""
    snapshot = await world.table(people=3, turn=60, remove_absent=remove_absent)
    table_id = snapshot.table.id
    rng = random.Random(1)

    def out(snapshot: Snapshot, seat: int) -> bool:
        try:
            world.services.snapshots.game(snapshot.table).clone().resign(seat)
        except IllegalAction:
            return True
        return False

    for _ in range(5000):
        snapshot = await world.snapshot(table_id)
        assert snapshot.table.status is Status.PLAYING
        if out(snapshot, 1):
            break
        seat = rng.choice(sorted(s for s in snapshot.waits() if snapshot.legal(s)))
        code = rng.choice(snapshot.legal(seat)).encode()
        await world.services.tables.act(table_id, seat, code, actor=Actor.PLAYER)
    with pytest.raises(ServiceError) as refused:
        await world.services.lobby.leave(table_id, BORIS)
    assert refused.value.key == "error.out_already"
    after = await world.snapshot(table_id)
    assert not after.table.seats[1].absent
    assert after.table.moves == snapshot.table.moves


async def test_the_bot_removed_from_a_group_ends_its_tables(world: World) -> None:
    game = await world.table(turn=30)
    closed = await world.services.moderation.bot_removed(GROUP)
    assert [s.table.id for s in closed] == [game.table.id]
    after = await world.snapshot(game.table.id)
    assert after.table.status is Status.CANCELLED
    assert after.table.end_reason is EndReason.BOT_REMOVED
    assert after.deadlines == {}


async def test_a_table_needs_a_person(world: World) -> None:
    lobby = world.services.lobby
    snapshot = await world.table(people=1, computers=2, start=False)
    table_id = snapshot.table.id
    await lobby.leave(table_id, ANNA)
    closed = await world.snapshot(table_id)
    assert closed.table.status is Status.CANCELLED  # computers alone do not keep it open


async def test_teams_are_shuffled_or_picked_by_the_creator_and_need_4_or_6(world: World) -> None:
    lobby = world.services.lobby
    snapshot = await world.table("durak", "teams", people=4, start=False)
    table_id = snapshot.table.id
    people = [s.user_id for s in snapshot.table.seats]
    assert people == [ANNA.id, BORIS.id, VERA.id, GLEB.id]
    # Vera moves to the other team: she changes places with Gleb.
    after = await lobby.switch_team(table_id, ANNA, 2)
    assert [s.user_id for s in after.table.seats] == [ANNA.id, BORIS.id, GLEB.id, VERA.id]
    with pytest.raises(ServiceError) as not_creator:
        await lobby.switch_team(table_id, BORIS, 0)
    assert not_creator.value.key == "error.only_creator_options"
    with pytest.raises(ServiceError):
        await lobby.switch_team(table_id, ANNA, 4)  # no such seat
    shuffled = await lobby.shuffle_teams(table_id, ANNA)
    assert sorted(s.user_id for s in shuffled.table.seats) == sorted(people)  # type: ignore[type-var]
    assert [s.seat for s in shuffled.table.seats] == [0, 1, 2, 3]
    await lobby.add_computer(table_id, ANNA)
    with pytest.raises(ServiceError) as odd:
        await lobby.start(table_id, ANNA, is_admin=False)
    assert odd.value.key == "error.seat_counts"
    assert odd.value.params == {"counts": "4, 6"}
    await lobby.remove_computer(table_id, ANNA)
    started = await lobby.start(table_id, ANNA, is_admin=False)
    assert started.table.status is Status.PLAYING
    assert started.public.teams == ((0, 2), (1, 3))


async def test_a_table_without_teams_has_nothing_to_shuffle(world: World) -> None:
    snapshot = await world.table(start=False)
    with pytest.raises(ServiceError) as refused:
        await world.services.lobby.shuffle_teams(snapshot.table.id, ANNA)
    assert refused.value.key == "error.no_teams"


async def test_presets_the_seated_players_do_not_fit_are_passed_over(world: World) -> None:
    lobby = world.services.lobby
    snapshot = await world.table(people=4, computers=1, start=False)
    table_id = snapshot.table.id
    seen = []
    for _ in range(12):
        after = await lobby.cycle_preset(table_id, ANNA)
        seen.append(after.spec.preset_name(after.rules))
    assert "akulina" not in seen  # two to four players
    assert {"teams", "blind", "believe", "diamonds", "podkidnoy"} <= set(seen)
    while (now := await world.snapshot(table_id)).spec.preset_name(now.rules) != "podkidnoy":
        await lobby.cycle_preset(table_id, ANNA)
    with pytest.raises(ServiceError) as refused:
        await lobby.cycle_option(table_id, ANNA, "deck_size")  # 52, then 24: four at most
        await lobby.cycle_option(table_id, ANNA, "deck_size")
    assert refused.value.key == "error.too_many_for_option"
    assert refused.value.params == {"n": 4}


@pytest.mark.parametrize("remove_absent", [False, True])
async def test_leaving_a_running_game_is_told_only_once_committed(
    world: World, monkeypatch: pytest.MonkeyPatch, remove_absent: bool
) -> None:
    """A /leave whose transaction fails to commit changes nothing anybody sees:
    neither the observers (the group's message) nor the game cache."""
    snapshot = await world.table(people=3, turn=30, remove_absent=remove_absent)
    table_id = snapshot.table.id
    seen = len(world.seen.snapshots)
    fail_commits(world.services.db, monkeypatch)
    with pytest.raises(DatabaseError):
        await world.services.tables.leave(table_id, VERA.id)
    monkeypatch.undo()
    assert len(world.seen.snapshots) == seen
    after = await world.snapshot(table_id)
    vera = after.table.seat_of(VERA.id)
    assert after.table.moves == snapshot.table.moves
    assert vera is not None
    assert not after.seat(vera).absent


async def test_a_leave_as_the_game_starts_leaves_the_running_game(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/leave read the table as a lobby, the game started meanwhile, and the
    player was told "the game is on: you cannot leave now", though a running
    game may be left."""
    snapshot = await world.table(people=3, start=False)
    table_id = snapshot.table.id
    as_a_lobby = snapshot.table
    await world.services.lobby.start(table_id, ANNA, is_admin=False)

    async def read_before_the_start(_: int) -> object:
        return as_a_lobby

    monkeypatch.setattr(world.services.snapshots, "table", read_before_the_start)
    after = await world.services.lobby.leave(table_id, VERA)
    vera = after.table.seat_of(VERA.id)
    assert after.table.status is Status.PLAYING
    assert vera is not None
    assert after.seat(vera).absent
