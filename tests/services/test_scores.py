"""The leaderboard's order: share of wins from MIN_GAMES games, a draw half a
win, more games first among equal shares, newcomers apart."""

from __future__ import annotations

from services import MIN_GAMES
from services.scores import SHOWN
from storage import ScoreDelta
from tests.services.world import GROUP, PEOPLE, World

ANNA, BORIS, VERA, GLEB = (p.id for p in PEOPLE)


async def results(world: World, user_id: int, *games: str, computers: bool = False) -> None:
    """Games of one player, each ``w`` (won), ``l`` (lost) or ``d`` (drawn)."""
    async with world.services.db.transaction() as tx:
        for game in games:
            delta = ScoreDelta(user_id, game == "w", game == "l", game == "d")
            await tx.scores.add(GROUP, "durak", [delta], with_computers=computers)


async def test_the_share_of_wins_ranks_and_one_lucky_game_does_not(world: World) -> None:
    assert MIN_GAMES == 3
    await results(world, ANNA, *"wwwwwwllll")  # 60 %, the most wins
    await results(world, BORIS, *"wwwd")  # 87.5 %: a draw is half a win
    await results(world, VERA, *"wwl")  # 66.7 %
    await results(world, GLEB, "w")  # one game: not ranked yet
    await results(world, GLEB, *"wwwwww", computers=True)  # against computers: not here
    board = await world.services.scores.leaderboard(GROUP)
    standings = board["durak"]
    assert [r.first_name for r in standings.ranked] == ["Boris", "Vera", "Anna"]
    assert [(r.first_name, r.played) for r in standings.newcomers] == [("Gleb", 1)]


async def test_equal_shares_rank_the_one_who_played_more_first(world: World) -> None:
    await results(world, ANNA, *"wwwl")  # 75 % of 4
    await results(world, BORIS, *"wwwwwwll")  # 75 % of 8
    await results(world, VERA, "l", "w")  # two games
    await results(world, GLEB, "w")
    standings = (await world.services.scores.leaderboard(GROUP))["durak"]
    assert [r.first_name for r in standings.ranked] == ["Boris", "Anna"]
    assert [r.first_name for r in standings.newcomers] == ["Vera", "Gleb"]  # most games first
    assert len(standings.ranked) + len(standings.newcomers) <= SHOWN
