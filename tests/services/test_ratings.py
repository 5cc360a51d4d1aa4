"""Ratings on real SQLite with the fake clock: every game and team mode rated
against the Plackett-Luce update written out by hand, the computers'
ratings, partial play, the farming cap, trivial tables, a season's end, the
achievements of scripted games, and the recompute agreeing with the ratings
kept as games ended (and rating the games of a database from before them)."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.catalog import CATALOG
from bot.ratings import main
from games.core import Outcome, perform
from games.durak import Durak, DurakRules, Transfers
from games.durak.achievements import achievements
from games.joker import Joker, JokerRules
from services import Actor, Snapshot, Status
from services.ratings import ACROSS, DAILY_CAP, season_of
from storage import RatingEvent
from tests.backends import sweep
from tests.clock import FakeClock
from tests.postgres import execute
from tests.services.rating_reference import MU, SIGMA, plackett_luce, shown
from tests.services.world import GROUP, PEOPLE, SHORT_GAMES, World

ANNA, BORIS, VERA, GLEB = (p.id for p in PEOPLE)
DAY = 86_400.0


async def play_out(
    world: World, snapshot: Snapshot, seed: int = 5, *, computer_plays: int | None = None
) -> Snapshot:
    """Random legal moves for every waiting seat until the game ends; moves of
    seat ``computer_plays`` are made by a computer every other time (the seat
    a computer took over while its player was away)."""
    rng = random.Random(seed)
    table_id = snapshot.table.id
    turns = 0
    for _ in range(50_000):
        snapshot = await world.snapshot(table_id)
        if snapshot.table.status is not Status.PLAYING:
            return snapshot
        seat = rng.choice(sorted(s for s in snapshot.waits() if snapshot.legal(s)))
        code = rng.choice(snapshot.legal(seat)).encode()
        actor = Actor.PLAYER
        if seat == computer_plays:
            turns += 1
            actor = Actor.COMPUTER if turns % 2 else Actor.PLAYER
        await world.services.tables.act(table_id, seat, code, actor=actor)
    raise AssertionError("the game did not end")


async def events(world: World, table_id: int | None = None) -> list[RatingEvent]:
    async with world.services.db.read() as tx:
        return await tx.ratings.events(table_id=table_id)


async def outcome_of(world: World, table_id: int) -> Outcome:
    async with world.services.db.read() as tx:
        result = await tx.scores.result(table_id)
    assert result is not None
    return Outcome.from_json(result)


def expected(
    outcome: Outcome, teams: tuple[tuple[int, ...], ...], skills: dict[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """Per seat its skill after the game, by the hand-written update."""
    place = {seat: n for n, tied in enumerate(outcome.places) for seat in tied}
    groups = list(teams) if teams else [(seat,) for seat in sorted(place)]
    ranks = [min(place[s] for s in group) for group in groups]
    after = plackett_luce([[skills[s] for s in group] for group in groups], ranks)
    return {
        s: new
        for group, news in zip(groups, after, strict=True)
        for s, new in zip(group, news, strict=True)
    }


def by_who(rows: list[RatingEvent], scope: int) -> dict[str, RatingEvent]:
    return {e.who: e for e in rows if e.scope == scope}


async def test_rating_a_two_player_durak_moves_both_by_hand_computed_values(world: World) -> None:
    over = await play_out(world, await world.table("durak", people=2))
    outcome = await outcome_of(world, over.table.id)
    (loser,) = outcome.losers
    rows = await events(world, over.table.id)
    assert {(e.scope, e.season) for e in rows} == {(GROUP, "2027-01"), (ACROSS, "")}
    for scope in (GROUP, ACROSS):
        got = by_who(rows, scope)
        winner_who = f"u{PEOPLE[1 - loser].id}"
        loser_who = f"u{PEOPLE[loser].id}"
        # Two newcomers, 25 and 25/3 each: by the paper's formulas the winner
        # gains 2.6354 and the loser loses as much; both become surer.
        assert got[winner_who].mu_after == pytest.approx(27.635389493140497, abs=1e-9)
        assert got[loser_who].mu_after == pytest.approx(22.364610506859503, abs=1e-9)
        assert got[winner_who].sigma_after == pytest.approx(8.06590141354368, abs=1e-9)
        assert shown((got[winner_who].mu_after, got[winner_who].sigma_after)) == 1138
        assert shown((got[loser_who].mu_after, got[loser_who].sigma_after)) == 927
    changes = await world.services.ratings.of_table(over.table.id)
    assert sorted((c.before, c.after, c.provisional) for c in changes.changes) == [
        (1000, 927, True),
        (1000, 1138, True),
    ]
    # The shown value is the conservative mu - 3 sigma: both moved 2.6354 in
    # mu, and both sigmas shrank alike, lifting both by 32.5 points, hence
    # -73 / +138 for a symmetric update. The loser's peak is where he
    # started, not the 927 he fell to.
    card = await world.services.ratings.card(PEOPLE[loser].id)
    assert [(f.rating, f.peak, f.history) for f in card.families] == [(927, 1000, [1000, 927])]


@sweep(
    ("game", "preset", "people"),
    [
        ("durak", "teams", 4),
        ("durak", "podkidnoy", 4),
        ("durak", "perevodnoy", 3),
        ("101", None, 3),
        ("joker", None, 4),
        ("daytona", None, 3),
    ],
)
async def test_rating_every_game_and_team_mode_by_the_hand_written_update(
    world: World, game: str, preset: str | None, people: int
) -> None:
    """Two games in a row: the second starts from the first one's ratings."""
    spec = world.services.snapshots.spec(game)
    skills = dict.fromkeys(range(people), (MU, SIGMA))
    for seed in (3, 4):
        over = await play_out(
            world,
            await world.table(game, preset, people=people, options=SHORT_GAMES.get(game)),
            seed,
        )
        outcome = await outcome_of(world, over.table.id)
        teams = spec.teams(world.services.snapshots.rules_of(over.table), people)
        want = expected(outcome, teams, skills)
        got = by_who(await events(world, over.table.id), GROUP)
        for seat, (mu, sigma) in want.items():
            event = got[f"u{PEOPLE[seat].id}"]
            assert (event.mu_before, event.sigma_before) == pytest.approx(skills[seat])
            assert (event.mu_after, event.sigma_after) == pytest.approx((mu, sigma), abs=1e-9)
        skills = want
    families = {e.family for e in await events(world)}
    assert families == {f"{game}/{preset}" if game == "durak" else game}


