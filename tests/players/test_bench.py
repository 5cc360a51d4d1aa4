"""The players' benchmarks run (a couple of games per line)."""

from __future__ import annotations

import re

import pytest

from bench import arena
from bench.players import main
from bot.catalog import CATALOG
from players import going_round
from players.computer import Trial
from players.levels import Level


def test_bench_prints_a_line_per_match_up(capsys: pytest.CaptureFixture[str]) -> None:
    lines = main(["--games", "2"])
    out = capsys.readouterr().out
    assert len(lines) == len(out.strip().splitlines()) - 2
    assert {line.game for line in lines} == set(CATALOG.specs)
    assert all(0 <= line.wins <= line.games == 2 for line in lines)


def test_the_arena_prints_a_line_per_pairing(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        arena.main(["--only", "daytona", "--deals", "1", "--scale", "0.02", "--workers", "1"]) == 0
    )
    out = capsys.readouterr().out.splitlines()
    rows = [line for line in out if line.startswith("daytona")]
    assert [row.split()[2] for row in rows] == ["always2", "heuristic", "search"]
    assert all("won" in row and "mean score" in row for row in rows)
    assert "endless" not in "\n".join(rows)


def test_the_arena_measures_the_search_against_a_reference_player(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--only", "durak", "--against", "pimc", "--deals", "1", "--scale", "0.01"]
    assert arena.main([*argv, "--workers", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [line for line in out if line.startswith("durak")]
    assert [(row.split()[1], row.split()[4]) for row in rows] == [("2", "pimc"), ("4", "pimc")]
    assert all("won" in row and "theirs" in row for row in rows)
    assert all("untimed" in row for row in rows)  # both sides spend their whole move budget
    assert "each of them" in rows[1]
    games = [row.split()[5] for row in rows]
    assert games == ["2", "4"]  # one deal, played from every seat


def test_the_arena_plays_a_teams_variant_line_side_against_side(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--only", "durak", "--preset", "teams", "--deals", "1", "--scale", "0.01"]
    assert arena.main([*argv, "--workers", "1"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("durak")]
    assert [row.split()[:6] for row in rows] == [
        ["durak/teams", "4", "search", "vs", "heuristic", "2"]  # one deal, from each side
    ]
    assert "first out" not in rows[0]  # the side wins or loses together


def test_quick_leaves_the_variant_lines_out(capsys: pytest.CaptureFixture[str]) -> None:
    assert arena.main(["--only", "durak", "--preset", "believe", "--quick"]) == 0
    assert not [line for line in capsys.readouterr().out.splitlines() if "durak" in line]


def test_the_arena_says_what_the_levels_mean_and_whether_each_aim_is_met(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--only", "durak", "--against", "normal", "--deals", "1", "--scale", "0.01"]
    # Untimed: at this scale a loaded machine's clock could end a search before one world.
    assert arena.main([*argv, "--untimed", "--workers", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [line for line in out if line.startswith("durak")]
    assert [row.split()[2:5] for row in rows] == [
        ["search", "vs", "normal"],  # the hard level against the normal one
        ["heuristic", "vs", "normal"],  # the easy level against the normal one
    ]
    assert "aim won >= 60%: " in rows[0]
    assert "aim won < 50%: " in rows[1]
    assert all("theirs" in row for row in rows)  # the normal level searched
    assert re.fullmatch(r"aims met: [012] of 2", out[-2])


AKULINA_ROUND = 2
"""A deal of three-player Akulina whose heuristics pass the same cards round
for ever (in the arena's seat order)."""


@pytest.mark.parametrize(("repeats", "endless"), [(going_round.REPEATS, False), (10**9, True)])
def test_arena_computers_going_round_move_at_random_as_the_bots_do(
    monkeypatch: pytest.MonkeyPatch, repeats: int, endless: bool
) -> None:
    monkeypatch.setattr(going_round, "REPEATS", repeats)
    line = arena.Line("durak", Trial("akulina", 3, tested="heuristic"))
    played = arena.play_one(line, AKULINA_ROUND, 0, Level.HARD, scale=1.0)
    assert played.endless is endless
