"""The Durak heuristic compiled at install: the tests play it, it chooses as
its source does, and a build is used only while the sources are as it was
made from."""

from __future__ import annotations

import importlib.util
import os
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import players.durak
from bot.catalog import CATALOG
from games.durak import PRESETS, Durak
from players import compiled
from players.arena import next_seat

SPEC = CATALOG.specs["durak"]
BUILT = compiled.ROOT / compiled.BUILD / compiled.STAMP


def source_module() -> ModuleType:
    """``players/durak.py`` run from its source, under another name."""
    path = compiled.ROOT / "players" / "durak.py"
    spec = importlib.util.spec_from_file_location("durak_from_source", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # where its dataclasses look themselves up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def require_the_build() -> None:
    if os.environ.get("KOLODA_INTERPRETED"):
        pytest.skip("KOLODA_INTERPRETED is set")
    if BUILT.is_file() and not compiled.fresh():
        pytest.skip("a source changed since the build: scripts/install builds it again")
    assert BUILT.is_file(), "no build: scripts/install compiles the Durak heuristic"


def test_the_tests_play_the_compiled_heuristic() -> None:
    require_the_build()
    assert players.durak.__file__ is not None
    assert players.durak.__file__.endswith(".so")
    assert Path(players.durak.__file__).is_relative_to(compiled.ROOT / compiled.BUILD)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_compiled_heuristic_chooses_as_its_source_does(preset: str) -> None:
    """Whole games of every preset, at the fewest and the most seats: at every
    choice both are asked, with the same seed, and must agree."""
    require_the_build()
    built, source = players.durak.DurakHeuristic(), source_module().DurakHeuristic()
    rules = PRESETS[preset]
    choices = 0
    seat_range = SPEC.seat_range(rules)
    for seats in sorted({seat_range[0], seat_range[-1]}):
        rng = random.Random(f"{preset}:{seats}")
        game = Durak.new(rules, seats, rng)
        while (actors := sorted(game.to_move())) and choices < 3_000:
            seat = next_seat(game, actors, rng)
            legal = game.legal_actions(seat)
            seed = rng.getrandbits(32)
            view = game.view(seat)
            action: Any = built.choose(rules, view, legal, random.Random(seed))
            assert action == source.choose(rules, view, legal, random.Random(seed))
            game.apply(seat, action)
            choices += len(legal) > 1
    assert choices > 50


def sources(root: Path) -> None:
    for folder in compiled.WATCHED:
        (root / folder).mkdir()
        (root / folder / "module.py").write_text(f"# {folder}\n")


def test_a_build_is_used_only_while_the_sources_are_as_it_was_made_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delenv("KOLODA_INTERPRETED", raising=False)
    sources(tmp_path)
    (tmp_path / compiled.BUILD).mkdir()
    (tmp_path / compiled.BUILD / compiled.STAMP).write_text(compiled.fingerprint(tmp_path))
    package_path = ["players"]
    assert compiled.enable(package_path, tmp_path)
    assert package_path == [str(tmp_path / compiled.BUILD / "players"), "players"]
    assert sys.path[-1] == str(tmp_path / compiled.BUILD)

    monkeypatch.setenv("KOLODA_INTERPRETED", "1")
    package_path = ["players"]
    assert not compiled.enable(package_path, tmp_path)
    monkeypatch.delenv("KOLODA_INTERPRETED")

    (tmp_path / "games" / "module.py").write_text("# games, edited\n")
    assert not compiled.fresh(tmp_path)
    assert not compiled.enable(package_path, tmp_path)
    assert package_path == ["players"]


def test_a_failed_build_leaves_the_players_interpreted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Here the source to compile is missing; a machine without a C compiler
    fails the same way, later."""
    sources(tmp_path)
    assert not compiled.build(tmp_path)
    assert not (tmp_path / compiled.BUILD / compiled.STAMP).exists()
    told = capsys.readouterr().out.splitlines()
    assert "players/durak.py" in told[0]  # mypyc's own reason
    assert told[-1] == "players.compiled: not compiled (see above); the players run interpreted"
    assert Path.cwd() != tmp_path