async def test_rating_computers_learn_per_level_across_chats_and_face_people_in_the_chat(
    world: World,
) -> None:
    first = await world.table("durak", people=1, computers=1, level="easy")
    await world.play_people(first.table.id, random.Random(1))
    rows = await events(world, first.table.id)
    assert {(e.scope, e.who) for e in rows} == {(GROUP, "u1"), (ACROSS, "u1"), (ACROSS, "ceasy")}
    computer = by_who(rows, ACROSS)["ceasy"]
    assert (computer.mu_before, computer.sigma_before) == (MU, SIGMA)
    second = await world.table("durak", people=1, computers=1, level="easy")
    await world.play_people(second.table.id, random.Random(2))
    outcome = await outcome_of(world, second.table.id)
    later = await events(world, second.table.id)
    person = by_who(later, GROUP)["u1"]
    # In the chat the computer is the opponent it is across chats (as the
    # first game left it); it learns only across chats.
    want = expected(
        outcome,
        (),
        {0: (person.mu_before, person.sigma_before), 1: (computer.mu_after, computer.sigma_after)},
    )
    assert (person.mu_after, person.sigma_after) == pytest.approx(want[0], abs=1e-9)
    assert (by_who(later, ACROSS)["ceasy"].mu_before) == pytest.approx(computer.mu_after)
    top = await world.services.ratings.top("durak", ANNA)
    assert {line.level for line in top[0].top} == {None, "easy"}


async def test_rating_partial_play_counts_a_seat_for_its_person_by_his_share(
    world: World,
) -> None:
    over = await play_out(world, await world.table("durak", people=2), 7, computer_plays=1)
    history = await world.services.histories.of(over.table.id)
    shares = history.moves_by_seat()[1]
    share = 1 - shares["computer"] / sum(shares.values())
    assert 0.3 < share < 0.7
    outcome = await outcome_of(world, over.table.id)
    full = expected(outcome, (), {0: (MU, SIGMA), 1: (MU, SIGMA)})
    boris = by_who(await events(world, over.table.id), GROUP)["u2"]
    assert boris.share == pytest.approx(share)
    assert boris.mu_after == pytest.approx(MU + share * (full[1][0] - MU), abs=1e-9)
    assert boris.sigma_after == pytest.approx(SIGMA + share * (full[1][1] - SIGMA), abs=1e-9)
    anna = by_who(await events(world, over.table.id), GROUP)["u1"]
    assert anna.mu_after == pytest.approx(full[0][0], abs=1e-9)
    assert anna.share == 1.0


