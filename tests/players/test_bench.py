"""The players' benchmark runs (a couple of games per line)."""

from __future__ import annotations

import pytest

from bench.players import main


def test_bench_prints_a_line_per_match_up(capsys: pytest.CaptureFixture[str]) -> None:
    lines = main(["--games", "2"])
    out = capsys.readouterr().out
    assert len(lines) == len(out.strip().splitlines()) - 2
    assert {line.game for line in lines} == {"durak", "101", "joker"}
    assert all(0 <= line.wins <= line.games == 2 for line in lines)