async def across(world: World, table_id: int) -> bool:
    async with world.services.db.read() as tx:
        game = await tx.ratings.rated_game(table_id)
    assert game is not None
    return game.across


async def test_rating_the_farming_cap_counts_three_games_a_day_with_the_same_company(
    world: World,
) -> None:
    counted = []
    for seed in range(DAILY_CAP + 1):
        over = await play_out(world, await world.table("durak", people=2), seed)
        counted.append(await across(world, over.table.id))
        assert by_who(await events(world, over.table.id), GROUP), "the chat rates every game"
    assert counted == [True, True, True, False]
    other = await play_out(world, await world.table("durak", people=3), 9)
    assert await across(world, other.table.id), "another company is another count"
    await world.advance(DAY)
    tomorrow = await play_out(world, await world.table("durak", people=2), 11)
    assert await across(world, tomorrow.table.id)


async def test_rating_skips_a_trivial_table_and_says_why(world: World) -> None:
    over = await play_out(world, await world.table("durak", "blind", people=2))
    assert await events(world, over.table.id) == []
    assert (await world.services.ratings.of_table(over.table.id)).skipped == "trivial"


async def test_rating_a_season_ends_with_the_month_and_is_told_once(world: World) -> None:
    ratings = world.services.ratings
    over = await play_out(world, await world.table("durak", people=2))
    outcome = await outcome_of(world, over.table.id)
    winner = PEOPLE[1 - next(iter(outcome.losers))]
    assert await ratings.seasons_ended() == []
    assert season_of(world.clock.now()) == "2027-01"
    await world.advance(20 * DAY)  # into February
    assert await ratings.standings(GROUP, "durak") == [], "the new season starts empty"
    (ended,) = await ratings.seasons_ended()
    assert (ended.chat_id, ended.season) == (GROUP, "2027-01")
    ((family, champion),) = ended.champions
    assert (family, champion.name) == ("durak/podkidnoy", winner.first_name)
    await ratings.season_told(GROUP, "2027-01")
    assert await ratings.seasons_ended() == []
    card = await ratings.card(winner.id, GROUP)
    assert [(f.family, f.peak, f.season_place) for f in card.families] == [
        ("durak/podkidnoy", 1138, None)
    ]


async def scripted(world: World, game: Durak, moves: list[tuple[int, str]]) -> int:
    """A two-person Durak table dealt as ``game``, played by ``moves``."""
    snapshot = await world.table("durak", people=game.seats)
    table = snapshot.table
    async with world.services.db.transaction() as tx:
        await tx.tables.update(table.id, table.version, state=game.dump(), deal=game.dump())
    table = (await world.snapshot(table.id)).table
    world.services.snapshots.remember(table, game, ())
    for seat, code in moves:
        await world.services.tables.act(table.id, seat, code, actor=Actor.PLAYER)
    assert (await world.snapshot(table.id)).table.status is Status.FINISHED
    return table.id


async def test_rating_achievements_of_scripted_games_are_given_once(world: World) -> None:
    # Boris beats Anna's last card and is left holding two sixes: pogony.
    def pinned() -> Durak:
        return Durak.position(DurakRules(), ["7c", "6s 6d 8c"], attacker=0, trump="h")

    first = await scripted(world, pinned(), [(0, "a7c"), (1, "b7c8c")])
    assert (await world.services.ratings.of_table(first)).achievements == [(BORIS, "pogony")]
    again = await scripted(world, pinned(), [(0, "a7c"), (1, "b7c8c")])
    assert (await world.services.ratings.of_table(again)).achievements == [], "once"
    card = await world.services.ratings.card(BORIS)
    assert card.achievements == ["pogony"]


def test_rating_achievements_dry_and_the_transfer_ring_from_scripted_games() -> None:
    ring = Durak.position(
        DurakRules(transfer=Transfers.TRANSFER),
        ["7c 9s 9d Tc Jc", "7d Ah", "7s Kh Ks", "7h Qh 6c Qs"],
        attacker=0,
        trump="h",
    )
    moves = [(0, "a7c"), (1, "x7d"), (2, "x7s"), (3, "x7h")]
    for seat, code in moves:
        perform(ring, seat, code)
    assert achievements(ring, moves) == {3: ("transfer_ring",)}
    dry = Durak.position(DurakRules(), ["7c", "8c 9d", "6s 6d"], attacker=0, trump="h")
    # Anna goes out first and never took: dry; Boris, left with everything,
    # holds no pair of sixes.
    moves = [(0, "a7c"), (1, "k"), (2, "a6s6d"), (1, "k")]
    for seat, code in moves:
        perform(dry, seat, code)
    assert achievements(dry, moves) == {0: ("dry",)}


def test_rating_achievements_a_khisht_in_jokers_last_deal() -> None:
    # The 24th deal's last trick: Anna bid one and takes nothing.
    game = Joker.position(
        JokerRules(),
        ["6h", "7h", "8h", "As"],
        trump="s",
        deal=23,
        bids=[1, 0, 0, 8],
        tricks=[0, 0, 0, 8],
        leader=0,
    )
    moves = [(0, "p6h"), (1, "p7h"), (2, "p8h"), (3, "pAs")]
    for seat, code in moves:
        perform(game, seat, code)
    assert game.outcome() is not None
    assert CATALOG.specs["joker"].rated.achievements(game, moves) == {0: ("last_khisht",)}


async def test_rating_recompute_agrees_with_the_ratings_kept_as_games_ended(
    world: World,
) -> None:
    for game, people, seed in [("durak", 3, 1), ("durak", 2, 2), ("101", 2, 3)]:
        await play_out(world, await world.table(game, people=people), seed)
    kept = await events(world)
    assert len(kept) >= 14
    assert await world.services.ratings.recompute() == 3
    again = await events(world)
    assert [(e.table_id, e.scope, e.who, e.mu_after, e.sigma_after) for e in again] == [
        (e.table_id, e.scope, e.who, e.mu_after, e.sigma_after) for e in kept
    ]


async def test_rating_a_database_from_before_ratings_is_rated_at_start(
    database: str, clock: FakeClock
) -> None:
    path = database
    async with World.open(path, clock) as world:
        for people, seed in [(2, 1), (3, 2)]:
            await play_out(world, await world.table("durak", people=people), seed)
        kept = await events(world)
    # What an earlier version left.
    for statement in (
        "DELETE FROM rating_events",
        "DELETE FROM rated_games",
        "DELETE FROM achievements",
    ):
        execute(path, statement)
    async with World.open(path, clock) as world:
        again = await events(world)
    assert [(e.table_id, e.who, e.mu_after) for e in again] == [
        (e.table_id, e.who, e.mu_after) for e in kept
    ]
    async with World.open(path, clock) as world:  # a restart rates nothing twice
        assert len(await events(world)) == len(kept)


async def test_rating_the_recompute_command_rates_the_stored_games_again_and_agrees(
    world: World, capsys: pytest.CaptureFixture[str]
) -> None:
    for people, seed in [(2, 1), (3, 2)]:
        await play_out(world, await world.table("durak", people=people), seed)
    kept = await events(world)
    code = await asyncio.to_thread(main, ["recompute", "--database", world.database])
    assert code == 0
    out = capsys.readouterr().out
    assert f"games rated: 2, rating events: {len(kept)}" in out
    assert "the ratings agree with the ones kept as games ended" in out
    again = await events(world)
    assert [(e.who, e.mu_after) for e in again] == [(e.who, e.mu_after) for e in kept]


async def test_rating_a_group_that_becomes_a_supergroup_keeps_its_ratings(world: World) -> None:
    await play_out(world, await world.table("durak", people=2))
    before = await world.services.ratings.standings(GROUP, "durak")
    assert await world.services.directory.migrate_chat(GROUP, -1009)
    assert await world.services.ratings.standings(GROUP, "durak") == []
    assert await world.services.ratings.standings(-1009, "durak") == before
